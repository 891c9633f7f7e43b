/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The in-memory dedupe store: the lifecycle's steps (accept, start, overdue) and the accepted ids
 * in the snapshot, remembering started ids for the window, the cap, the persisted snapshot, clock steps, the work
 * counters behind its cost guarantees, its size at 100,000 ids, and a fast-check model of the whole
 * contract (run settings in test/properties/fcConfig.ts: FC_NUM_RUNS, FC_SEED).
 */
import fc from 'fast-check';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';

import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { digestEventId } from '@/nodes/GstCompliance/trigger/dedupe/memory/startedIds';
import { STARTED_BY_KEPT } from '@/nodes/GstCompliance/trigger/dedupe/memory/startTokens';
import { fcParameters, timeoutFor } from '@/test/properties/fcConfig';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
const at = (minutes: number) => T0 + minutes * MINUTE;
/** Minutes a record can lie after the snapshot's base: three base64url characters. */
const MAX_OFFSET = 64 ** 3 - 1;
/** The Start Deadline of these tests. */
const WITHIN = 30 * MINUTE;

const DAY_OPTIONS: DedupeOptions = { windowMs: 24 * HOUR + 5 * MINUTE, capacity: 125_000 };
const HOUR_WINDOW: DedupeOptions = { windowMs: HOUR, capacity: 100 };
const TEN_MINUTES: DedupeOptions = { windowMs: 10 * MINUTE, capacity: 100 };

/** The snapshot as workflow static data holds it: through JSON. */
const persisted = (store: MemoryDedupeStore) =>
	JSON.parse(JSON.stringify(store.snapshot())) as Record<string, unknown>;
const reload = (store: MemoryDedupeStore, options: DedupeOptions) =>
	MemoryDedupeStore.fromSnapshot(persisted(store), options);

describe('accept', () => {
	it('accept of a new id → accepted; of the same id again before the Start Deadline → on its way, with its time', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.accept('evt_1', T0, WITHIN)).toEqual({ kind: 'accepted' });
		expect(await store.accept('evt_1', T0 + WITHIN - 1, WITHIN)).toEqual({
			kind: 'onItsWay',
			acceptedMs: T0,
		});
		expect(store.pendingCount).toBe(1);
		expect(store.size).toBe(0); // accepted is not started
	});

	it('accept at the Start Deadline of an id never started → retaken, with its first time; on its way again from then', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', T0, WITHIN);
		expect(await store.accept('evt_1', T0 + WITHIN, WITHIN)).toEqual({
			kind: 'retaken',
			acceptedMs: T0,
		});
		expect(await store.accept('evt_1', T0 + WITHIN + 1, WITHIN)).toEqual({
			kind: 'onItsWay',
			acceptedMs: T0 + WITHIN,
		});
	});

	it('accept of a started id → duplicate, before and after the Start Deadline, until the window ends', async () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		await store.accept('evt_1', at(0), WITHIN);
		expect(await store.start('evt_1', at(0))).toBe('started');
		expect(await store.accept('evt_1', at(1), WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await store.accept('evt_1', at(10), MINUTE)).toEqual({ kind: 'duplicate' });
		expect(await store.accept('evt_1', at(11), MINUTE)).toEqual({ kind: 'accepted' });
	});

	it('20 concurrent accepts of one id → one accepted, 19 on their way', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		const results = await Promise.all(
			Array.from({ length: 20 }, async () => await store.accept('evt_1', T0, WITHIN)),
		);
		expect(results.filter((r) => r.kind === 'accepted')).toHaveLength(1);
		expect(results.filter((r) => r.kind === 'onItsWay')).toHaveLength(19);
	});

	it('accept of an id accepted longer ago than the window → accepted afresh: the old acceptance is forgotten', async () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		await store.accept('evt_1', at(0), WITHIN);
		expect(await store.accept('evt_1', at(10) + 1, 20 * MINUTE)).toEqual({ kind: 'accepted' });
	});

	it('accepts beyond the cap → the oldest accepted id is forgotten, the newest kept', async () => {
		const store = new MemoryDedupeStore({ windowMs: HOUR, capacity: 3 });
		for (const id of ['a', 'b', 'c', 'd']) await store.accept(id, T0, WITHIN);
		expect(store.pendingCount).toBe(3);
		expect(await store.accept('a', T0 + 1, WITHIN)).toEqual({ kind: 'accepted' });
		expect(await store.accept('d', T0 + 1, WITHIN)).toEqual({ kind: 'onItsWay', acceptedMs: T0 });
	});
});

describe('start', () => {
	it('start of an accepted id → started, once; every later start → duplicate; it is no longer pending', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', T0, WITHIN);
		expect(await store.start('evt_1', T0 + 5)).toBe('started');
		expect(await store.start('evt_1', T0 + 6)).toBe('duplicate');
		expect(store.pendingCount).toBe(0);
		expect(store.size).toBe(1);
	});

	it('start of an id never accepted here (accepted before a restart that lost it) → started', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.start('evt_1', T0)).toBe('started');
	});

	it('20 concurrent starts of one id → exactly one started', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		const results = await Promise.all(
			Array.from({ length: 20 }, async () => await store.start('evt_1', T0)),
		);
		expect(results.filter((r) => r === 'started')).toHaveLength(1);
	});

	it('start of evt_\\ud800, evt_\\udc00 and evt_\\ufffd → three ids started, none a duplicate of another', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		for (const id of ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd'])
			expect(await store.start(id, T0)).toBe('started');
		expect(store.size).toBe(3);
	});
});

