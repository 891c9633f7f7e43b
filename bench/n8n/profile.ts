/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * Item 6's profile: where the n8n process spends its CPU per event for our trigger, n8n's bare
 * Webhook node and the Webhook node with Header Auth, under the same load as item 6. n8n runs with
 * `--cpu-prof` (written when it exits); the bench notes the monotonic time around each side's load,
 * and the profile's samples in those windows are split by the code they were in:
 *
 * - `package`: the sample's stack passes through this package (our webhook(), inclusive of what it
 *   calls in n8n, e.g. reading a credential);
 * - `database`: otherwise in typeorm, sqlite3 or n8n's db layer (saving executions, static data);
 * - `n8n`: otherwise in n8n's own code; `node`: Node's internals and natives; `gc`: the collector.
 *
 * V8 stamps samples with the same monotonic clock as `process.hrtime` (CLOCK_MONOTONIC on Linux),
 * so the windows line up without any marker inside n8n.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { startSession } from '../../test/harness';
import { ratios, type Row, type Section } from '../result';
import { createSides, runSide, type SideName } from './events';

const CATEGORIES = ['package', 'database', 'n8n', 'node', 'gc'] as const;
type Category = (typeof CATEGORIES)[number];

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** Microseconds on the monotonic clock V8 stamps its samples with. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function categorize(profile: CpuProfile): Map<number, Category | 'idle'> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const ours = (id: number): boolean => {
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
			if (byId.get(at)!.callFrame.url.includes('n8n-nodes-gst-compliance')) return true;
		return false;
	};
	const result = new Map<number, Category | 'idle'>();
	for (const node of profile.nodes) {
		const { functionName, url } = node.callFrame;
		let category: Category | 'idle';
		if (functionName === '(idle)' || functionName === '(program)') category = 'idle';
		else if (functionName === '(garbage collector)') category = 'gc';
		else if (ours(node.id)) category = 'package';
		else if (/typeorm|sqlite3|[\\/]pg[\\/]|@n8n[\\/]db/.test(url)) category = 'database';
		else if (/[\\/](n8n[^\\/]*|@n8n)[\\/]/.test(url)) category = 'n8n';
		else category = 'node';
		result.set(node.id, category);
	}
	return result;
}

/** CPU microseconds per category inside [from, to). */
function cpuIn(
	profile: CpuProfile,
	categories: Map<number, Category | 'idle'>,
	from: number,
	to: number,
) {
	const totals: Record<Category, number> = { package: 0, database: 0, n8n: 0, node: 0, gc: 0 };
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i];
		const delta = profile.timeDeltas[i + 1] ?? 0;
		if (at < from || at >= to) continue;
		const category = categories.get(profile.samples[i]);
		if (category && category !== 'idle') totals[category] += delta;
	}
	return totals;
}

/** Inclusive CPU microseconds per function (name and file) inside the windows. */
function inclusiveIn(profile: CpuProfile, windows: Array<[number, number]>): Map<string, number> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const label = (node: ProfileNode) =>
		`${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '')}`;
	const totals = new Map<string, number>();
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i];
		const delta = profile.timeDeltas[i + 1] ?? 0;
		if (!windows.some(([from, to]) => at >= from && at < to)) continue;
		const seen = new Set<string>();
		for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
			const node = byId.get(id)!;
			if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)')
				break;
			seen.add(label(node));
		}
		for (const key of seen) totals.set(key, (totals.get(key) ?? 0) + delta);
	}
	return totals;
}

/** The functions whose inclusive time per event differs most between two sides. */
function topDifferences(
	profile: CpuProfile,
	ours: Array<[number, number]>,
	base: Array<[number, number]>,
	events: number,
): string[] {
	const a = inclusiveIn(profile, ours);
	const b = inclusiveIn(profile, base);
	const perEvent = (us: number, windows: number) => us / 1000 / (events * windows);
	return [...new Set([...a.keys(), ...b.keys()])]
		.map((key) => ({
			key,
			diff: perEvent(a.get(key) ?? 0, ours.length) - perEvent(b.get(key) ?? 0, base.length),
		}))
		.sort((x, y) => y.diff - x.diff)
		.slice(0, 25)
		.map(({ key, diff }) => `${diff.toFixed(2)} ms/event  ${key}`);
}

