/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling: runs in Node beside a local n8n, never inside n8n */
/**
 * Item 7: does a full dedupe memory slow the trigger down? Events/s through the trigger's delivery
 * path (verify, then the dedupe lifecycle: accept, start) with 100,000 ids already remembered ÷ the
 * same with an empty memory, for each store. The memory is filled directly (starts through the
 * built-in store's ledger, SETs for Redis), not by sending 100,000 events.
 *
 * - Built-in store: its ledger (memoryLedger) writes the snapshot into static data at each
 *   accepted event, and n8n serialises it to save it; the bench does the same `JSON.stringify`
 *   per accepted event (the write to the database itself is left out: it is the same bytes either
 *   way, measured in item 4).
 * - Redis store: a redis-server of its own on a free port (Debian's redis-server, as the tests
 *   use); accept and start are two script round trips and three commands on loopback.
 */
import { randomUUID } from 'crypto';
import Redis from 'ioredis';

import type { EventLedger } from '../nodes/GstCompliance/trigger/dedupe/lifecycle';
import {
	fixedClient,
	RedisDedupeStore,
} from '../nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { ledgerScope, redisEventKey } from '../nodes/GstCompliance/trigger/dedupe/keys';
import { startedMark } from '../nodes/GstCompliance/trigger/dedupe/redis/redisScripts';
import { formatSignatureHeader, sign } from '../nodes/GstCompliance/trigger/signature';
import { startRedis } from '../test/harness/queue/services';
import { builtInLedger, fill, releaseBuiltInLedgers } from './builtInLedger';
import { BENCH_SECRET as SECRET, deliverOnce } from './deliverOnce';
import { ratios, type Row, type Section } from './result';

const DAY_MS = 24 * 3_600_000;
const WINDOW_MS = DAY_MS + 300_000;
const FILLED = 100_000;
const SCOPE = ledgerScope({ workflowId: 'bench-workflow', nodeId: 'bench-node' });

function delivery(seq: number, t: number) {
	const body = Buffer.from(
		JSON.stringify({
			id: `evt_scale_${seq}`,
			type: 'einvoice.generated',
			createdAt: '2025-01-15T04:30:00.000Z',
			data: { id: `einv_${seq}`, object: 'einvoice', status: 'generated', note: 'x'.repeat(3800) },
		}),
	);
	return { body, header: formatSignatureHeader(t, [sign(SECRET, t, body)]) };
}

/** Events/s of `events` new-id deliveries, one after another, each signed before the clock runs. */
async function rate(
	store: Pick<EventLedger, 'accept' | 'start'>,
	events: number,
	seq: { next: number },
): Promise<number> {
	const nowMs = Date.now();
	const t = Math.floor(nowMs / 1000);
	const batch = Array.from({ length: events }, () => delivery(seq.next++, t));
	const start = process.hrtime.bigint();
	for (const { body, header } of batch) {
		await deliverOnce(store, body, header, nowMs);
	}
	const seconds = Number(process.hrtime.bigint() - start) / 1e9;
	return events / seconds;
}

async function memoryStore(filled: number): Promise<Pick<EventLedger, 'accept' | 'start'>> {
	const { ledger, global } = builtInLedger(WINDOW_MS);
	const now = Date.now();
	if (filled > 0)
		await fill(
			ledger,
			filled,
			(i) => `evt_fill_${i}`,
			(i) => now - WINDOW_MS + 60_000 + Math.floor((i * DAY_MS) / filled),
		);
	// n8n serialises the static data the acceptance wrote before saving it, once per accepted event.
	return {
		accept: async (eventId, nowMs, within) => {
			const acceptance = await ledger.accept(eventId, nowMs, within);
			if (JSON.stringify(global).length === 0) throw new Error('unreachable');
			return acceptance;
		},
		start: async (eventId, nowMs) => await ledger.start(eventId, nowMs),
	};
}