describe('start with the acceptance’s token: the same item started again is started again', () => {
	it('start(token A) twice → started both times; start(token B) or without a token → duplicate; counted once as unsaved', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.start('evt_1', T0, { token: 'A' })).toBe('started');
		expect(await store.start('evt_1', T0 + 1, { token: 'A' })).toBe('started');
		expect(await store.start('evt_1', T0 + 2, { token: 'B' })).toBe('duplicate');
		expect(await store.start('evt_1', T0 + 3)).toBe('duplicate');
		expect(store.size).toBe(1);
		expect(store.unsavedStarts).toBe(1);
	});

	it('a start without a token, then with one → the tokenless start stays the only one', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.start('evt_1', T0)).toBe('started');
		expect(await store.start('evt_1', T0, { token: 'A' })).toBe('duplicate');
	});

	it(`keeps the tokens of the latest ${STARTED_BY_KEPT} starts: the oldest goes first`, async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		for (let i = 0; i <= STARTED_BY_KEPT; i++)
			expect(await store.start(`evt_${i}`, T0, { token: `tok_${i}` })).toBe('started');
		expect(await store.start('evt_0', T0, { token: 'tok_0' })).toBe('duplicate');
		expect(await store.start('evt_1', T0, { token: 'tok_1' })).toBe('started');
		expect(
			await store.start(`evt_${STARTED_BY_KEPT}`, T0, { token: `tok_${STARTED_BY_KEPT}` }),
		).toBe('started');
	});
});

describe('startedElsewhere: whether a start would be a duplicate, without starting', () => {
	it('an id not started → false; started by token A → true for B and for no token, false for A; nothing changes', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', T0, WITHIN);
		expect(await store.startedElsewhere('evt_1', { token: 'A' })).toBe(false);
		expect(await store.startedElsewhere('evt_1')).toBe(false);
		await store.start('evt_1', T0, { token: 'A' });
		expect(await store.startedElsewhere('evt_1', { token: 'A' })).toBe(false);
		expect(await store.startedElsewhere('evt_1', { token: 'B' })).toBe(true);
		expect(await store.startedElsewhere('evt_1')).toBe(true);
		expect(store.size).toBe(1);
		expect(await store.startedElsewhere('evt_2')).toBe(false);
		expect(store.size).toBe(1);
	});

	it('an id marked started as n8n read its answer → false: the first execution to start it goes on', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		store.startAtAnswer('evt_1', T0);
		expect(await store.startedElsewhere('evt_1', { token: 'A' })).toBe(false);
		expect(await store.start('evt_1', T0, { token: 'A' })).toBe('started');
		expect(await store.startedElsewhere('evt_1', { token: 'B' })).toBe(true);
	});
});

describe('started as n8n reads the answer (n8n 2.0–2.33)', () => {
	it('startAtAnswer → true, saved in the snapshot at once; that execution’s start → started, any other → duplicate', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', T0, WITHIN);
		expect(store.startAtAnswer('evt_1', T0)).toBe(true);
		expect(store.unsavedStarts).toBe(0);
		expect(await reload(store, DAY_OPTIONS).accept('evt_1', T0, WITHIN)).toEqual({
			kind: 'duplicate',
		});
		expect(await store.start('evt_1', T0)).toBe('started');
		expect(await store.start('evt_1', T0)).toBe('duplicate');
	});

	it('startAtAnswer of an id started already (a copy’s answer) → false: its execution’s start is a duplicate', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(store.startAtAnswer('evt_1', T0)).toBe(true);
		expect(store.startAtAnswer('evt_1', T0)).toBe(false);
		expect(await store.start('evt_1', T0)).toBe('started');
		expect(await store.start('evt_1', T0)).toBe('duplicate');
	});
});

describe('overdue', () => {
	it('overdue → the ids accepted at least the Start Deadline ago and not started, oldest first, each named once', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_old', at(0), WITHIN);
		await store.accept('evt_started', at(1), WITHIN);
		await store.accept('evt_mid', at(2), WITHIN);
		await store.accept('evt_new', at(20), WITHIN);
		await store.start('evt_started', at(3));
		expect(await store.overdue(at(32), WITHIN)).toEqual([
			{ eventId: 'evt_old', acceptedMs: at(0) },
			{ eventId: 'evt_mid', acceptedMs: at(2) },
		]);
		expect(await store.overdue(at(33), WITHIN)).toEqual([]);
		expect(await store.overdue(at(50), WITHIN)).toEqual([
			{ eventId: 'evt_new', acceptedMs: at(20) },
		]);
	});

	it('overdue one millisecond before the Start Deadline → nothing', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', T0, WITHIN);
		expect(await store.overdue(T0 + WITHIN - 1, WITHIN)).toEqual([]);
		expect(await store.overdue(T0 + WITHIN, WITHIN)).toEqual([
			{ eventId: 'evt_1', acceptedMs: T0 },
		]);
	});

	it('an id named overdue and then retaken → named again once its new acceptance is overdue', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_1', at(0), WITHIN);
		expect(await store.overdue(at(30), WITHIN)).toHaveLength(1);
		await store.accept('evt_1', at(31), WITHIN);
		expect(await store.overdue(at(40), WITHIN)).toEqual([]);
		expect(await store.overdue(at(61), WITHIN)).toEqual([{ eventId: 'evt_1', acceptedMs: at(31) }]);
	});

	it('overdue first looked at after the window → the event still named, once, then forgotten', async () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		await store.accept('evt_1', at(0), MINUTE);
		expect(await store.overdue(at(11), MINUTE)).toEqual([{ eventId: 'evt_1', acceptedMs: at(0) }]);
		expect(store.pendingCount).toBe(0);
		expect(await store.overdue(at(12), MINUTE)).toEqual([]);
	});

	it('accept of an id accepted longer ago than the window and never named → accepted afresh, not retaken', async () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		await store.accept('evt_1', at(0), MINUTE);
		await store.accept('evt_2', at(11), MINUTE); // another id: evt_1 stays until it is named
		expect(store.pendingCount).toBe(2);
		expect(await store.accept('evt_1', at(11), MINUTE)).toEqual({ kind: 'accepted' });
	});
});

