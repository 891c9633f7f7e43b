/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * Item 6's profile: where the n8n process spends its CPU per event for our trigger, n8n's bare
 * Webhook node and the Webhook node with Header Auth, under the same load as item 6. n8n runs with
 * `--cpu-prof` (written when it exits); the bench notes the monotonic time around each side's load,
 * and the profile's samples in those windows are split by the code they were in:
 *
 * - `package`: the sample's stack passes through this package (our webhook(), inclusive of what it
 *   calls in n8n, e.g. reading a credential), except writing the answer to its socket, which is
 *   Node's for every side;
 * - `database`: otherwise in typeorm, sqlite3 or n8n's db layer (saving executions, static data);
 * - `n8n`: otherwise in n8n's own code; `node`: Node's internals and natives; `gc`: the collector.
 *
 * V8 stamps samples with the same monotonic clock as `process.hrtime` (CLOCK_MONOTONIC on Linux),
 * so the windows line up without any marker inside n8n.
 *
 * How much CPU is the kernel's count (/proc), not the samples': a sample's time runs to the next
 * one, which includes any time the thread waited for a core, and on 2 cores shared with the load
 * generator that inflates every category alike. The samples say where the main thread's CPU went
 * (each category's share of it); the process's other threads (n8n's expression isolates, the
 * database's thread pool, the collector's helpers) are their own category, without the profiler's
 * own thread.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';

import { startSession } from '../../test/harness';
import { NODE_MODULES } from '../../test/harness/install';
import { ratios, type Row, type Section } from '../result';
import { createSides, runSide, type SideName } from './events';

const SAMPLED = ['package', 'database', 'n8n', 'node', 'gc'] as const;
type Sampled = (typeof SAMPLED)[number];
const CATEGORIES = [...SAMPLED, 'threads'] as const;
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

/** Clock ticks per second, the unit of /proc's CPU times. */
const CLOCK_TICKS =
	Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** The thread of V8's sampling profiler: the measurement's own cost, not n8n's. */
const PROFILER_THREAD = 'v8:ProfEvntProc';

/**
 * CPU microseconds the kernel has charged to the process (every thread, ended ones included), to
 * its main thread, and to its other live threads by name.
 */
function kernelCpu(pid: number): {
	process: number;
	main: number;
	threads: Record<string, number>;
} {
	const read = (file: string) => {
		// After "pid (comm) ", the fields count from the state (field 3): utime is 14, stime 15.
		const fields = fs
			.readFileSync(file, 'utf8')
			.replace(/^.*\) /s, '')
			.split(' ');
		return ((Number(fields[14 - 3]) + Number(fields[15 - 3])) * 1e6) / CLOCK_TICKS;
	};
	const threads: Record<string, number> = {};
	for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
		if (task === String(pid)) continue;
		try {
			const name = fs.readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
			threads[name] = (threads[name] ?? 0) + read(`/proc/${pid}/task/${task}/stat`);
		} catch {
			// the thread ended between the listing and the read
		}
	}
	return {
		process: read(`/proc/${pid}/stat`),
		main: read(`/proc/${pid}/task/${pid}/stat`),
		threads,
	};
}

/** A window of one side's load: the monotonic time and the kernel's CPU counts at each end. */
interface Window {
	from: number;
	to: number;
	cpuFrom: ReturnType<typeof kernelCpu>;
	cpuTo: ReturnType<typeof kernelCpu>;
}

