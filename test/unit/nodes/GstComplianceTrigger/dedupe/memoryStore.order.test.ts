/**
 * Which id goes first at the cap after a clock step back, how expiry finds out-of-order ids after
 * the records were rewritten, and the work counters behind the cost guarantees: expiry scans every
 * id only while ids are out of order (once per minute of the clock), and folds, rewrites and
 * snapshots copy O(1) records per claim, amortized.
 */
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
const at = (minutes: number) => T0 + minutes * MINUTE;
const TEN_MINUTES: DedupeOptions = { windowMs: 10 * MINUTE, capacity: 100 };

describe('MemoryDedupeStore cap', () => {
	it.each([0, -5])('with capacity %i remembers the latest id only', (capacity) => {
		const store = new MemoryDedupeStore({ windowMs: 60 * MINUTE, capacity });
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('a', T0)).toBe(false);
		expect(store.claimNow('b', T0)).toBe(true);
		expect(store.size).toBe(1);
		expect(store.claimNow('a', T0)).toBe(true);
	});

	it('after expiry forgot the oldest id out of order, evicts the next oldest and counts one eviction', () => {
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

	it('after expiry forgot a later id out of order, still evicts the oldest', () => {
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

describe('MemoryDedupeStore expiry after the records were rewritten', () => {
	it('expires an out-of-order id by its own minute after a snapshot rewrote the records', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		store.claimNow('p', at(5));
		store.claimNow('q', at(0)); // the clock stepped back
		store.claimNow('r', at(2)); // still behind `p`
		store.claimNow('x', at(11)); // expires `q`: the records now have a hole
		store.snapshot(); // rewrites them: `p` at 5 before `r` at 2
		expect(store.claimNow('p', at(13))).toBe(false);
		expect(store.claimNow('r', at(13))).toBe(true); // seen at 2, window over at 12
	});
});

describe('MemoryDedupeStore expiry cost', () => {
	it('never scans every id while the clock moves forward', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 200; i++) expect(store.claimNow(`evt_${i}`, at(i / 4))).toBe(true);
		expect(store.size).toBeLessThan(200);
		expect(store.scannedRecords).toBe(0);
	});

	it('after a clock step back scans at most once per minute, and stops once the ids are in order again', () => {
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

	it('a store restored from a snapshot in time order does not scan', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 20; i++) store.claimNow(`evt_${i}`, at(i / 4));
		const restored = MemoryDedupeStore.fromSnapshot(
			JSON.parse(JSON.stringify(store.snapshot())),
			TEN_MINUTES,
		);
		for (let i = 0; i < 20; i++) restored.claimNow(`later_${i}`, at(8 + i / 4));
		expect(restored.claimNow('evt_0', at(13))).toBe(true);
		expect(restored.scannedRecords).toBe(0);
	});

	it('after a snapshot rewrote records that are in order, does not scan', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 10; i++) store.claimNow(`now_${i}`, at(5));
		store.claimNow('back', at(0)); // the clock stepped back
		store.claimNow('next', at(11)); // expires `back`: a hole, the rest in order
		store.snapshot(); // rewrites the records
		const before = store.scannedRecords;
		for (let i = 0; i < 20; i++) store.claimNow(`later_${i}`, at(12 + i / 4));
		expect(store.scannedRecords).toBe(before);
	});
});

describe('MemoryDedupeStore copy cost', () => {
	it('counts the records folds copy at the cap: at least one and fewer than 40 per claim', () => {
		const capacity = 5_000;
		const store = new MemoryDedupeStore({ windowMs: 24 * 60 * MINUTE, capacity });
		for (let i = 0; i < capacity; i++) store.claimNow(`fill_${i}`, T0);
		const before = store.copiedRecords;
		const claims = 4 * capacity;
		for (let i = 0; i < claims; i++) {
			store.claimNow(`evt_${i}`, T0 + i);
			store.snapshot(); // persisted after every claim
		}
		const perClaim = (store.copiedRecords - before) / claims;
		expect(perClaim).toBeGreaterThanOrEqual(1);
		expect(perClaim).toBeLessThan(40);
	});

	it('counts a rewrite: a clock step back before the base re-encodes every remembered id once', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		for (let i = 0; i < 30; i++) store.claimNow(`evt_${i}`, at(5));
		const before = store.copiedRecords;
		store.claimNow('back', at(0));
		expect(store.copiedRecords - before).toBe(30);
	});
});