describe('accepted ids in the snapshot', () => {
	it('snapshot() → `p` lists the accepted ids with their times, in order; a restored store says on its way, and names them overdue as uncertain', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_a', T0, WITHIN);
		await store.accept('evt_b', T0 + 1, WITHIN);
		await store.accept('evt_c', T0 + 2, WITHIN);
		await store.start('evt_b', T0 + 3);
		expect(persisted(store).p).toEqual([
			['evt_a', T0],
			['evt_c', T0 + 2],
		]);
		const restored = reload(store, DAY_OPTIONS);
		expect(await restored.accept('evt_a', T0 + 10, WITHIN)).toEqual({
			kind: 'onItsWay',
			acceptedMs: T0,
		});
		expect(await restored.accept('evt_b', T0 + 10, WITHIN)).toEqual({ kind: 'duplicate' });
		// A start since that save would not be in the snapshot: the store says it cannot tell.
		expect(await restored.overdue(T0 + WITHIN + 2, WITHIN)).toEqual([
			{ eventId: 'evt_a', acceptedMs: T0, uncertain: true },
			{ eventId: 'evt_c', acceptedMs: T0 + 2, uncertain: true },
		]);
	});

	it('snapshot() with nothing pending → no `p` (the form earlier versions wrote)', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_a', T0, WITHIN);
		await store.start('evt_a', T0);
		expect(persisted(store)).not.toHaveProperty('p');
	});

	it('fromSnapshot skips malformed pending records and keeps the well-formed ones', async () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		await store.accept('evt_ok', T0, WITHIN);
		const snapshot = persisted(store);
		snapshot.p = [['evt_ok', T0], ['evt_no_time'], [42, T0], ['evt_nan', 'soon'], 'junk'];
		const restored = MemoryDedupeStore.fromSnapshot(snapshot, DAY_OPTIONS);
		expect(restored.pendingCount).toBe(1);
	});
});

describe('merge: a snapshot read into a store that already decided', () => {
	it('merge into a store an execution started from nothing → the saved ids join its own; what it started stays started, not waiting', async () => {
		const saved = new MemoryDedupeStore(DAY_OPTIONS);
		for (const id of ['evt_done_1', 'evt_done_2']) {
			await saved.accept(id, at(0), WITHIN);
			await saved.start(id, at(1));
		}
		await saved.accept('evt_waiting', at(2), WITHIN);
		await saved.accept('evt_lost', at(2), WITHIN);
		const snapshot = persisted(saved);

		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(await store.start('evt_waiting', at(5))).toBe('started');
		store.merge(snapshot);
		expect(store.size).toBe(3);
		expect(store.pendingCount).toBe(1);
		expect(await store.accept('evt_done_1', at(6), WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await store.accept('evt_waiting', at(6), WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await store.overdue(at(2) + WITHIN, WITHIN)).toEqual([
			{ eventId: 'evt_lost', acceptedMs: at(2), uncertain: true },
		]);
		// The next save holds both: read back, the same decisions.
		const reread = reload(store, DAY_OPTIONS);
		expect(reread.size).toBe(3);
		expect(await reread.accept('evt_done_2', at(7), WITHIN)).toEqual({ kind: 'duplicate' });
	});

	it('merge of the same snapshot twice, or of an older one → nothing changes', async () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('evt_a', at(0));
		const older = persisted(store);
		store.claimNow('evt_b', at(3));
		await store.accept('evt_c', at(4), WITHIN);
		const before = persisted(store);
		store.merge(before);
		store.merge(older);
		expect(persisted(store)).toEqual(before);
	});

	it('merge of ids older than the store’s own → each expires by its own minute', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('evt_new', at(50));
		const older = new MemoryDedupeStore(HOUR_WINDOW);
		older.claimNow('evt_old', at(0));
		store.merge(persisted(older));
		expect(store.claimNow('evt_old', at(60))).toBe(false);
		expect(store.claimNow('evt_old', at(62))).toBe(true);
		expect(store.claimNow('evt_new', at(62))).toBe(false);
	});

	it('merge of anything but a snapshot → nothing changes', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('evt_a', at(0));
		const before = persisted(store);
		for (const foreign of [undefined, null, {}, { v: 2, base: 0, d: '' }, 'x'])
			store.merge(foreign);
		expect(persisted(store)).toEqual(before);
	});
});