function categorize(profile: CpuProfile): Map<number, Sampled | 'idle'> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	// Writing an HTTP answer to its socket is Node's, whoever asks for it: n8n writes the Webhook
	// nodes' answers, the trigger its own 202 (n8nCompat.ts answerAtOnce).
	const ours = (id: number): boolean => {
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const { url } = byId.get(at)!.callFrame;
			if (url.startsWith('node:_http_outgoing') || url.startsWith('node:_http_server'))
				return false;
			if (url.includes('n8n-nodes-gst-compliance')) return true;
		}
		return false;
	};
	const result = new Map<number, Sampled | 'idle'>();
	for (const node of profile.nodes) {
		const { functionName, url } = node.callFrame;
		let category: Sampled | 'idle';
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

/** Sampled microseconds per category inside [from, to). */
function sampledIn(
	profile: CpuProfile,
	categories: Map<number, Sampled | 'idle'>,
	from: number,
	to: number,
) {
	const totals: Record<Sampled, number> = { package: 0, database: 0, n8n: 0, node: 0, gc: 0 };
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

/**
 * A window's samples as CPU: each sample's time, scaled so the window's samples add up to the
 * kernel's count for the main thread.
 */
interface Span {
	from: number;
	to: number;
	scale: number;
}

/** Each sample inside the spans: its stack, innermost first, and its CPU microseconds. */
function* samplesIn(
	profile: CpuProfile,
	spans: Span[],
): Generator<{ stack: ProfileNode[]; us: number }> {
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	let at = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		at += profile.timeDeltas[i];
		const span = spans.find(({ from, to }) => at >= from && at < to);
		if (!span) continue;
		const stack: ProfileNode[] = [];
		for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id))
			stack.push(byId.get(id)!);
		yield { stack, us: (profile.timeDeltas[i + 1] ?? 0) * span.scale };
	}
}

const label = (node: ProfileNode) =>
	`${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '')}`;

/** Inclusive CPU microseconds per function (name and file) inside the spans. */
function inclusiveIn(profile: CpuProfile, spans: Span[]): Map<string, number> {
	const totals = new Map<string, number>();
	for (const { stack, us } of samplesIn(profile, spans)) {
		const seen = new Set<string>();
		for (const node of stack) {
			if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)')
				break;
			seen.add(label(node));
		}
		for (const key of seen) totals.set(key, (totals.get(key) ?? 0) + us);
	}
	return totals;
}

/** The functions whose inclusive time per event differs most between two sides. */
function topDifferences(profile: CpuProfile, ours: Span[], base: Span[], events: number): string[] {
	const a = inclusiveIn(profile, ours);
	const b = inclusiveIn(profile, base);
	const perEvent = (us: number, spans: number) => us / 1000 / (events * spans);
	return [...new Set([...a.keys(), ...b.keys()])]
		.map((key) => ({
			key,
			diff: perEvent(a.get(key) ?? 0, ours.length) - perEvent(b.get(key) ?? 0, base.length),
		}))
		.sort((x, y) => y.diff - x.diff)
		.slice(0, 25)
		.map(({ key, diff }) => `${diff.toFixed(2)} ms/event  ${key}`);
}

/** Where the CPU under this package's code ends up: samples by their innermost function. */
function ownLeaves(profile: CpuProfile, spans: Span[], events: number) {
	const totals = new Map<string, number>();
	for (const { stack, us } of samplesIn(profile, spans)) {
		const ours = stack.find((node) => node.callFrame.url.includes('n8n-nodes-gst-compliance'));
		if (!ours) continue;
		const key = `${ours.callFrame.functionName || '(anonymous)'} → ${stack[0] === ours ? '(own code)' : label(stack[0])}`;
		totals.set(key, (totals.get(key) ?? 0) + us);
	}
	return [...totals]
		.sort((a, b) => b[1] - a[1])
		.slice(0, 20)
		.map(([key, us]) => `${(us / 1000 / (events * spans.length)).toFixed(3)} ms/event  ${key}`);
}

/** This package's functions in our trigger's spans, by inclusive CPU per event. */
function ownFunctions(profile: CpuProfile, spans: Span[], events: number) {
	const totals = inclusiveIn(profile, spans);
	return [...totals]
		.filter(([key]) => key.includes('n8n-nodes-gst-compliance'))
		.sort((a, b) => b[1] - a[1])
		.slice(0, 20)
		.map(
			([key, us]) =>
				`${(us / 1000 / (events * spans.length)).toFixed(3)} ms/event  ${key.replace(/\S*n8n-nodes-gst-compliance\/dist\//, '')}`,
		);
}

