/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * `npm run bench [-- --quick] [-- --no-n8n]`: measures, prints the table of ratios and writes
 * docs/benchmarks.md. Items 1–4 and the in-process part of 7 run in process; 5–6 start a real n8n
 * through the e2e harness, 7–8 n8n in queue mode (test/harness/queue).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

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

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
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
	const file = path.join(__dirname, '..', 'docs', 'benchmarks.md');
	fs.writeFileSync(file, writeReport(sections, { ...options, seconds, machine: machine() }));
	process.stdout.write(`bench: wrote ${path.relative(process.cwd(), file)} (${seconds} s)\n`);
}

function machine(): string {
	const cpus = os.cpus();
	const load = os
		.loadavg()
		.map((value) => value.toFixed(1))
		.join(' / ');
	return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}, ${os.platform()}; load average ${load} (1/5/15 min) at the end`;
}

main().catch((error: unknown) => {
	process.stderr.write(
		`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