describe('remember once', () => {
	it('claimNow of a new id → true; of the same id again → false; of another id → true', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		expect(store.claimNow('evt_1', T0)).toBe(true);
		expect(store.claimNow('evt_1', T0 + 1000)).toBe(false);
		expect(store.claimNow('evt_2', T0)).toBe(true);
		expect(store.size).toBe(2);
	});
});

describe('window expiry', () => {
	it('claimNow after the window counted in whole minutes, rounded up → true; before it → false', () => {
		// 90 s rounds up to 2 minutes: kept through minute +2, gone at minute +3.
		const store = new MemoryDedupeStore({ windowMs: 90_000, capacity: 1000 });
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('a', T0 + 2 * MINUTE + 59_999)).toBe(false);
		expect(store.claimNow('a', at(3))).toBe(true);
	});

	it('claimNow past the window of the oldest ids → those forgotten (true), the newer kept (false)', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * MINUTE, capacity: 1000 });
		store.claimNow('old', at(0));
		store.claimNow('mid', at(5));
		store.claimNow('new', at(11));
		expect(store.size).toBe(2);
		expect(store.claimNow('mid', at(11))).toBe(false);
		expect(store.claimNow('old', at(11))).toBe(true);
	});

	it('accept of a started id after the window → accepted', async () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		await store.start('evt_1', at(0));
		expect(await store.accept('evt_1', at(10), MINUTE)).toEqual({ kind: 'duplicate' });
		expect(await store.accept('evt_1', at(11), MINUTE)).toEqual({ kind: 'accepted' });
		expect(store.size).toBe(0);
	});
});

describe('cap and eviction', () => {
	it('claimNow beyond the cap → the oldest id is evicted (true again), exactly one, the rest kept', () => {
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity: 3 });
		for (const id of ['a', 'b', 'c', 'd']) expect(store.claimNow(id, T0)).toBe(true);
		expect(store.size).toBe(3);
		for (const id of ['b', 'c', 'd']) expect(store.claimNow(id, T0)).toBe(false);
		expect(store.claimNow('a', T0)).toBe(true);
	});

	it('claimNow after configure() lowered the cap → shrinks to it, oldest first, in the snapshot too', () => {
		const store = new MemoryDedupeStore({ windowMs: HOUR, capacity: 5 });
		for (const id of ['a', 'b', 'c', 'd', 'e']) store.claimNow(id, T0);
		store.configure({ windowMs: HOUR, capacity: 2 });
		expect(store.capacity).toBe(2);
		store.claimNow('f', T0);
		expect(store.size).toBe(2);
		expect(store.claimNow('e', T0)).toBe(false);
		expect(store.claimNow('d', T0)).toBe(true);
		expect(MemoryDedupeStore.fromSnapshot(store.snapshot(), HOUR_WINDOW).size).toBe(2);
	});

	it.each([0, -5])('claimNow with capacity %i → only the latest id is remembered', (capacity) => {
		const store = new MemoryDedupeStore({ windowMs: HOUR, capacity });
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('a', T0)).toBe(false);
		expect(store.claimNow('b', T0)).toBe(true);
		expect(store.size).toBe(1);
		expect(store.claimNow('a', T0)).toBe(true);
	});

	it('claimNow at the cap after expiry forgot the oldest id out of order → evicts the next oldest, counts one eviction', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * MINUTE, capacity: 3 });
		store.claimNow('a', at(0));
		store.claimNow('b', at(5));
		store.claimNow('c', at(1)); // the clock stepped back
		store.claimNow('d', at(11)); // expires `a` (the oldest); `b` and `c` remain
		expect(store.evictedInWindow).toBe(0);
		expect(store.claimNow('e', at(11))).toBe(true); // at the cap: `b` goes
		expect(store.evictedInWindow).toBe(1);
		for (const id of ['c', 'd', 'e']) expect(store.claimNow(id, at(11))).toBe(false);
		expect(store.claimNow('b', at(11))).toBe(true);
	});

	it('claimNow at the cap after expiry forgot a later id out of order → still evicts the oldest', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * MINUTE, capacity: 3 });
		store.claimNow('z', at(0));
		store.claimNow('a', at(12)); // expires `z`
		store.claimNow('b', at(13));
		store.claimNow('c', at(1)); // the clock stepped back
		store.claimNow('d', at(12)); // expires `c`, which arrived after `a` and `b`
		expect(store.claimNow('e', at(12))).toBe(true); // at the cap: `a` goes
		for (const id of ['b', 'd', 'e']) expect(store.claimNow(id, at(12))).toBe(false);
		expect(store.claimNow('a', at(12))).toBe(true);
	});
});