/** One n8n's profile as the rows need it: plain values, so a child process can hand it over. */
interface Measurement {
	version: string;
	/** The expression engine n8n ran with, when not its default (`N8N_EXPRESSION_ENGINE`). */
	engine?: string;
	file: string;
	events: number;
	/** Per side and run: CPU ms per event in each category (their sum is the process's). */
	measured: Record<SideName, Array<Record<Category, number>>>;
}

/**
 * The n8n of the main runtime, and the newest of the claimed range whose webhooks acquire no
 * expression isolate (n8n 2.0–2.33): 2.41's default engine acquires one for every request to a
 * trigger other than its own Webhook node (bench/method.md), its `legacy` engine none. The
 * whole-process goal is judged where n8n runs both sides the same way: 2.41 with the legacy
 * engine, and 2.8.4; each is measured side by side in its own run.
 */
const WITHOUT_WEBHOOK_ISOLATE = '2.8.4';
const LEGACY_ENGINE = 'legacy';

export async function profileBench(runs: number, quick: boolean): Promise<Section> {
	const title = "Item 6's CPU profile: the n8n process per event, by where the time goes";
	const main = await measureProfile(runs, quick);
	// The main runtime again (its folder is chosen the way this run's was), with the legacy engine.
	const legacy = measureInChild(process.env.E2E_N8N_VERSION, runs, quick, LEGACY_ENGINE);
	const other = measureInChild(WITHOUT_WEBHOOK_ISOLATE, runs, quick);
	return {
		title,
		rows: [...profileRows(main, true), ...profileRows(legacy, false), ...profileRows(other, false)],
	};
}

/**
 * The same measurement in a child process: the runtime of n8n `version` (the main runtime when
 * undefined; installed here when missing) is chosen when the harness loads.
 */
function measureInChild(
	version: string | undefined,
	runs: number,
	quick: boolean,
	engine?: string,
): Measurement {
	const named = version ? `n8n ${version}` : "the main runtime's n8n";
	const env = {
		...process.env,
		...(version ? { E2E_N8N_VERSION: version } : {}),
		...(engine ? { BENCH_EXPRESSION_ENGINE: engine } : {}),
	};
	const install = spawnSync(
		process.execPath,
		[
			path.join(__dirname, '..', '..', 'test', 'harness', 'install.js'),
			'--no-browser',
			'--no-services',
		],
		{ env, stdio: ['ignore', 'inherit', 'inherit'] },
	);
	if (install.status !== 0)
		throw new Error(
			`${named}: its runtime did not install (exit ${install.status}); try: ${version ? `E2E_N8N_VERSION=${version} ` : ''}npm run e2e:install`,
		);
	const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gst-prof-')), 'measurement.json');
	const child = spawnSync(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			__filename,
			String(runs),
			quick ? 'quick' : 'full',
			out,
		],
		{ env, stdio: ['ignore', 'inherit', 'inherit'] },
	);
	if (child.status !== 0 || !fs.existsSync(out))
		throw new Error(
			`item 6's profile on ${named}${engine ? ` (${engine} engine)` : ''} failed (exit ${child.status}); what it said is above`,
		);
	return JSON.parse(fs.readFileSync(out, 'utf8')) as Measurement;
}

