/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * `npm run bench [-- --quick] [-- --no-n8n] [-- --only <group>,…]`: builds the package, measures,
 * prints the table of ratios and writes docs/benchmarks.md. Items 1–4 and the in-process part of 7
 * run in process; 5–6 start a real n8n through the e2e harness, 7–8 n8n in queue mode
 * (test/harness/queue), 9 both (the built-in store's capacity), 10 a real n8n with a production
 * concurrency limit. `--only` runs some groups (tokens, trigger, scale, n8n, profile, queue,
 * capacity, concurrency) and never writes docs/benchmarks.md.
 *
 * A benchmark on a busy machine records noise: when the 1-minute load average at the start is above
 * MAX_START_LOAD, the table is printed but docs/benchmarks.md is not written.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';

import { n8nBench } from './n8n';
import { capacityBench } from './n8n/capacity';
import { concurrencyRows } from './n8n/concurrency';
import { profileBench } from './n8n/profile';
import { queueBench } from './n8n/queue';
import { dedupeScaleBench } from './dedupeScale';
import { consoleTable } from './report';
import { CAPACITY_CHART, writeReport } from './document';
import { capacityPoints, capacitySvg } from './capacityChart';
import type { Section } from './result';
import { tokenBench } from './tokens';
import { triggerBench } from './trigger';

const GROUPS = [
	'tokens',
	'trigger',
	'scale',
	'n8n',
	'profile',
	'queue',
	'capacity',
	'concurrency',
] as const;
type Group = (typeof GROUPS)[number];
const NEEDS_N8N: readonly Group[] = ['n8n', 'profile', 'queue', 'capacity', 'concurrency'];

export interface BenchOptions {
	quick: boolean;
	n8n: boolean;
	runs: number;
	/** The groups to run; all when `--only` is not given. */
	only?: Group[];
}

function parseArgs(argv: string[]): BenchOptions {
	const onlyAt = argv.indexOf('--only');
	const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : undefined;
	const rest = onlyAt >= 0 ? argv.filter((_, i) => i !== onlyAt && i !== onlyAt + 1) : argv;
	const known = new Set(['--quick', '--no-n8n']);
	const unknown = rest.filter((arg) => !known.has(arg));
	if (unknown.length > 0)
		throw new Error(
			`unknown option(s): ${unknown.join(' ')} (use --quick, --no-n8n, --only <group>,…)`,
		);
	const badGroups = (only ?? []).filter((group) => !(GROUPS as readonly string[]).includes(group));
	if (only && (only.length === 0 || badGroups.length > 0))
		throw new Error(
			`--only takes groups among ${GROUPS.join(', ')} (got "${argv[onlyAt + 1] ?? ''}")`,
		);
	const quick = rest.includes('--quick');
	return {
		quick,
		n8n: !rest.includes('--no-n8n'),
		runs: quick ? 3 : 5,
		only: only as Group[] | undefined,
	};
}

/** Above this 1-minute load average at the start, the run is not recorded. */
export const MAX_START_LOAD = 1.5;

/** The real-n8n items install the packed dist/: build it first, so a run never measures stale code. */
function build(): void {
	const result = spawnSync('npm', ['run', 'build', '--silent'], {
		cwd: path.join(__dirname, '..'),
		stdio: 'inherit',
	});
	if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const startLoad = os.loadavg()[0];
	const runs = (group: Group) => !options.only || options.only.includes(group);
	const n8nGroups = NEEDS_N8N.filter(runs);
	if (options.n8n && n8nGroups.length > 0) build();
	const started = Date.now();
	const sections: Section[] = [];
	const step = async (group: Group, name: string, measure: () => Promise<Section>) => {
		if (!runs(group)) return;
		if (NEEDS_N8N.includes(group) && !options.n8n) {
			sections.push({ title: name, rows: [], skipped: '--no-n8n' });
			return;
		}
		process.stdout.write(`bench: ${name} …\n`);
		sections.push(await measure());
	};
	await step('tokens', 'items 1–2, token cache', async () => await tokenBench(options.runs));
	await step(
		'trigger',
		'items 3–4, trigger verify and dedupe',
		async () => await triggerBench(options.runs, options.quick),
	);
	await step(
		'scale',
		'item 7, dedupe memory at 100,000 ids',
		async () => await dedupeScaleBench(options.runs, options.quick),
	);
	await step('n8n', 'items 5–6, real n8n', async () => await n8nBench(options));
	await step(
		'profile',
		"item 6's CPU profile, real n8n",
		async () => await profileBench(options.runs, options.quick),
	);
	await step(
		'queue',
		'items 7–8, n8n queue mode',
		async () => await queueBench(options.runs, options.quick),
	);
	await step(
		'capacity',
		'item 9, built-in store capacity in n8n',
		async () => await capacityBench(options.runs, options.quick),
	);
	await step('concurrency', "item 10, a burst behind n8n's concurrency limit", async () => ({
		title:
			"A burst behind n8n's production concurrency limit (real n8n 2.41): the trigger beside n8n's Webhook node",
		rows: await concurrencyRows(options.quick),
	}));

	const seconds = Math.round((Date.now() - started) / 1000);
	process.stdout.write(`\n${consoleTable(sections)}\n\n`);
	const endLoad = os.loadavg()[0];
	process.stdout.write(
		`bench: 1-minute load average ${startLoad.toFixed(2)} at the start, ${endLoad.toFixed(2)} at the end\n`,
	);
	if (options.only) {
		process.stdout.write('bench: --only: docs/benchmarks.md is left as it is.\n');
		return;
	}
	if (startLoad > MAX_START_LOAD) {
		process.stdout.write(
			`bench: load average ${startLoad.toFixed(2)} at the start (above ${MAX_START_LOAD}): the ` +
				'table above is printed only, docs/benchmarks.md is left as it is. Run it again on a ' +
				'quiet machine.\n',
		);
		process.exitCode = 2;
		return;
	}
	const file = path.join(__dirname, '..', 'docs', 'benchmarks.md');
	const report = writeReport(sections, {
		...options,
		seconds,
		machine: machine(startLoad, endLoad),
	});
	fs.writeFileSync(file, report);
	// Laid out as the repository's format check wants it, so a run commits as written.
	const formatted = spawnSync('npx', ['prettier', '--write', file], { stdio: 'inherit' });
	if (formatted.status !== 0)
		throw new Error(`prettier failed on ${file} (exit ${formatted.status})`);
	process.stdout.write(`bench: wrote ${path.relative(process.cwd(), file)} (${seconds} s)\n`);
	// The capacity curve beside the table, drawn from the table's own figures.
	const chart = capacitySvg(capacityPoints(report));
	if (chart) fs.writeFileSync(path.join(path.dirname(file), CAPACITY_CHART), chart);
}

function machine(startLoad: number, endLoad: number): string {
	const cpus = os.cpus();
	return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()}; 1-minute load average ${startLoad.toFixed(2)} at the start, ${endLoad.toFixed(2)} at the end`;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