describe('snapshot and restore', () => {
	it('snapshot() → fixed-width records: digest then minute offset from base, in claim order', () => {
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity: 1000 });
		store.claimNow('a', T0);
		store.claimNow('b', at(64) - 1);
		store.claimNow('c', at(62));
		store.claimNow('d', at(64));
		const snapshot = store.snapshot();
		expect(snapshot.v).toBe(1);
		expect(snapshot.base).toBe(Math.floor(T0 / MINUTE));
		expect(snapshot.d).toBe(
			`${digestEventId('a')}AAA${digestEventId('b')}AA_${digestEventId('c')}AA-${digestEventId('d')}ABA`,
		);
	});

	it('snapshot() → digests only, never the ids themselves', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		store.claimNow('evt_secretish_identifier', T0);
		expect(JSON.stringify(store.snapshot())).not.toContain('evt_');
		expect(store.snapshot().d.startsWith(digestEventId('evt_secretish_identifier'))).toBe(true);
	});

	it('fromSnapshot of a JSON round trip → the same ids remembered; a new claim adds one record', () => {
		const before = new MemoryDedupeStore(DAY_OPTIONS);
		for (let i = 0; i < 1000; i++) before.claimNow(`evt_${i}`, at(i));
		const after = reload(before, DAY_OPTIONS);
		expect(after.size).toBe(1000);
		expect(after.claimNow('evt_999', at(1000))).toBe(false);
		expect(after.claimNow('evt_new', at(1000))).toBe(true);
		expect(after.snapshot().d.length).toBe(before.snapshot().d.length + 14);
	});

	it('fromSnapshot after expiry and eviction → an equal snapshot and size', () => {
		const options = { windowMs: 10 * MINUTE, capacity: 50 };
		const store = new MemoryDedupeStore(options);
		for (let i = 0; i < 200; i++) store.claimNow(`evt_${i}`, T0 + i * 30_000);
		const reloaded = reload(store, options);
		expect(reloaded.size).toBe(store.size);
		expect(reloaded.snapshot()).toEqual(store.snapshot());
	});

	it('fromSnapshot of records repeated → each id once, the same snapshot back', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('a', T0);
		store.claimNow('b', at(1));
		const snapshot = store.snapshot();
		const doubled = { ...snapshot, d: snapshot.d + snapshot.d.slice(0, 14) };
		const again = MemoryDedupeStore.fromSnapshot(doubled, HOUR_WINDOW);
		expect(again.size).toBe(2);
		expect(again.snapshot()).toEqual(snapshot);
		expect(again.claimNow('a', at(1))).toBe(false);
		expect(again.claimNow('c', at(1))).toBe(true);
	});

	it('fromSnapshot skips a trailing partial record and a record with a character outside base64url, keeps the rest', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('a', T0);
		const { base, d } = store.snapshot();
		const bad = `${digestEventId('b')}A*A`;
		const restored = MemoryDedupeStore.fromSnapshot(
			{ v: 1, base, d: d + bad + 'xyz' },
			HOUR_WINDOW,
		);
		expect(restored.size).toBe(1);
		expect(restored.claimNow('a', T0)).toBe(false);
		expect(restored.claimNow('b', T0)).toBe(true);
	});

	describe('fromSnapshot of foreign or corrupt static data', () => {
		const genuine = () => {
			const store = new MemoryDedupeStore(TEN_MINUTES);
			store.claimNow('evt_1', T0);
			return persisted(store);
		};

		it('fromSnapshot of the genuine snapshot the cases below alter → its id remembered', () => {
			const store = MemoryDedupeStore.fromSnapshot(genuine(), TEN_MINUTES);
			expect(store.size).toBe(1);
			expect(store.claimNow('evt_1', T0)).toBe(false);
		});

		it.each<[string, (snapshot: Record<string, unknown>) => unknown]>([
			['undefined', () => undefined],
			['null', () => null],
			['a string', () => 'x'],
			['an array', () => []],
			['another version', (s) => ({ ...s, v: 2 })],
			['the version as a string', (s) => ({ ...s, v: '1' })],
			['no version', (s) => ({ base: s.base, d: s.d })],
			['the base as a string', (s) => ({ ...s, base: String(s.base) })],
			['a fractional base', (s) => ({ ...s, base: (s.base as number) + 0.5 })],
			['a base beyond the safe integers', (s) => ({ ...s, base: 2 ** 53 })],
			['no base', (s) => ({ v: s.v, d: s.d })],
			['the records as a number', (s) => ({ ...s, d: 7 })],
			['the records as an array of characters', (s) => ({ ...s, d: [...(s.d as string)] })],
			['no records', (s) => ({ v: s.v, base: s.base })],
		])('fromSnapshot of %s → an empty store, nothing thrown', (_name, corrupt) => {
			const store = MemoryDedupeStore.fromSnapshot(corrupt(genuine()), TEN_MINUTES);
			expect(store.size).toBe(0);
			expect(store.claimNow('evt_1', T0)).toBe(true);
		});
	});

	it('fromSnapshot of static data written by the previous store → its ids remembered for their window', () => {
		// Written by the store as released: evt_old_1 at T0, evt_old_2 at T0 + 1 min, evt_old_3 at
		// T0 + 3 h.
		const written = { v: 1, base: 28948590, d: 'K5hVUXUkaUnAAALzDifohGncOAABco3spflI43RAC0' };
		const store = MemoryDedupeStore.fromSnapshot(written, { windowMs: 24 * HOUR, capacity: 100 });
		expect(store.size).toBe(3);
		for (const id of ['evt_old_1', 'evt_old_2', 'evt_old_3'])
			expect(store.claimNow(id, T0 + 4 * HOUR)).toBe(false);
		expect(store.claimNow('evt_old_1', T0 + 24 * HOUR + 2 * MINUTE)).toBe(true);
		expect(store.claimNow('evt_old_3', T0 + 24 * HOUR + 2 * MINUTE)).toBe(false);
	});

	it('claimNow up to MAX_OFFSET minutes after the base → kept; one beyond → a new base; all survive a restart', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		expect(store.claimNow('first', T0)).toBe(true); // the base
		const edge = at(MAX_OFFSET);
		expect(store.claimNow('before-edge', edge - MINUTE)).toBe(true);
		expect(store.claimNow('at-edge', edge)).toBe(true);
		const atEdge = reload(store, TEN_MINUTES);
		expect(atEdge.claimNow('before-edge', edge)).toBe(false);
		expect(atEdge.claimNow('at-edge', edge)).toBe(false);

		expect(store.claimNow('beyond-edge', edge + MINUTE)).toBe(true);
		for (const check of [store, reload(store, TEN_MINUTES)]) {
			for (const id of ['before-edge', 'at-edge', 'beyond-edge'])
				expect(check.claimNow(id, edge + MINUTE)).toBe(false);
			expect(check.size).toBe(3);
		}
		// The ids still expire by their own minute after the new base.
		const restored = reload(store, TEN_MINUTES);
		expect(restored.claimNow('before-edge', edge + 10 * MINUTE)).toBe(true);
		expect(restored.claimNow('beyond-edge', edge + 10 * MINUTE)).toBe(false);
	});
});

