/** The in-process dedupe store at its edges: window, cap, snapshot format and clock changes. */
import {
	digestEventId,
	MemoryDedupeStore,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);
const options = (windowMs = 60 * MINUTE, capacity = 1000) => ({ windowMs, capacity });

describe('MemoryDedupeStore', () => {
	it('digests an id to 11 base64url characters of its SHA-256', () => {
		expect(digestEventId('evt_1')).toMatch(/^[A-Za-z0-9_-]{11}$/);
		expect(digestEventId('evt_1')).toBe(digestEventId('evt_1'));
		expect(digestEventId('evt_2')).not.toBe(digestEventId('evt_1'));
	});

	it('claims through the async interface like the sync one', async () => {
		const store = new MemoryDedupeStore(options());
		await expect(store.claim('a', T0)).resolves.toBe(true);
		await expect(store.claim('a', T0)).resolves.toBe(false);
		expect(store.size).toBe(1);
	});

	it('keeps an id for the window counted in whole minutes, rounded up', () => {
		// 90 s rounds up to 2 minutes: kept through minute +2, gone at minute +3.
		const store = new MemoryDedupeStore(options(90_000));
		expect(store.claimNow('a', T0)).toBe(true);
		expect(store.claimNow('a', T0 + 2 * MINUTE + 59_999)).toBe(false);
		expect(store.claimNow('a', T0 + 3 * MINUTE)).toBe(true);
	});

	it('expires only the ids older than the window, oldest first', () => {
		const store = new MemoryDedupeStore(options(10 * MINUTE));
		store.claimNow('old', T0);
		store.claimNow('mid', T0 + 5 * MINUTE);
		store.claimNow('new', T0 + 11 * MINUTE);
		expect(store.size).toBe(2);
		expect(store.claimNow('mid', T0 + 11 * MINUTE)).toBe(false);
		expect(store.claimNow('old', T0 + 11 * MINUTE)).toBe(true);
	});

	it('evicts exactly as many oldest ids as needed at the cap', () => {
		const store = new MemoryDedupeStore(options(60 * MINUTE, 3));
		for (const id of ['a', 'b', 'c']) store.claimNow(id, T0);
		store.claimNow('d', T0);
		expect(store.size).toBe(3);
		expect(store.claimNow('b', T0)).toBe(false);
		expect(store.claimNow('c', T0)).toBe(false);
		expect(store.claimNow('a', T0)).toBe(true);
	});

	it('shrinks to a lowered cap on the next claim', () => {
		const store = new MemoryDedupeStore(options(60 * MINUTE, 5));
		for (const id of ['a', 'b', 'c', 'd', 'e']) store.claimNow(id, T0);
		store.configure(options(60 * MINUTE, 2));
		store.claimNow('f', T0);
		expect(store.size).toBe(2);
		expect(store.claimNow('e', T0)).toBe(false);
		expect(store.claimNow('d', T0)).toBe(true);
		expect(MemoryDedupeStore.fromSnapshot(store.snapshot(), options()).size).toBe(2);
	});

	it('snapshots fixed-width records: digest then minute offset from base, in claim order', () => {
		const store = new MemoryDedupeStore(options(24 * 60 * MINUTE));
		store.claimNow('a', T0);
		store.claimNow('b', T0 + 64 * MINUTE - 1);
		store.claimNow('c', T0 + 62 * MINUTE);
		store.claimNow('d', T0 + 64 * MINUTE);
		const snapshot = store.snapshot();
		expect(snapshot.v).toBe(1);
		expect(snapshot.base).toBe(Math.floor(T0 / MINUTE));
		expect(snapshot.d).toBe(
			`${digestEventId('a')}AAA${digestEventId('b')}AA_${digestEventId('c')}AA-${digestEventId('d')}ABA`,
		);
	});

	it('rebuilds the same store from its snapshot, skipping repeated records', () => {
		const store = new MemoryDedupeStore(options());
		store.claimNow('a', T0);
		store.claimNow('b', T0 + MINUTE);
		const snapshot = store.snapshot();
		const doubled = { ...snapshot, d: snapshot.d + snapshot.d.slice(0, 14) };
		const again = MemoryDedupeStore.fromSnapshot(doubled, options());
		expect(again.size).toBe(2);
		expect(again.snapshot()).toEqual(snapshot);
		expect(again.claimNow('a', T0 + MINUTE)).toBe(false);
		expect(again.claimNow('c', T0 + MINUTE)).toBe(true);
	});

	it('ignores a trailing partial record and a record with a character outside base64url', () => {
		const store = new MemoryDedupeStore(options());
		store.claimNow('a', T0);
		const { base, d } = store.snapshot();
		const bad = `${digestEventId('b')}A*A`;
		const restored = MemoryDedupeStore.fromSnapshot({ v: 1, base, d: d + bad + 'xyz' }, options());
		expect(restored.size).toBe(1);
		expect(restored.claimNow('a', T0)).toBe(false);
		expect(restored.claimNow('b', T0)).toBe(true);
	});

	it('keeps records across a clock step back by moving the base', () => {
		const store = new MemoryDedupeStore(options(24 * 60 * MINUTE));
		store.claimNow('a', T0);
		store.claimNow('b', T0 - 30 * MINUTE);
		const snapshot = store.snapshot();
		expect(snapshot.base).toBe(Math.floor(T0 / MINUTE) - 30);
		const restored = MemoryDedupeStore.fromSnapshot(snapshot, options(24 * 60 * MINUTE));
		expect(restored.claimNow('a', T0)).toBe(false);
		expect(restored.claimNow('b', T0)).toBe(false);
	});

	it('rebases when an offset would not fit in three characters (about half a year)', () => {
		const longWindow = options(400 * 24 * 60 * MINUTE);
		const store = new MemoryDedupeStore(longWindow);
		store.claimNow('a', T0);
		const later = T0 + 262_144 * MINUTE;
		store.claimNow('b', later);
		const restored = MemoryDedupeStore.fromSnapshot(store.snapshot(), longWindow);
		expect(restored.claimNow('b', later)).toBe(false);
		expect(store.claimNow('b', later)).toBe(false);
	});

	it('starts empty from anything that is not a version-1 snapshot with a safe integer base', () => {
		for (const value of [
			undefined,
			[],
			{ v: 1, base: 1.5, d: '' },
			{ v: 1, base: Number.MAX_SAFE_INTEGER + 2, d: '' },
			{ v: '1', base: 0, d: '' },
			{ base: 0, d: '' },
		]) {
			expect(MemoryDedupeStore.fromSnapshot(value, options()).size).toBe(0);
		}
	});
});
