/**
 * The single-process store near and at its cap: it says so in the n8n log (at most once per ten
 * minutes per store and kind) and counts every id it had to forget inside the window.
 */
import { CapacityWatch } from '../../../../../nodes/GstComplianceTrigger/dedupe/capacity';
import { MemoryDedupeStore } from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const NOW = Date.UTC(2025, 0, 15, 4, 30, 0);
const HOUR = 3_600_000;

function setup(capacity = 10) {
	const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity });
	const warnings: string[] = [];
	const logger = { warn: (message: string) => void warnings.push(message) };
	const watch = new CapacityWatch();
	const claim = (id: string, at = NOW) => {
		const isNew = store.claimNow(id, at);
		return { isNew, kind: watch.check(logger, 'wf1:node-1:production', store, at) };
	};
	return { store, warnings, claim };
}

it('is silent below 80 % of the cap', () => {
	const { warnings, claim } = setup();
	for (let i = 0; i < 7; i++) expect(claim(`evt_${i}`).kind).toBeUndefined();
	expect(warnings).toEqual([]);
});

it('warns once when it nears the cap, naming the fix', () => {
	const { warnings, claim } = setup();
	for (let i = 0; i < 9; i++) claim(`evt_${i}`);
	expect(warnings).toHaveLength(1);
	expect(warnings[0]).toMatch(/holds 8 of at most 10 event ids/);
	expect(warnings[0]).toMatch(/attach a GST Compliance Dedupe Redis credential/);
});

it('at the cap, counts the ids forgotten inside the window and warns again (a redelivery of one starts again)', () => {
	const { store, warnings, claim } = setup();
	for (let i = 0; i < 12; i++) claim(`evt_${i}`);
	expect(store.size).toBe(10);
	expect(store.evictedInWindow).toBe(2);
	expect(warnings).toHaveLength(2);
	expect(warnings[1]).toMatch(/has forgotten 1 ids still inside the dedupe window/);
	// The evicted id is no longer known: the silent loss the warning is about.
	expect(claim('evt_0').isNew).toBe(true);
});

it('repeats a warning at most every ten minutes', () => {
	const { warnings, claim } = setup();
	for (let i = 0; i < 30; i++) claim(`evt_${i}`, NOW + i * 1_000);
	expect(warnings).toHaveLength(2); // one "near", one "evicting"
	claim('evt_late', NOW + 11 * 60_000);
	expect(warnings).toHaveLength(3);
});

it('ids that expire with the window are not counted as forgotten', () => {
	const { store, claim } = setup();
	for (let i = 0; i < 10; i++) claim(`evt_${i}`);
	claim('evt_next_day', NOW + 25 * HOUR);
	expect(store.evictedInWindow).toBe(0);
	expect(store.size).toBe(1);
});