describe('clock steps', () => {
	it('claimNow after a step back before the oldest record → the base moves back; a restored store remembers both', () => {
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity: 1000 });
		store.claimNow('a', T0);
		expect(store.claimNow('b', at(-30))).toBe(true);
		const snapshot = store.snapshot();
		expect(snapshot.base).toBe(Math.floor(T0 / MINUTE) - 30);
		const restored = MemoryDedupeStore.fromSnapshot(snapshot, { windowMs: 24 * HOUR, capacity: 1 });
		expect(restored.size).toBe(2);
		expect(restored.claimNow('a', T0)).toBe(false);
		expect(restored.claimNow('b', T0)).toBe(false);
	});

	it('claimNow of an id seen after a step back → it expires by its own time, not behind a later one', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		expect(store.claimNow('late', T0 + 2 * HOUR)).toBe(true);
		expect(store.claimNow('early', T0)).toBe(true); // the clock stepped back two hours
		expect(store.claimNow('early', at(30))).toBe(false);
		expect(store.claimNow('early', at(62))).toBe(true);
		// `late` was seen at T0 + 2 h: still inside its window.
		expect(store.claimNow('late', at(62))).toBe(false);
	});

	it('fromSnapshot after such an expiry → the restored store agrees', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('late', T0 + 2 * HOUR);
		store.claimNow('early', T0);
		store.claimNow('other', at(62)); // expires `early`
		const restored = reload(store, HOUR_WINDOW);
		expect(restored.size).toBe(store.size);
		expect(restored.claimNow('early', at(62))).toBe(true);
		expect(restored.claimNow('late', at(62))).toBe(false);
		expect(restored.claimNow('other', at(62))).toBe(false);
	});

	it('claimNow with the clock going back and forth → no id forgotten before its own window is over', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('x', T0 - 2 * HOUR)).toBe(true);
		expect(store.claimNow('a', at(59))).toBe(false); // still inside its own window
		expect(store.claimNow('b', T0 - 3 * HOUR)).toBe(true);
		expect(store.claimNow('c', T0 + 5 * HOUR)).toBe(true);
		expect(store.claimNow('d', T0 - 6 * HOUR)).toBe(true);
		// `a` was forgotten while the clock stood at T0 + 5 h, past its window: not early.
		expect(store.claimNow('b', at(59))).toBe(true); // seen 4 h earlier
		expect(store.claimNow('d', at(59))).toBe(true);
		expect(store.claimNow('c', at(59))).toBe(false); // seen later than now
		expect(store.claimNow('c', T0 + 5 * HOUR + 59 * MINUTE)).toBe(false);
		expect(store.claimNow('c', T0 + 5 * HOUR + 62 * MINUTE)).toBe(true);
	});

	it('claimNow past the window of ids seen at scrambled times → every one of them forgotten', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * MINUTE, capacity: 10_000 });
		for (let i = 0; i < 500; i++) expect(store.claimNow(`evt_${i}`, at((i * 37) % 100))).toBe(true);
		expect(store.claimNow('tick', at(200))).toBe(true);
		expect(store.size).toBe(1);
		for (let i = 0; i < 500; i++) expect(store.claimNow(`evt_${i}`, at(200))).toBe(true);
	});

	it('claimNow after a snapshot rewrote out-of-order records → an id expires by its own minute', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		store.claimNow('p', at(5));
		store.claimNow('q', at(0)); // the clock stepped back
		store.claimNow('r', at(2)); // still behind `p`
		store.claimNow('x', at(11)); // expires `q`: the records now have a hole
		store.snapshot(); // rewrites them: `p` at 5 before `r` at 2
		expect(store.claimNow('p', at(13))).toBe(false);
		expect(store.claimNow('r', at(13))).toBe(true); // seen at 2, window over at 12
	});

	it('claimNow after a second step back, at the minute of the last scan → the new out-of-order id expires by its own minute', () => {
		const store = new MemoryDedupeStore({ windowMs: MINUTE, capacity: 100 });
		store.claimNow('a', at(1));
		store.claimNow('b', at(0)); // the clock stepped back: out of order
		store.claimNow('x', at(2)); // scan at minute 2: `b` expires, the rest is in order
		store.claimNow('c', at(0)); // a second step back, still minute 2 for the last scan
		expect(store.claimNow('c', at(2))).toBe(true); // seen at 0, window over at 1
	});
});

