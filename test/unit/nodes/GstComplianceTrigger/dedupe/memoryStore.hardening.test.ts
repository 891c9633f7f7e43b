/**
 * Expiry by each id's own time, whatever order the clock delivered them in, and a claim at the cap
 * that costs O(1) amortized (records copied per claim are counted, not timed).
 */
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
const HOUR_WINDOW: DedupeOptions = { windowMs: HOUR, capacity: 100 };

const reload = (store: MemoryDedupeStore, options = HOUR_WINDOW) =>
	MemoryDedupeStore.fromSnapshot(JSON.parse(JSON.stringify(store.snapshot())), options);

describe('MemoryDedupeStore under clock steps', () => {
	it('an id seen after a clock step back expires by its own time, not behind a later one', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		expect(store.claimNow('late', T0 + 2 * HOUR)).toBe(true);
		expect(store.claimNow('early', T0)).toBe(true); // the clock stepped back two hours
		expect(store.claimNow('early', T0 + 30 * MINUTE)).toBe(false);
		expect(store.claimNow('early', T0 + 62 * MINUTE)).toBe(true);
		// `late` was seen at T0 + 2 h: still inside its window.
		expect(store.claimNow('late', T0 + 62 * MINUTE)).toBe(false);
	});

	it('the persisted form agrees after such an expiry', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		store.claimNow('late', T0 + 2 * HOUR);
		store.claimNow('early', T0);
		store.claimNow('other', T0 + 62 * MINUTE); // expires `early`
		const restored = reload(store);
		expect(restored.size).toBe(store.size);
		expect(restored.claimNow('early', T0 + 62 * MINUTE)).toBe(true);
		expect(restored.claimNow('late', T0 + 62 * MINUTE)).toBe(false);
		expect(restored.claimNow('other', T0 + 62 * MINUTE)).toBe(false);
	});

	it('never forgets an id early when the clock goes back and forth', () => {
		const store = new MemoryDedupeStore(HOUR_WINDOW);
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('x', T0 - 2 * HOUR)).toBe(true);
		expect(store.claimNow('a', T0 + 59 * MINUTE)).toBe(false); // still inside its own window
		expect(store.claimNow('b', T0 - 3 * HOUR)).toBe(true);
		expect(store.claimNow('c', T0 + 5 * HOUR)).toBe(true);
		expect(store.claimNow('d', T0 - 6 * HOUR)).toBe(true);
		// `a` was forgotten while the clock stood at T0 + 5 h, past its window: not early.
		expect(store.claimNow('b', T0 + 59 * MINUTE)).toBe(true); // seen 4 h earlier
		expect(store.claimNow('d', T0 + 59 * MINUTE)).toBe(true);
		expect(store.claimNow('c', T0 + 59 * MINUTE)).toBe(false); // seen later than now
		expect(store.claimNow('c', T0 + 5 * HOUR + 59 * MINUTE)).toBe(false);
		expect(store.claimNow('c', T0 + 5 * HOUR + 62 * MINUTE)).toBe(true);
	});

	it('expires every out-of-order id once its own window is over', () => {
		const store = new MemoryDedupeStore({ windowMs: 10 * MINUTE, capacity: 10_000 });
		// Seen at scrambled times within 100 minutes.
		const seenAt = new Map<string, number>();
		for (let i = 0; i < 500; i++) {
			const at = T0 + ((i * 37) % 100) * MINUTE;
			seenAt.set(`evt_${i}`, at);
			expect(store.claimNow(`evt_${i}`, at)).toBe(true);
		}
		const later = T0 + 200 * MINUTE;
		expect(store.claimNow('tick', later)).toBe(true);
		expect(store.size).toBe(1);
		for (const id of seenAt.keys()) expect(store.claimNow(id, later)).toBe(true);
	});
});

describe('MemoryDedupeStore at the cap', () => {
	it('evicts in order of arrival, O(1) amortized: records copied per claim stay bounded', () => {
		const capacity = 20_000;
		const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity });
		for (let i = 0; i < capacity; i++) store.claimNow(`fill_${i}`, T0);
		const copiedBefore = store.copiedRecords;
		const claims = 5 * capacity;
		let wins = 0;
		for (let i = 0; i < claims; i++) {
			if (store.claimNow(`evt_${i}`, T0 + i)) wins++;
			if (i % 1000 === 0) store.snapshot(); // persistence snapshots after claims
		}
		expect(wins).toBe(claims);
		expect(store.size).toBe(capacity);
		expect((store.copiedRecords - copiedBefore) / claims).toBeLessThan(40);
		expect(store.claimNow(`evt_${claims - 1}`, T0 + claims)).toBe(false);
		expect(store.claimNow(`evt_${claims - capacity - 1}`, T0 + claims)).toBe(true);
		expect(reload(store, { windowMs: 24 * HOUR, capacity }).size).toBe(capacity);
	});
});

describe('MemoryDedupeStore snapshot compatibility', () => {
	it('loads static data written by the previous store', () => {
		// Written by the store as released: evt_old_1 at T0, evt_old_2 at T0 + 1 min, evt_old_3 at T0 +
		// 3 h.
		const persisted = { v: 1, base: 28948590, d: 'K5hVUXUkaUnAAALzDifohGncOAABco3spflI43RAC0' };
		const options = { windowMs: 24 * HOUR, capacity: 100 };
		const store = MemoryDedupeStore.fromSnapshot(persisted, options);
		expect(store.size).toBe(3);
		for (const id of ['evt_old_1', 'evt_old_2', 'evt_old_3'])
			expect(store.claimNow(id, T0 + 4 * HOUR)).toBe(false);
		expect(store.claimNow('evt_old_1', T0 + 24 * HOUR + 2 * MINUTE)).toBe(true);
		expect(store.claimNow('evt_old_3', T0 + 24 * HOUR + 2 * MINUTE)).toBe(false);
	});
});