export async function profileBench(runs: number, quick: boolean): Promise<Section> {
	const title = "Item 6's CPU profile: the n8n process per event, by where the time goes";
	const events = quick ? 150 : 300;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-cpu-prof-'));
	const session = await startSession(
		{ apiRateLimitPerMinute: 1_000_000 },
		{
			name: 'bench-profile',
			env: {
				N8N_LOG_LEVEL: 'warn',
				NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=500`,
			},
		},
	);
	const names: SideName[] = ['ours', 'bare', 'headerAuth'];
	const windows: Record<SideName, Array<[number, number]>> = { ours: [], bare: [], headerAuth: [] };
	const pid = session.n8n.pid;
	try {
		const sides = await createSides(session);
		const seq = { next: 0 };
		for (const name of names)
			await runSide(session.n8n, sides[name], 20, session.signingSecret, seq);
		for (let run = 0; run < runs; run++)
			for (const name of names.map((_, i) => names[(i + run) % names.length])) {
				const from = monotonicMicros();
				await runSide(session.n8n, sides[name], events, session.signingSecret, seq);
				windows[name].push([from, monotonicMicros()]);
			}
	} finally {
		await session.stop();
	}
	const file =
		fs.readdirSync(dir).find((name) => name.endsWith(`.${pid}.0.001.cpuprofile`)) ??
		fs.readdirSync(dir).find((name) => name.includes(`.${pid}.`));
	if (!file) throw new Error(`no CPU profile of the n8n process (pid ${pid}) in ${dir}`);
	const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
	const categories = categorize(profile);
	/** Per side and run: CPU ms per event in each category. */
	const perEvent = (name: SideName) =>
		windows[name].map(([from, to]) => {
			const totals = cpuIn(profile, categories, from, to);
			return Object.fromEntries(CATEGORIES.map((c) => [c, totals[c] / 1000 / events])) as Record<
				Category,
				number
			>;
		});
	const measured = Object.fromEntries(names.map((n) => [n, perEvent(n)])) as Record<
		SideName,
		Array<Record<Category, number>>
	>;
	for (const [label, base] of [
		['bare Webhook node', 'bare'],
		['Webhook node + Header Auth', 'headerAuth'],
	] as const)
		process.stdout.write(
			`bench: functions with the most more inclusive CPU per event, our trigger vs the ${label}:\n  ${topDifferences(profile, windows.ours, windows[base], events).join('\n  ')}\n`,
		);
	const total = (name: SideName) =>
		measured[name].map((run) => CATEGORIES.reduce((sum, c) => sum + run[c], 0));
	/** Our trigger's CPU per event against one of n8n's Webhook nodes, in the same runs. */
	const versus = (base: SideName, label: string, what: string, note?: string): Row => ({
		item: '6p',
		what,
		unit: 'ms/event',
		ours: total('ours'),
		baseline: { label, values: total(base) },
		ratio: ratios(total('ours'), total(base)),
		goal: '— (context)',
		note,
	});
	const rows: Row[] = [
		versus(
			'bare',
			'bare Webhook node',
			'CPU of the n8n process per event, our trigger ÷ the bare Webhook node',
			`Profile ${file} (sampled every 0.5 ms), ${events} events per run and side.`,
		),
		versus(
			'headerAuth',
			'Webhook node + Header Auth',
			'Same profile, our trigger ÷ the Webhook node with Header Auth',
		),
		...CATEGORIES.map(
			(category): Row => ({
				item: '6p',
				what: `… of which ${category === 'package' ? "in this package's code (inclusive)" : category === 'gc' ? 'garbage collection' : `in ${category === 'node' ? "Node's internals" : category === 'n8n' ? "n8n's own code" : "n8n's database layer"}`}: our trigger vs the bare node`,
				unit: 'ms/event',
				ours: measured.ours.map((run) => run[category]),
				baseline: { label: 'bare Webhook node', values: measured.bare.map((run) => run[category]) },
				ratio: measured.ours.map((run, i) => run[category] - measured.bare[i][category]),
				goal: 'difference, ms/event',
			}),
		),
	];
	return { title, rows };
}