describe('clock steps beyond the offset range', () => {
	it('claimNow after a step back of more than MAX_OFFSET minutes → ids that cannot be encoded against the new base are forgotten', () => {
		const back = at(-MAX_OFFSET);
		const store = new MemoryDedupeStore(TEN_MINUTES);
		expect(store.claimNow('later', at(0))).toBe(true);
		expect(store.claimNow('earlier', back)).toBe(true);
		expect(store.claimNow('later', back)).toBe(false);
		expect(reload(store, TEN_MINUTES).claimNow('later', back)).toBe(false);

		const farther = new MemoryDedupeStore(TEN_MINUTES);
		expect(farther.claimNow('later', at(0))).toBe(true);
		expect(farther.claimNow('earlier', back - MINUTE)).toBe(true);
		// Seen more than MAX_OFFSET minutes after the clock now: cannot be encoded, dropped.
		expect(farther.size).toBe(1);
		expect(farther.claimNow('later', back - MINUTE)).toBe(true);
	});
});

describe('cost', () => {
	it('claimNow with the clock moving forward → never scans every id', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 200; i++) expect(store.claimNow(`evt_${i}`, at(i / 4))).toBe(true);
		expect(store.size).toBeLessThan(200);
		expect(store.scannedRecords).toBe(0);
	});

	it('claimNow after a clock step back → scans at most once per minute, and stops once the ids are in order again', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 50; i++) store.claimNow(`now_${i}`, at(20));
		for (let i = 0; i < 5; i++) store.claimNow(`back_${i}`, at(15)); // the clock stepped back
		const before = store.scannedRecords;
		store.claimNow('one', at(20));
		const afterOne = store.scannedRecords;
		expect(afterOne - before).toBeGreaterThan(0);
		expect(afterOne - before).toBeLessThanOrEqual(store.size);
		for (let i = 0; i < 5; i++) store.claimNow(`same_minute_${i}`, at(20));
		expect(store.scannedRecords).toBe(afterOne);
		store.claimNow('next', at(26)); // the ids seen at 15 expire; the rest are in order
		for (let i = 0; i < 5; i++) expect(store.claimNow(`back_${i}`, at(26))).toBe(true);
		const settled = store.scannedRecords;
		for (let i = 0; i < 20; i++) store.claimNow(`later_${i}`, at(27 + i / 4));
		expect(store.scannedRecords).toBe(settled);
	});

	it('claimNow on a store restored from a snapshot in time order → no scan', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 20; i++) store.claimNow(`evt_${i}`, at(i / 4));
		const restored = reload(store, TEN_MINUTES);
		for (let i = 0; i < 20; i++) restored.claimNow(`later_${i}`, at(8 + i / 4));
		expect(restored.claimNow('evt_0', at(13))).toBe(true);
		expect(restored.scannedRecords).toBe(0);
	});

	it('claimNow after a snapshot rewrote records that are in order → no scan', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 10; i++) store.claimNow(`now_${i}`, at(5));
		store.claimNow('back', at(0)); // the clock stepped back
		store.claimNow('next', at(11)); // expires `back`: a hole, the rest in order
		store.snapshot(); // rewrites the records
		const before = store.scannedRecords;
		for (let i = 0; i < 20; i++) store.claimNow(`later_${i}`, at(12 + i / 4));
		expect(store.scannedRecords).toBe(before);
	});

	it('claimNow at the cap with a snapshot after each → evicts in order of arrival, at least one and fewer than 40 records copied per claim', () => {
		const capacity = 5_000;
		const options = { windowMs: 24 * HOUR, capacity };
		const store = new MemoryDedupeStore(options);
		for (let i = 0; i < capacity; i++) store.claimNow(`fill_${i}`, T0);
		const before = store.copiedRecords;
		const claims = 4 * capacity;
		for (let i = 0; i < claims; i++) {
			expect(store.claimNow(`evt_${i}`, T0 + i)).toBe(true);
			store.snapshot(); // persisted after every claim
		}
		const perClaim = (store.copiedRecords - before) / claims;
		expect(perClaim).toBeGreaterThanOrEqual(1);
		expect(perClaim).toBeLessThan(40);
		expect(store.size).toBe(capacity);
		expect(store.claimNow(`evt_${claims - 1}`, T0 + claims)).toBe(false);
		expect(store.claimNow(`evt_${claims - capacity - 1}`, T0 + claims)).toBe(true);
		expect(reload(store, options).size).toBe(capacity);
	});

	it('claimNow after a clock step back before the base → every remembered id re-encoded once', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 30; i++) store.claimNow(`evt_${i}`, at(5));
		const before = store.copiedRecords;
		store.claimNow('back', at(0));
		expect(store.copiedRecords - before).toBe(30);
	});
});

