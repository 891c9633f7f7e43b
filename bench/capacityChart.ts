/**
 * The built-in store's capacity curve (bench item 9) as an SVG: events/s and bytes written per event
 * against the ids remembered, one line per deployment (SQLite, Postgres). Drawn from the table of
 * docs/benchmarks.md, so the picture always shows the figures of the table beside it.
 */

export interface CapacityPoint {
	/** `Regular mode, SQLite`, `Queue mode, Postgres`. */
	mode: string;
	ids: number;
	eventsPerSecond?: number;
	bytesPerEvent?: number;
}

const ROW =
	/^\|\s*9\s*\|\s*(.+?): built-in store(?:, empty| with ([\d,]+) ids): (events\/s|bytes written per event)\s*\|\s*([\d.]+)/;
const BASELINE = /\|\s*([\d.]+) \[[^\]]*\] events\/s — built-in store, empty\s*\|/;

/** Item 9's medians, read from the markdown table. */
export function capacityPoints(markdown: string): CapacityPoint[] {
	const points = new Map<string, CapacityPoint>();
	const point = (mode: string, ids: number) => {
		const key = `${mode}:${ids}`;
		if (!points.has(key)) points.set(key, { mode, ids });
		return points.get(key) as CapacityPoint;
	};
	for (const line of markdown.split('\n')) {
		const match = ROW.exec(line);
		if (!match) continue;
		const [, mode, ids, measure, median] = match;
		const at = point(mode, ids ? Number(ids.replace(/,/g, '')) : 0);
		if (measure === 'events/s') {
			at.eventsPerSecond = Number(median);
			// The empty store's rate is the baseline of every events/s row.
			const baseline = BASELINE.exec(line);
			if (baseline) point(mode, 0).eventsPerSecond = Number(baseline[1]);
		} else at.bytesPerEvent = Number(median);
	}
	return [...points.values()].sort((a, b) => a.mode.localeCompare(b.mode) || a.ids - b.ids);
}

const WIDTH = 960;
const HEIGHT = 390;
const PANEL = { width: 360, height: 240, top: 60, left: [80, 560] };
const COLOURS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700'];

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A round step that divides `value` into at most five ticks. */
function niceStep(value: number): number {
	if (value <= 0) return 1;
	const rough = value / 5;
	const power = 10 ** Math.floor(Math.log10(rough));
	return ([1, 2, 2.5, 5, 10].find((s) => s * power >= rough) as number) * power;
}

function formatTick(value: number, unit: 'ids' | 'events/s' | 'bytes'): string {
	if (unit === 'bytes')
		return value >= 1e6 ? `${value / 1e6} MB` : value === 0 ? '0' : `${Math.round(value / 1e3)} kB`;
	if (unit === 'ids') return value >= 1e3 ? `${value / 1e3}k` : String(value);
	return String(Math.round(value * 10) / 10);
}

function panel(
	points: CapacityPoint[],
	modes: string[],
	measure: 'eventsPerSecond' | 'bytesPerEvent',
	left: number,
	title: string,
): string {
	const idsStep = niceStep(Math.max(...points.map((p) => p.ids)));
	const maxIds = idsStep * Math.ceil(Math.max(...points.map((p) => p.ids)) / idsStep);
	const top = Math.max(...points.map((p) => p[measure] ?? 0));
	const yStep = niceStep(top);
	const maxY = yStep * Math.ceil(top / yStep);
	const x = (ids: number) => left + (ids / maxIds) * PANEL.width;
	const y = (v: number) => PANEL.top + PANEL.height - (v / maxY) * PANEL.height;
	const parts: string[] = [
		`<text x="${left + PANEL.width / 2}" y="${PANEL.top - 20}" text-anchor="middle" font-weight="bold">${escape(title)}</text>`,
		`<rect x="${left}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#d0d7de"/>`,
	];
	for (let ids = 0; ids <= maxIds; ids += idsStep)
		parts.push(
			`<line x1="${x(ids)}" y1="${PANEL.top}" x2="${x(ids)}" y2="${PANEL.top + PANEL.height}" stroke="#eaeef2"/>`,
			`<text x="${x(ids)}" y="${PANEL.top + PANEL.height + 18}" text-anchor="middle">${formatTick(ids, 'ids')}</text>`,
		);
	for (let v = 0; v <= maxY; v += yStep)
		parts.push(
			`<line x1="${left}" y1="${y(v)}" x2="${left + PANEL.width}" y2="${y(v)}" stroke="#eaeef2"/>`,
			`<text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${formatTick(v, measure === 'bytesPerEvent' ? 'bytes' : 'events/s')}</text>`,
		);
	parts.push(
		`<text x="${left + PANEL.width / 2}" y="${PANEL.top + PANEL.height + 40}" text-anchor="middle">event ids remembered</text>`,
	);
	modes.forEach((mode, i) => {
		const line = points.filter((p) => p.mode === mode && p[measure] !== undefined);
		const colour = COLOURS[i % COLOURS.length];
		const path = line.map((p) => `${x(p.ids).toFixed(1)},${y(p[measure] as number).toFixed(1)}`);
		parts.push(
			`<polyline points="${path.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"/>`,
			...line.map(
				(p) =>
					`<circle cx="${x(p.ids).toFixed(1)}" cy="${y(p[measure] as number).toFixed(1)}" r="3.5" fill="${colour}"/>`,
			),
		);
	});
	return parts.join('\n');
}

/** The chart, or undefined when the table holds no item-9 figures (a run without n8n). */
export function capacitySvg(points: CapacityPoint[]): string | undefined {
	if (points.length === 0) return undefined;
	const modes = [...new Set(points.map((p) => p.mode))];
	const legend = modes
		.map(
			(mode, i) =>
				`<rect x="${PANEL.left[0] + i * 260}" y="${HEIGHT - 20}" width="14" height="4" fill="${COLOURS[i % COLOURS.length]}"/>` +
				`<text x="${PANEL.left[0] + 20 + i * 260}" y="${HEIGHT - 14}">${escape(mode)}</text>`,
		)
		.join('\n');
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" fill="#1f2328">`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		panel(points, modes, 'eventsPerSecond', PANEL.left[0], 'Events per second (median)'),
		panel(points, modes, 'bytesPerEvent', PANEL.left[1], 'Bytes written per event (median)'),
		legend,
		'</svg>',
		'',
	].join('\n');
}