/** `used_memory` of INFO memory: what Redis's allocator holds for data and its own structures. */
async function usedMemory(client: Redis): Promise<number> {
	const info = await client.info('memory');
	const match = /^used_memory:(\d+)/m.exec(info);
	if (!match) throw new Error('INFO memory has no used_memory line');
	return Number(match[1]);
}

async function fillRedis(client: Redis, filled: number): Promise<void> {
	for (let done = 0; done < filled; done += 1_000) {
		const pipeline = client.pipeline();
		for (let i = done; i < Math.min(filled, done + 1_000); i++)
			pipeline.set(
				redisEventKey(SCOPE, `evt_fill_${i}`),
				startedMark(randomUUID()),
				'PX',
				WINDOW_MS,
			);
		await pipeline.exec();
	}
}

export async function dedupeScaleBench(runs: number, quick: boolean): Promise<Section> {
	const events = quick ? 1_000 : 3_000;
	const seq = { next: 0 };
	const memory = { empty: [] as number[], full: [] as number[] };
	await rate(await memoryStore(0), 500, seq); // warm-up
	for (let run = 0; run < runs; run++) {
		releaseBuiltInLedgers();
		const full = await memoryStore(FILLED);
		const empty = await memoryStore(0);
		// Alternate which side goes first.
		if (run % 2 === 0) {
			memory.empty.push(await rate(empty, events, seq));
			memory.full.push(await rate(full, events, seq));
		} else {
			memory.full.push(await rate(full, events, seq));
			memory.empty.push(await rate(empty, events, seq));
		}
	}
	releaseBuiltInLedgers();

	const redis = await startRedis('bench-redis');
	const client = new Redis({ host: redis.host, port: redis.port, db: 0 });
	const connection = { host: redis.host, port: redis.port, database: 0 };
	const redisStore = (): EventLedger =>
		new RedisDedupeStore(fixedClient(client), connection, { scope: SCOPE, windowMs: WINDOW_MS });
	const shared = { empty: [] as number[], full: [] as number[] };
	const bytesPerId: number[] = [];
	try {
		await rate(redisStore(), 500, seq); // warm-up
		for (let run = 0; run < runs; run++) {
			await client.flushdb();
			shared.empty.push(await rate(redisStore(), events, seq));
			await client.flushdb();
			const before = await usedMemory(client);
			await fillRedis(client, FILLED);
			if ((await client.dbsize()) < FILLED) throw new Error('Redis was not filled');
			bytesPerId.push(((await usedMemory(client)) - before) / FILLED);
			shared.full.push(await rate(redisStore(), events, seq));
		}
	} finally {
		client.disconnect();
		await redis.dispose();
	}

	const row = (store: string, values: { empty: number[]; full: number[] }, note?: string): Row => ({
		item: '7',
		what: `${store}: events/s with ${FILLED.toLocaleString('en')} ids remembered (${events} new events per run, one at a time)`,
		unit: 'events/s',
		ours: values.full,
		baseline: { label: `${store}, empty memory`, values: values.empty },
		ratio: ratios(values.full, values.empty),
		// The goal is judged in n8n (bench/n8n/queue.ts), where a delivery costs what n8n adds; here
		// only the store's own share shows.
		goal: '— (context)',
		note,
	});
	return {
		title: 'Dedupe memory at 100,000 ids (in process)',
		rows: [
			row(
				'Built-in store',
				memory,
				'Built-in store: verify + accept, start + the snapshot written into static data and JSON-serialised per new id, as n8n does before saving it (the database write is left out). Filled with starts spread over the last day.',
			),
			row(
				'Redis store',
				shared,
				'Redis store: verify + accept, start (one script each, and the accepted set) against a local redis-server; filled with 100,000 started marks of the same scope by pipelined SETs.',
			),
			{
				item: '7',
				what: `Redis store: Redis memory per remembered id (used_memory after filling ${FILLED.toLocaleString('en')} ids minus before)`,
				unit: 'B/id',
				ours: bytesPerId,
				ratio: bytesPerId,
				goal: '— (context: sizes the Redis a window needs)',
			},
		],
	};
}
