/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * Item 9, the built-in store's capacity: events/s and bytes written per event with 0, 10,000,
 * 25,000, 50,000 and 100,000 ids remembered, in one n8n in regular mode on SQLite and on Postgres
 * (queue mode refuses the built-in store: its executions run on a worker). n8n reads the whole static data with every webhook
 * request and rewrites the whole column whenever it changed, so every accepted event costs in
 * proportion to the ids remembered; these rows say how much, and so where Redis should take over.
 *
 * Each size is its own trigger workflow. Its ids are written into the workflow row as n8n saves
 * them (`global["dedupe:<node id>"]`, ids claimed over the last day) after activation and before
 * its first delivery. Bytes written: on SQLite, what the n8n process passes to write calls
 * (`wchar` in /proc/<pid>/io: SQLite pages and WAL, plus its log lines and HTTP answers); on
 * Postgres, the WAL generated (`pg_current_wal_lsn`), which holds every row n8n writes.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { snapshotKey } from '../../nodes/GstCompliance/trigger/dedupe/keys';
import { ATTACH_REDIS_FROM } from '../../nodes/GstCompliance/trigger/dedupe/memory/capacity';
import { builtInLedger, fill, releaseBuiltInLedgers } from '../builtInLedger';
import {
	CRED,
	request,
	startN8n,
	triggerNode,
	triggerUrl,
	uuid,
	waitFor,
	type N8n,
} from '../../test/harness';
import { startPostgres } from '../../test/harness/queue/services';
import { ratios, type Row, type Section } from '../result';
import { summarize } from '../stats';
import { postEvents } from './post';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain-Node installer (Node 24 binary and n8n's modules)
const installer = require('../../test/harness/install.js') as {
	NODE24_BIN: string;
	NODE_MODULES: string;
};

export const SIZES = [0, 10_000, 25_000, 50_000, 100_000] as const;
/** The ratio to the empty store the threshold of docs/guarantees.md keeps. */
export const KEEP = 0.9;
const WINDOW_MS = (24 * 3600 + 300) * 1000;

interface Side {
	size: number;
	url: string;
	workflowId: string;
	done: number;
}

interface Measure {
	perSecond: number;
	bytesPerEvent: number;
}

/** What a mode gives the measurement: where to create workflows, and a byte counter. */
interface Mode {
	label: string;
	n8n: N8n;
	urlOf(webhookId: string): string;
	writeStaticData(workflowId: string, json: string): void;
	bytesWritten(): number;
}

/**
 * The global static data of a trigger that remembers `size` ids started over the last day, as its
 * ledger writes it, under the bench workflow's node id.
 */
async function staticDataWith(nodeId: string, size: number): Promise<string> {
	const { ledger, saved } = builtInLedger(WINDOW_MS);
	const now = Date.now();
	const day = 24 * 3_600_000;
	await fill(
		ledger,
		size,
		(i) => `evt_fill_${i}`,
		(i) => now - day + Math.floor((i * day) / size),
	);
	const snapshot = saved();
	releaseBuiltInLedgers();
	return JSON.stringify({ global: { [snapshotKey(nodeId)]: snapshot } });
}

async function createSide(
	mode: Mode,
	size: number,
	credential: { id: string; name: string },
): Promise<Side> {
	const node = triggerNode({ events: ['*'], webhookCredential: credential });
	const wf = await mode.n8n.createWorkflow({ name: `bench: capacity ${size}`, nodes: [node] });
	await mode.n8n.activateWorkflow(wf.id);
	const url = mode.urlOf(node.webhookId as string);
	await waitFor(
		async () => (await request(url, { method: 'POST', body: '{}' })).status !== 404,
		`the ${size}-id trigger to be live`,
		60_000,
		250,
	);
	// After activation (which may save the row) and before the first signed delivery, which loads it.
	if (size > 0) mode.writeStaticData(wf.id, await staticDataWith(node.id as string, size));
	return { size, url, workflowId: wf.id, done: 0 };
}

async function runSide(
	mode: Mode,
	side: Side,
	events: number,
	secret: string,
	seq: { next: number },
): Promise<Measure> {
	const bytesBefore = mode.bytesWritten();
	const target = { ...side, label: `${side.size} ids`, secret };
	const { finishedMs } = await postEvents(mode.n8n, target, events, seq);
	side.done = target.done;
	return {
		perSecond: (events * 1000) / finishedMs,
		bytesPerEvent: (mode.bytesWritten() - bytesBefore) / events,
	};
}

async function measureMode(
	mode: Mode,
	credential: { id: string; name: string },
	secret: string,
	runs: number,
	events: number,
): Promise<{ rows: Row[]; kept: Set<number> }> {
	const sides: Side[] = [];
	for (const size of SIZES) sides.push(await createSide(mode, size, credential));
	const seq = { next: 0 };
	// Warm-up, not counted: it also loads each filled snapshot into the process's store.
	for (const side of sides) await runSide(mode, side, 10, secret, seq);
	const measured = sides.map(() => [] as Measure[]);
	for (let run = 0; run < runs; run++)
		for (let i = 0; i < sides.length; i++) {
			const index = (i + run) % sides.length;
			measured[index].push(await runSide(mode, sides[index], events, secret, seq));
		}
	const rate = (i: number) => measured[i].map((m) => m.perSecond);
	const bytes = (i: number) => measured[i].map((m) => m.bytesPerEvent);
	const kept = new Set(
		SIZES.filter((size, i) => i > 0 && summarize(ratios(rate(i), rate(0))).median >= KEEP),
	);
	const rows = SIZES.flatMap((size, i): Row[] =>
		i === 0
			? [
					{
						item: '9',
						what: `${mode.label}: built-in store, empty: bytes written per event`,
						unit: 'B/event',
						ours: bytes(0),
						ratio: bytes(0),
						goal: '— (context)',
					},
				]
			: [
					{
						item: '9',
						what: `${mode.label}: built-in store with ${size.toLocaleString('en')} ids: events/s`,
						unit: 'events/s',
						ours: rate(i),
						baseline: { label: 'built-in store, empty', values: rate(0) },
						ratio: ratios(rate(i), rate(0)),
						// Above ATTACH_REDIS_FROM the store asks for Redis: these sizes say how far past it the
						// rate falls, and the row below says whether the constant is still where they put it.
						...(size <= ATTACH_REDIS_FROM
							? {
									goal: `≥ ${KEEP}× keeps the size`,
									met: (ratio: { median: number }) => ratio.median >= KEEP,
								}
							: { goal: `— (context: above ATTACH_REDIS_FROM, the store asks for Redis)` }),
					},
					{
						item: '9',
						what: `${mode.label}: built-in store with ${size.toLocaleString('en')} ids: bytes written per event`,
						unit: 'B/event',
						ours: bytes(i),
						baseline: { label: 'built-in store, empty', values: bytes(0) },
						ratio: ratios(bytes(i), bytes(0)),
						goal: '— (context)',
					},
				],
	);
	return { rows, kept };
}

/**
 * The goal on the constant itself: ATTACH_REDIS_FROM is the largest measured size that keeps the
 * rate on every database (each smaller size kept too). A smaller figure means the store asks too
 * late, a larger one too early: either way the constant is what to change.
 */
function thresholdRow(keptOnEach: Array<Set<number>>): Row {
	let largest = 0;
	for (const size of SIZES.slice(1)) {
		if (!keptOnEach.every((kept) => kept.has(size))) break;
		largest = size;
	}
	return {
		item: '9',
		what: `The largest size every database keeps at ≥ ${KEEP}× (each smaller one too), against ATTACH_REDIS_FROM (${ATTACH_REDIS_FROM.toLocaleString('en')} ids), from which the store asks for Redis`,
		unit: 'ids',
		ours: [largest],
		ratio: [largest],
		goal: `= ${ATTACH_REDIS_FROM.toLocaleString('en')}`,
		met: (ratio) => ratio.median === ATTACH_REDIS_FROM,
	};
}

/** `wchar` of /proc/<pid>/io: bytes the process passed to write calls. */
function processWrites(pid: number): number {
	const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
	return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? NaN);
}

