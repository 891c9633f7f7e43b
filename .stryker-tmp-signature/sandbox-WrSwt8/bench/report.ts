/** The table of results: plain text for the console, Markdown for docs/benchmarks.md. */
// @ts-nocheck

import { verdict, type Row, type Section } from './result';
import { summarize } from './stats';

function number(value: number): string {
	if (Number.isInteger(value)) return String(value);
	if (Math.abs(value) >= 100) return value.toFixed(0);
	if (Math.abs(value) >= 10) return value.toFixed(1);
	return value.toFixed(2);
}

/** `median [min–max]`, or the single value when every run agrees. */
export function spread(values: readonly number[]): string {
	const { median, min, max } = summarize(values);
	return min === max ? number(median) : `${number(median)} [${number(min)}–${number(max)}]`;
}

const HEADER = [
	'#',
	'Measure',
	'Ours',
	'Comparison (same runs)',
	'Ratio / figure',
	'Goal',
	'Result',
];

function cells(row: Row): string[] {
	const baseline = row.baseline
		? `${spread(row.baseline.values)} ${row.unit} — ${row.baseline.label}`
		: '—';
	return [
		row.item,
		row.what,
		`${spread(row.ours)} ${row.unit}`,
		baseline,
		spread(row.ratio),
		row.goal,
		verdict(row),
	];
}

export function markdownTable(sections: Section[]): string {
	const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
	for (const section of sections) {
		if (section.skipped)
			lines.push(`| | **${section.title}**: not run — ${section.skipped} | | | | | |`);
		for (const row of section.rows)
			lines.push(
				`| ${cells(row)
					.map((c) => c.replace(/\|/g, '\\|'))
					.join(' | ')} |`,
			);
	}
	return lines.join('\n');
}

export function consoleTable(sections: Section[]): string {
	const rows = sections.flatMap((section) => section.rows.map(cells));
	const widths = HEADER.map((title, col) =>
		Math.max(title.length, ...rows.map((row) => row[col].length)),
	);
	const line = (row: string[]) => row.map((cell, col) => cell.padEnd(widths[col])).join('  ');
	const out = [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
	for (const section of sections)
		if (section.skipped) out.push(`(${section.title}: not run — ${section.skipped})`);
	return out.join('\n');
}

export function notes(sections: Section[]): string[] {
	return sections.flatMap((section) =>
		section.rows.filter((row) => row.note).map((row) => `- Item ${row.item}: ${row.note}`),
	);
}
