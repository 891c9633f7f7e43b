/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/** The in-memory dedupe store: claims, window, cap, snapshot and reload, and its size at volume. */
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';

import {
	digestEventId,
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
const DAY_OPTIONS: DedupeOptions = { windowMs: 24 * HOUR + 300_000, capacity: 125_000 };

const roundTrip = (store: MemoryDedupeStore) =>
	JSON.parse(JSON.stringify(store.snapshot())) as unknown;

describe('MemoryDedupeStore', () => {
	it('claims an id once', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.claim('evt_1', T0)).toBe(true);
		expect(await store.claim('evt_1', T0 + 1000)).toBe(false);
		expect(await store.claim('evt_2', T0)).toBe(true);
	});

	it('gives exactly one of 20 concurrent claims of one id', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		const results = await Promise.all(
			Array.from({ length: 20 }, () => store.claim('evt_same', T0)),
		);
		expect(results.filter(Boolean)).toHaveLength(1);
	});

	it('forgets an id after the window, never before', () => {
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity: 10 });
		expect(store.claimNow('evt_1', T0)).toBe(true);
		expect(store.claimNow('evt_1', T0 + 24 * HOUR)).toBe(false);
		expect(store.claimNow('evt_1', T0 + 24 * HOUR + 2 * 60_000)).toBe(true);
	});

	it('expires the old ids and keeps the new ones', () => {
		const store = new MemoryDedupeStore({ windowMs: HOUR, capacity: 100 });
		for (let i = 0; i < 10; i++) store.claimNow(`old_${i}`, T0);
		for (let i = 0; i < 5; i++) store.claimNow(`new_${i}`, T0 + 50 * 60_000);
		store.claimNow('trigger_expiry', T0 + 62 * 60_000);
		expect(store.size).toBe(6);
		expect(store.claimNow('new_3', T0 + 62 * 60_000)).toBe(false);
		expect(store.claimNow('old_3', T0 + 62 * 60_000)).toBe(true);
	});

	it('evicts the oldest beyond the cap', () => {
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity: 3 });
		for (const id of ['a', 'b', 'c', 'd']) expect(store.claimNow(id, T0)).toBe(true);
		expect(store.size).toBe(3);
		expect(store.claimNow('d', T0)).toBe(false);
		expect(store.claimNow('b', T0)).toBe(false);
		expect(store.claimNow('a', T0)).toBe(true); // evicted, so it counts as new
	});

	it('survives a restart through its JSON snapshot', () => {
		const before = new MemoryDedupeStore(DAY_OPTIONS);
		for (let i = 0; i < 1000; i++) before.claimNow(`evt_${i}`, T0 + i * 60_000);
		const after = MemoryDedupeStore.fromSnapshot(roundTrip(before), DAY_OPTIONS);
		expect(after.size).toBe(1000);
		expect(after.claimNow('evt_999', T0 + 1000 * 60_000)).toBe(false);
		expect(after.claimNow('evt_new', T0 + 1000 * 60_000)).toBe(true);
		expect(after.snapshot().d.length).toBe(before.snapshot().d.length + 14);
	});

	it('keeps the persisted records in step with memory through expiry, eviction and reload', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * 60_000, capacity: 50 });
		for (let i = 0; i < 200; i++) store.claimNow(`evt_${i}`, T0 + i * 30_000);
		const reloaded = MemoryDedupeStore.fromSnapshot(roundTrip(store), {
			windowMs: 10 * 60_000,
			capacity: 50,
		});
		expect(reloaded.size).toBe(store.size);
		expect(reloaded.snapshot()).toEqual(store.snapshot());
	});

	it('rebases when the clock jumps back before the oldest record', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		store.claimNow('evt_a', T0);
		expect(store.claimNow('evt_b', T0 - 3 * HOUR)).toBe(true);
		const reloaded = MemoryDedupeStore.fromSnapshot(roundTrip(store), DAY_OPTIONS);
		expect(reloaded.claimNow('evt_a', T0)).toBe(false);
		expect(reloaded.claimNow('evt_b', T0)).toBe(false);
	});

	it.each([
		null,
		'x',
		{ v: 2, base: 0, d: '' },
		{ v: 1, base: 'a', d: '' },
		{ v: 1, base: 1, d: 7 },
	])('starts empty from an unreadable snapshot %p', (snapshot) => {
		expect(MemoryDedupeStore.fromSnapshot(snapshot, DAY_OPTIONS).size).toBe(0);
	});

	it('skips corrupt records of a snapshot and keeps the rest', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		store.claimNow('evt_1', T0);
		store.claimNow('evt_2', T0);
		const { base, d } = store.snapshot();
		const corrupt = { v: 1, base, d: d.slice(0, 11) + '!!!' + d.slice(14) + 'tail' };
		const reloaded = MemoryDedupeStore.fromSnapshot(corrupt, DAY_OPTIONS);
		expect(reloaded.size).toBe(1);
		expect(reloaded.claimNow('evt_2', T0)).toBe(false);
	});

	it('stores digests, never the ids themselves', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		store.claimNow('evt_secretish_identifier', T0);
		expect(JSON.stringify(store.snapshot())).not.toContain('evt_');
		expect(store.snapshot().d.startsWith(digestEventId('evt_secretish_identifier'))).toBe(true);
	});
});

describe('size for 100,000 ids in a day', () => {
	const IDS = 100_000;
	const fill = (store: MemoryDedupeStore) => {
		// One delivery every 0.864 s spreads the ids over 24 h of clock time.
		for (let i = 0; i < IDS; i++)
			store.claimNow(`evt_${i.toString(36).padStart(24, '0')}`, T0 + i * 864);
	};

	it('persists in at most 2 MB of JSON', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		fill(store);
		expect(store.size).toBe(IDS);
		const bytes = Buffer.byteLength(JSON.stringify(store.snapshot()));
		expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
		expect(bytes).toBeGreaterThan(IDS * 14); // sanity: every record is there
	});

	it('persists in at most 2 MB at the cap too', () => {
		const store = new MemoryDedupeStore({ ...DAY_OPTIONS, capacity: 125_000 });
		for (let i = 0; i < 130_000; i++) store.claimNow(`evt_${i}`, T0 + i * 600);
		expect(store.size).toBe(125_000);
		expect(Buffer.byteLength(JSON.stringify(store.snapshot()))).toBeLessThanOrEqual(
			2 * 1024 * 1024,
		);
	});

	it('holds them in at most 16 MB of heap', () => {
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		gc();
		const before = process.memoryUsage().heapUsed;
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		fill(store);
		JSON.stringify(store.snapshot()); // what a static-data save does: flattens the records string
		gc();
		const used = process.memoryUsage().heapUsed - before;
		expect(store.size).toBe(IDS);
		expect(used).toBeLessThanOrEqual(16 * 1024 * 1024);
	});
});