/** Runs one UPDATE in n8n's SQLite database with n8n's own sqlite3 module, under Node 24. */
function writeSqliteStaticData(database: string, workflowId: string, json: string): void {
	const file = path.join(os.tmpdir(), `gst-capacity-${uuid()}.json`);
	fs.writeFileSync(file, json);
	const script = `
const sqlite3 = require('sqlite3');
const fs = require('fs');
const db = new sqlite3.Database(${JSON.stringify(database)});
db.configure('busyTimeout', 10000);
db.run('UPDATE workflow_entity SET staticData = ? WHERE id = ?', [fs.readFileSync(${JSON.stringify(file)}, 'utf8'), ${JSON.stringify(workflowId)}], function (error) {
  if (error || this.changes !== 1) { console.error(error ? error.message : 'no row ' + ${JSON.stringify(workflowId)}); process.exit(1); }
  db.close();
});`;
	const result = spawnSync(installer.NODE24_BIN, ['-e', script], {
		cwd: path.join(installer.NODE_MODULES, 'n8n'),
		encoding: 'utf8',
	});
	fs.rmSync(file, { force: true });
	if (result.status !== 0)
		throw new Error(`writing static data into SQLite failed: ${result.stderr}`);
}

export async function capacityBench(runs: number, quick: boolean): Promise<Section> {
	const title =
		'Built-in store capacity (item 9): n8n 2.41, regular mode on SQLite and on Postgres';
	const events = quick ? 60 : 120;
	const rows: Row[] = [];
	const keptOnEach: Array<Set<number>> = [];
	const add = ({ rows: measured, kept }: { rows: Row[]; kept: Set<number> }) => {
		rows.push(...measured);
		keptOnEach.push(kept);
	};

	const n8n = await startN8n({ name: 'bench-capacity', env: { N8N_LOG_LEVEL: 'warn' } });
	try {
		const secret = `whsec_${uuid()}`;
		const credential = await n8n.createCredential('bench webhook', CRED.webhook, {
			signingSecret: secret,
			previousSigningSecret: '',
		});
		const database = path.join(n8n.n8nFolder, 'database.sqlite');
		const pid = n8n.pid;
		if (!pid || !fs.existsSync(database))
			throw new Error(`n8n's process or SQLite database (${database}) not found`);
		const regular: Mode = {
			label: 'Regular mode, SQLite',
			n8n,
			urlOf: (webhookId) => triggerUrl(n8n, { webhookId }),
			writeStaticData: (workflowId, json) => writeSqliteStaticData(database, workflowId, json),
			bytesWritten: () => processWrites(pid),
		};
		add(await measureMode(regular, credential, secret, runs, events));
	} finally {
		await n8n.dispose();
	}

	// The built-in store is for one process (queue mode refuses it): the other database n8n offers
	// is Postgres, in regular mode.
	const postgres = await startPostgres();
	try {
		const onPostgres = await startN8n({
			name: 'bench-capacity-postgres',
			env: { ...postgres.n8nEnv(), N8N_LOG_LEVEL: 'warn' },
		});
		try {
			const secret = `whsec_${uuid()}`;
			const credential = await onPostgres.createCredential('bench webhook', CRED.webhook, {
				signingSecret: secret,
				previousSigningSecret: '',
			});
			const mode: Mode = {
				label: 'Regular mode, Postgres',
				n8n: onPostgres,
				urlOf: (webhookId) => triggerUrl(onPostgres, { webhookId }),
				writeStaticData: (workflowId, json) => {
					if (/'/.test(json)) throw new Error('unexpected quote in the snapshot');
					postgres.query(
						`UPDATE workflow_entity SET "staticData" = '${json}'::json WHERE id = '${workflowId}';`,
					);
				},
				bytesWritten: () =>
					Number(postgres.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0');").trim()),
			};
			add(await measureMode(mode, credential, secret, runs, events));
		} finally {
			await onPostgres.dispose();
		}
	} finally {
		await postgres.stop();
	}
	return { title, rows: [...rows, thresholdRow(keptOnEach)] };
}
