/**
 * Leases: which delivery holds a claimed id and until when; a lease is live strictly before its
 * end, and lapsed ones are swept once 1,000 are held.
 */
import { Leases } from '../../../../../../nodes/GstCompliance/trigger/dedupe/leases';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('Leases.anyLive: whether the store must stay', () => {
	it('no lease → false; a lease → true until its end, false from its end on', () => {
		const leases = new Leases();
		expect(leases.anyLive(T0)).toBe(false);
		leases.take('d1', 't1', T0, 1_000);
		expect(leases.anyLive(T0 + 999)).toBe(true);
		expect(leases.anyLive(T0 + 1_000)).toBe(false);
	});
});

describe('Leases.take: lapsed leases are swept once 1,000 are held', () => {
	it('999 leases held → no sweep yet; with 1,000 held the next take drops those ending exactly then', () => {
		const leases = new Leases();
		const deleted: string[] = [];
		const held = (leases as unknown as { held: Map<string, unknown> }).held;
		const remove = held.delete.bind(held);
		held.delete = (key: string) => (deleted.push(key), remove(key));
		for (let i = 0; i < 999; i++) leases.take(`lapsed${i}`, 't', T0, 10);
		leases.take('next', 't', T0 + 10, 1_000);
		expect(deleted).toEqual([]);
		leases.take('after', 't', T0 + 10, 1_000);
		expect(deleted).toHaveLength(999);
	});
});