describe('size at 100,000 ids', () => {
	const IDS = 100_000;
	const fill = (store: MemoryDedupeStore) => {
		// One delivery every 0.864 s spreads the ids over 24 h of clock time.
		for (let i = 0; i < IDS; i++)
			store.claimNow(`evt_${i.toString(36).padStart(24, '0')}`, T0 + i * 864);
	};

	it('snapshot() of 100,000 ids in a day → at most 2 MB of JSON, every record there', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		fill(store);
		expect(store.size).toBe(IDS);
		const bytes = Buffer.byteLength(JSON.stringify(store.snapshot()));
		expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
		expect(bytes).toBeGreaterThan(IDS * 14);
	});

	it('snapshot() at the cap of 125,000 ids → at most 2 MB of JSON', () => {
		const store = new MemoryDedupeStore(DAY_OPTIONS);
		for (let i = 0; i < 130_000; i++) store.claimNow(`evt_${i}`, T0 + i * 600);
		expect(store.size).toBe(125_000);
		expect(Buffer.byteLength(JSON.stringify(store.snapshot()))).toBeLessThanOrEqual(
			2 * 1024 * 1024,
		);
	});

	it('a store of 100,000 ids in a day → at most 16 MB of heap', () => {
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

/** What the store promises, written the obvious way: ids in claim order with their minute. */
class Model {
	private entries: Array<{ id: string; minute: number }> = [];
	constructor(
		public windowMinutes: number,
		public capacity: number,
	) {}

	get size(): number {
		return this.entries.length;
	}

	claim(id: string, nowMs: number): boolean {
		const minute = Math.floor(nowMs / MINUTE);
		// Every id is forgotten once its own minute is more than the window before now, in whatever
		// order the ids came (a clock step back puts a later id before an earlier one).
		this.entries = this.entries.filter((entry) => entry.minute + this.windowMinutes >= minute);
		if (this.entries.some((entry) => entry.id === id)) return false;
		while (this.entries.length > 0 && this.entries.length >= Math.max(1, this.capacity))
			this.entries.shift();
		this.entries.push({ id, minute });
		return true;
	}
}

const windowMinutes = fc.integer({ min: 1, max: 30 });
/** The window in milliseconds falls short of whole minutes by this much (rounded up by the store). */
const shortByMs = fc.integer({ min: 0, max: MINUTE - 1 });
const capacity = fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(10_000));
type Step =
	| { kind: 'claim' }
	| { kind: 'clock'; deltaMs: number }
	| { kind: 'restore' }
	| { kind: 'configure'; windowMinutes: number; shortByMs: number; capacity: number };
const event: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 20, arbitrary: fc.constant({ kind: 'claim' as const }) },
	{
		weight: 12,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			deltaMs: fc.oneof(
				fc.integer({ min: 0, max: 4 * MINUTE }),
				fc.integer({ min: -5 * MINUTE, max: 30 * MINUTE }),
				fc.integer({ min: -6 * HOUR, max: 6 * HOUR }),
			),
		}),
	},
	{ weight: 2, arbitrary: fc.constant({ kind: 'restore' as const }) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('configure' as const),
			windowMinutes,
			shortByMs,
			capacity,
		}),
	},
);

describe('agreement with a reference model (fast-check)', () => {
	it(
		'claimNow under clock steps both ways, restores, window and cap edits → what the model answers, and its size',
		() => {
			fc.assert(
				fc.property(
					windowMinutes,
					shortByMs,
					capacity,
					fc.array(fc.record({ event, id: fc.nat(24) }), { maxLength: 300, size: 'max' }),
					(initialWindow, initialShortBy, initialCapacity, steps) => {
						const model = new Model(initialWindow, initialCapacity);
						let options: DedupeOptions = {
							windowMs: initialWindow * MINUTE - initialShortBy,
							capacity: initialCapacity,
						};
						let store = new MemoryDedupeStore(options);
						let now = T0;
						for (const { event: step, id } of steps) {
							if (step.kind === 'clock') {
								now += step.deltaMs;
							} else if (step.kind === 'restore') {
								store = MemoryDedupeStore.fromSnapshot(persisted(store), options);
							} else if (step.kind === 'configure') {
								options = {
									windowMs: step.windowMinutes * MINUTE - step.shortByMs,
									capacity: step.capacity,
								};
								store.configure(options);
								model.windowMinutes = step.windowMinutes;
								model.capacity = step.capacity;
								// After a clock step back the store re-checks every id at most once per clock
								// minute, so an edited window takes effect from the next minute: let one pass.
								now += MINUTE;
							}
							const eventId = `evt_${id}`;
							if (store.claimNow(eventId, now) !== model.claim(eventId, now)) return false;
							if (store.size !== model.size) return false;
						}
						return true;
					},
				),
				fcParameters(300),
			);
		},
		timeoutFor(300, 50),
	);

	it(
		'claimNow with a clock that only moves forward → false within windowMs of the last true, true from windowMs + 2 min',
		() => {
			fc.assert(
				fc.property(
					windowMinutes.map((minutes) => minutes * MINUTE - 7_000),
					fc.array(
						fc.record({ id: fc.nat(10), advanceMs: fc.integer({ min: 0, max: 90 * MINUTE }) }),
						{ maxLength: 150, size: 'max' },
					),
					(window, claims) => {
						const store = new MemoryDedupeStore({ windowMs: window, capacity: 10_000 });
						const lastWin = new Map<number, number>();
						let now = T0;
						for (const { id, advanceMs } of claims) {
							now += advanceMs;
							const won = store.claimNow(`evt_${id}`, now);
							const previous = lastWin.get(id);
							if (previous === undefined && !won) return false;
							if (previous !== undefined && now - previous <= window && won) return false;
							if (previous !== undefined && now - previous >= window + 2 * MINUTE && !won)
								return false;
							if (won) lastWin.set(id, now);
						}
						return true;
					},
				),
				fcParameters(300),
			);
		},
		timeoutFor(300, 50),
	);
});
