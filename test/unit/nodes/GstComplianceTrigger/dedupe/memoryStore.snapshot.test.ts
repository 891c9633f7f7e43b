/**
 * The persisted snapshot: static data that is not a snapshot of this store is ignored (the store
 * starts empty, nothing throws), and ids at the edges of the offset range survive a restart.
 */
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
/** Minutes a record can lie after the snapshot's base: three base64url characters. */
const MAX_OFFSET = 64 ** 3 - 1;
const TEN_MINUTES: DedupeOptions = { windowMs: 10 * MINUTE, capacity: 100 };

const persisted = (store: MemoryDedupeStore) =>
	JSON.parse(JSON.stringify(store.snapshot())) as Record<string, unknown>;
const reload = (store: MemoryDedupeStore) =>
	MemoryDedupeStore.fromSnapshot(persisted(store), TEN_MINUTES);

describe('MemoryDedupeStore.fromSnapshot with foreign or corrupt static data', () => {
	const genuine = () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		store.claimNow('evt_1', T0);
		return persisted(store);
	};

	it('loads a genuine snapshot (the cases below change one field of it)', () => {
		const store = MemoryDedupeStore.fromSnapshot(genuine(), TEN_MINUTES);
		expect(store.size).toBe(1);
		expect(store.claimNow('evt_1', T0)).toBe(false);
	});

	it.each<[string, (snapshot: Record<string, unknown>) => unknown]>([
		['another version', (s) => ({ ...s, v: 2 })],
		['the version as a string', (s) => ({ ...s, v: '1' })],
		['the base as a string', (s) => ({ ...s, base: String(s.base) })],
		['a fractional base', (s) => ({ ...s, base: (s.base as number) + 0.5 })],
		['a base beyond the safe integers', (s) => ({ ...s, base: 2 ** 53 })],
		['no base', (s) => ({ v: s.v, d: s.d })],
		['the records as an array of characters', (s) => ({ ...s, d: [...(s.d as string)] })],
		['no records', (s) => ({ v: s.v, base: s.base })],
	])('ignores %s: starts empty without throwing', (_name, corrupt) => {
		const store = MemoryDedupeStore.fromSnapshot(corrupt(genuine()), TEN_MINUTES);
		expect(store.size).toBe(0);
		expect(store.claimNow('evt_1', T0)).toBe(true);
	});
});

describe('MemoryDedupeStore at the edges of the offset range', () => {
	it('keeps ids seen up to MAX_OFFSET minutes after the base, and one beyond (a new base), across a restart', () => {
		const store = new MemoryDedupeStore(TEN_MINUTES);
		expect(store.claimNow('first', T0)).toBe(true); // the base
		const edge = T0 + MAX_OFFSET * MINUTE;
		expect(store.claimNow('before-edge', edge - MINUTE)).toBe(true);
		expect(store.claimNow('at-edge', edge)).toBe(true);
		const atEdge = reload(store);
		expect(atEdge.claimNow('before-edge', edge)).toBe(false);
		expect(atEdge.claimNow('at-edge', edge)).toBe(false);

		expect(store.claimNow('beyond-edge', edge + MINUTE)).toBe(true);
		for (const check of [store, reload(store)]) {
			for (const id of ['before-edge', 'at-edge', 'beyond-edge'])
				expect(check.claimNow(id, edge + MINUTE)).toBe(false);
			expect(check.size).toBe(3);
		}
		// The ids still expire by their own minute after the new base.
		const restored = reload(store);
		expect(restored.claimNow('before-edge', edge + 10 * MINUTE)).toBe(true);
		expect(restored.claimNow('beyond-edge', edge + 10 * MINUTE)).toBe(false);
	});

	it('remembers ids across a clock step back of up to MAX_OFFSET minutes; ids later than that are forgotten', () => {
		const back = T0 - MAX_OFFSET * MINUTE;
		const store = new MemoryDedupeStore(TEN_MINUTES);
		expect(store.claimNow('later', T0)).toBe(true);
		expect(store.claimNow('earlier', back)).toBe(true);
		expect(store.claimNow('later', back)).toBe(false);
		expect(reload(store).claimNow('later', back)).toBe(false);

		const farther = new MemoryDedupeStore(TEN_MINUTES);
		expect(farther.claimNow('later', T0)).toBe(true);
		expect(farther.claimNow('earlier', back - MINUTE)).toBe(true);
		// Seen more than MAX_OFFSET minutes after the clock now: cannot be encoded, dropped.
		expect(farther.size).toBe(1);
		expect(farther.claimNow('later', back - MINUTE)).toBe(true);
	});
});