async function measureProfile(runs: number, quick: boolean, engine?: string): Promise<Measurement> {
	const events = quick ? 150 : 300;
	const version = (
		JSON.parse(fs.readFileSync(path.join(NODE_MODULES, 'n8n', 'package.json'), 'utf8')) as {
			version: string;
		}
	).version;
	process.stdout.write(
		`bench: item 6's CPU profile on n8n ${version}${engine ? ` (${engine} expression engine)` : ''} …\n`,
	);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-cpu-prof-'));
	const session = await startSession(
		{ apiRateLimitPerMinute: 1_000_000 },
		{
			name: 'bench-profile',
			env: {
				N8N_LOG_LEVEL: 'warn',
				NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=500`,
				...(engine ? { N8N_EXPRESSION_ENGINE: engine } : {}),
			},
		},
	);
	const names: SideName[] = ['ours', 'bare', 'headerAuth'];
	const windows: Record<SideName, Window[]> = { ours: [], bare: [], headerAuth: [] };
	const pid = session.n8n.pid!;
	try {
		const sides = await createSides(session);
		const seq = { next: 0 };
		for (const name of names)
			await runSide(session.n8n, sides[name], 20, session.signingSecret, seq);
		for (let run = 0; run < runs; run++)
			for (const name of names.map((_, i) => names[(i + run) % names.length])) {
				const from = monotonicMicros();
				const cpuFrom = kernelCpu(pid);
				await runSide(session.n8n, sides[name], events, session.signingSecret, seq);
				windows[name].push({ from, to: monotonicMicros(), cpuFrom, cpuTo: kernelCpu(pid) });
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
	const sampled = (window: Window) => sampledIn(profile, categories, window.from, window.to);
	const sum = (totals: Record<Sampled, number>) => SAMPLED.reduce((all, c) => all + totals[c], 0);
	const spans = (name: SideName): Span[] =>
		windows[name].map((window) => ({
			from: window.from,
			to: window.to,
			scale: (window.cpuTo.main - window.cpuFrom.main) / sum(sampled(window)),
		}));
	const threadsIn = (window: Window, name: string) =>
		Object.entries(window.cpuTo.threads)
			.filter(([thread]) => thread === name)
			.reduce((all, [thread, us]) => all + us - (window.cpuFrom.threads[thread] ?? 0), 0);
	const perEvent = (name: SideName) =>
		windows[name].map((window) => {
			const totals = sampled(window);
			const main = window.cpuTo.main - window.cpuFrom.main;
			const ms = (us: number) => us / 1000 / events;
			return {
				...Object.fromEntries(SAMPLED.map((c) => [c, ms((totals[c] / sum(totals)) * main)])),
				threads: ms(
					window.cpuTo.process - window.cpuFrom.process - main - threadsIn(window, PROFILER_THREAD),
				),
			} as Record<Category, number>;
		});
	const say = (what: string, lines: string[]) =>
		process.stdout.write(`bench: n8n ${version}, ${what}:\n  ${lines.join('\n  ')}\n`);
	say(
		"the samples' time ÷ the kernel's CPU of the main thread, per side and run",
		names.map(
			(name) =>
				`${name}: ${spans(name)
					.map(({ scale }) => (1 / scale).toFixed(2))
					.join(' ')}`,
		),
	);
	say(
		"the other threads' CPU per event by thread name, per side and run",
		names.flatMap((name) =>
			windows[name].map(
				(window) =>
					`${name}: ${Object.keys(window.cpuTo.threads)
						.map((thread) => `${thread} ${(threadsIn(window, thread) / 1000 / events).toFixed(2)}`)
						.join(', ')}`,
			),
		),
	);
	say(
		"this package's functions by inclusive CPU per event (our trigger)",
		ownFunctions(profile, spans('ours'), events),
	);
	say(
		"under this package's innermost function, where the CPU ends up (our trigger)",
		ownLeaves(profile, spans('ours'), events),
	);
	for (const [label, base] of [
		['bare Webhook node', 'bare'],
		['Webhook node + Header Auth', 'headerAuth'],
	] as const)
		say(
			`functions with the most more inclusive CPU per event, our trigger vs the ${label}`,
			topDifferences(profile, spans('ours'), spans(base), events),
		);
	return {
		version,
		...(engine ? { engine } : {}),
		file,
		events,
		measured: {
			ours: perEvent('ours'),
			bare: perEvent('bare'),
			headerAuth: perEvent('headerAuth'),
		},
	};
}

/**
 * The rows of one n8n's profile. The main n8n (its default engine) carries the package's goal:
 * this package's CPU per event as a share of n8n's for its bare Webhook node. Each other carries
 * the whole process's goal against the Webhook node with Header Auth, which n8n runs the same way
 * as our trigger there (no expression isolate for either).
 */
function profileRows(
	{ version, engine, file, events, measured }: Measurement,
	main: boolean,
): Row[] {
	const total = (name: SideName) =>
		measured[name].map((run) => CATEGORIES.reduce((sum, c) => sum + run[c], 0));
	const on = `n8n ${version}${engine ? ` (${engine} expression engine)` : ''}: `;
	const rows: Row[] = [
		{
			item: '6p',
			what: `${on}CPU of the n8n process per event, our trigger ÷ the bare Webhook node`,
			unit: 'ms/event',
			ours: total('ours'),
			baseline: { label: 'bare Webhook node', values: total('bare') },
			ratio: ratios(total('ours'), total('bare')),
			goal: '— (context)',
			note: `The kernel's CPU count of the n8n process, every thread; profile ${file} of n8n ${version} (sampled every 0.5 ms) splits its main thread's share. ${events} events per run and side.`,
		},
		{
			item: '6p',
			what: `${on}same profile, our trigger ÷ the Webhook node with Header Auth`,
			unit: 'ms/event',
			ours: total('ours'),
			baseline: { label: 'Webhook node + Header Auth', values: total('headerAuth') },
			ratio: ratios(total('ours'), total('headerAuth')),
			...(main
				? {
						goal: '— (context)',
						note: `On n8n ${version}'s default engine most of the difference is n8n's: an expression isolate acquired for every request to a trigger other than its own Webhook node (bench/method.md), which no package can opt out of; the rows with the ${LEGACY_ENGINE} engine and on n8n ${WITHOUT_WEBHOOK_ISOLATE} below are the same load without it, and carry the goal.`,
					}
				: {
						goal: '≤ 1.0×',
						met: (ratio: { median: number }) => ratio.median <= 1,
						note: 'Both answer only authenticated calls, and n8n acquires no expression isolate for either here; the Webhook node reads and decrypts its credential on every request, our trigger once per 5 s.',
					}),
		},
	];
	if (main) {
		const share = measured.ours.map((run, i) => (100 * run.package) / total('bare')[i]);
		rows.push({
			item: '6p',
			what: `${on}this package's own CPU per event ÷ n8n's CPU per event for its bare Webhook node`,
			unit: '%',
			ours: share,
			ratio: share,
			goal: '≤ 5 %',
			met: (ratio) => ratio.median <= 5,
			note: "This package's code: inclusive, without writing the answer to the socket (Node's for every side). A share of what n8n spends on its own cheapest webhook holds from machine to machine, where milliseconds do not.",
		});
	}
	const label = (category: Category) =>
		({
			package: "in this package's code (inclusive, without writing the answer to the socket)",
			database: "in n8n's database layer",
			n8n: "in n8n's own code",
			node: "in Node's internals",
			gc: 'garbage collection',
			threads:
				"in the process's other threads (the database's thread pool, the collector's helpers, n8n 2.41's expression isolates)",
		})[category];
	for (const category of CATEGORIES)
		rows.push({
			item: '6p',
			what: `${on}… of which ${label(category)}: our trigger vs the bare node`,
			unit: 'ms/event',
			ours: measured.ours.map((run) => run[category]),
			baseline: { label: 'bare Webhook node', values: measured.bare.map((run) => run[category]) },
			ratio: measured.ours.map((run, i) => run[category] - measured.bare[i][category]),
			goal: 'difference, ms/event',
		});
	return rows;
}

if (require.main === module) {
	const [runs, mode, out] = process.argv.slice(2);
	measureProfile(Number(runs), mode === 'quick', process.env.BENCH_EXPRESSION_ENGINE)
		.then((measurement) => fs.writeFileSync(out, JSON.stringify(measurement)))
		.catch((error: unknown) => {
			process.stderr.write(
				`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
			);
			process.exit(1);
		});
}
