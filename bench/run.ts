/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * `npm run bench [-- --quick] [-- --no-n8n]`: builds the package, measures, prints the table of
 * ratios and writes docs/benchmarks.md. Items 1–4 and the in-process part of 7 run in process; 5–6
 * start a real n8n through the e2e harness, 7–8 n8n in queue mode (test/harness/queue).
 *
 * A benchmark on a busy machine records noise: when the 1-minute load average at the start is above
 * MAX_START_LOAD, the table is printed but docs/benchmarks.md is not written.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';

import { n8nBench } from './n8n/index';
import { queueBench } from './n8n/queue';
import { dedupeScaleBench } from './dedupeScale';
import { consoleTable } from './report';
import { writeReport } from './document';
import type { Section } from './result';
import { tokenBench } from './tokens';
import { triggerBench } from './trigger';

export interface BenchOptions {
	quick: boolean;
	n8n: boolean;
	runs: number;
}

function parseArgs(argv: string[]): BenchOptions {
	const known = new Set(['--quick', '--no-n8n']);
	const unknown = argv.filter((arg) => !known.has(arg));
	if (unknown.length > 0)
		throw new Error(`unknown option(s): ${unknown.join(' ')} (use --quick, --no-n8n)`);
	const quick = argv.includes('--quick');
	return { quick, n8n: !argv.includes('--no-n8n'), runs: quick ? 3 : 5 };
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
	if (options.n8n) build();
	const started = Date.now();
	const sections: Section[] = [];
	const step = async (name: string, measure: () => Promise<Section>) => {
		process.stdout.write(`bench: ${name} …\n`);
		sections.push(await measure());
	};
	await step('items 1–2, token cache', async () => await tokenBench(options.runs));
	await step(
		'items 3–4, trigger verify and dedupe',
		async () => await triggerBench(options.runs, options.quick),
	);
	await step(
		'item 7, dedupe memory at 100,000 ids',
		async () => await dedupeScaleBench(options.runs, options.quick),
	);
	if (options.n8n) await step('items 5–6, real n8n', async () => await n8nBench(options));
	else sections.push({ title: 'Real n8n (items 5–6)', rows: [], skipped: '--no-n8n' });
	if (options.n8n)
		await step(
			'items 7–8, n8n queue mode',
			async () => await queueBench(options.runs, options.quick),
		);
	else sections.push({ title: 'n8n queue mode (items 7–8)', rows: [], skipped: '--no-n8n' });

	const seconds = Math.round((Date.now() - started) / 1000);
	process.stdout.write(`\n${consoleTable(sections)}\n\n`);
	const endLoad = os.loadavg()[0];
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
	fs.writeFileSync(
		file,
		writeReport(sections, { ...options, seconds, machine: machine(startLoad, endLoad) }),
	);
	process.stdout.write(`bench: wrote ${path.relative(process.cwd(), file)} (${seconds} s)\n`);
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
