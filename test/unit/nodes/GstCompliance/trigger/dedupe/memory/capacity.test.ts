/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The single-process store near and at its cap: it says so in the n8n log (at most once per ten
 * minutes per store and kind) and counts every id it had to forget inside the window.
 */
import {
	ATTACH_REDIS_FROM,
	CapacityWatch,
	DEDUPE_CAPACITY,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/capacity';
import { MemoryDedupeStore } from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';

const NOW = Date.UTC(2025, 0, 15, 4, 30, 0);
const HOUR = 3_600_000;

function setup(capacity = 10) {
	const store = new MemoryDedupeStore({ windowMs: 24 * HOUR, capacity });
	const warnings: string[] = [];
	const logger = { warn: (message: string) => void warnings.push(message) };
	const watch = new CapacityWatch();
	const claim = (id: string, at = NOW) => {
		const isNew = store.claimNow(id, at);
		return { isNew, kind: watch.check(logger, 'wf1:node-1', store, at) };
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
	expect(warnings[0]).toMatch(/remembers 8 event ids \(at most 10\)\. Beyond the cap/);
	expect(warnings[0]).toMatch(/attach a GST Compliance Dedupe Redis credential/);
});

it('at the cap, counts the ids forgotten inside the window and warns again (a redelivery of one starts again)', () => {
	const { store, warnings, claim } = setup();
	for (let i = 0; i < 12; i++) claim(`evt_${i}`);
	expect(store.size).toBe(10);
	expect(store.evictedInWindow).toBe(2);
	expect(warnings).toHaveLength(2);
	expect(warnings[1]).toMatch(/has had to forget 1 still inside the dedupe window/);
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

it('warns again at once after the clock stepped back (not quiet for as long as the step)', () => {
	const { warnings, claim } = setup();
	for (let i = 0; i < 9; i++) claim(`evt_${i}`);
	expect(warnings).toHaveLength(1);
	claim('evt_after_step', NOW - 2 * HOUR);
	expect(warnings).toHaveLength(2);
});

it('notice() says the store forgets ids while it is full; once ids expire below the cap, the forgotten ones are past the window too', () => {
	const { store, claim } = setup();
	const watch = new CapacityWatch();
	for (let i = 0; i < 12; i++) claim(`evt_${i}`);
	expect(watch.notice(store)).toMatch(/has had to forget 2 still inside the dedupe window/);
	claim('evt_next_day', NOW + 25 * HOUR);
	expect(store.size).toBe(1);
	expect(watch.notice(store)).toBeUndefined();
});

it('ids that expire with the window are not counted as forgotten', () => {
	const { store, claim } = setup();
	for (let i = 0; i < 10; i++) claim(`evt_${i}`);
	claim('evt_next_day', NOW + 25 * HOUR);
	expect(store.evictedInWindow).toBe(0);
	expect(store.size).toBe(1);
});

describe('with the shipped cap, the store gives way to Redis long before it is full', () => {
	/** A store of the shipped cap holding `size` ids (only what the watch reads). */
	const holding = (size: number, evictedInWindow = 0) => ({
		size,
		capacity: DEDUPE_CAPACITY,
		evictedInWindow,
	});

	it(`from ${ATTACH_REDIS_FROM.toLocaleString('en')} ids (bench item 9: slower on Postgres beyond) → warns that every event is slower, naming the fix`, () => {
		const warnings: string[] = [];
		const logger = { warn: (message: string) => void warnings.push(message) };
		const watch = new CapacityWatch();
		expect(watch.check(logger, 'scope', holding(ATTACH_REDIS_FROM - 1), NOW)).toBeUndefined();
		expect(watch.check(logger, 'scope', holding(ATTACH_REDIS_FROM), NOW)).toBe('near');
		expect(warnings).toEqual([
			"The GST Compliance Trigger's built-in dedupe store remembers 10,000 event ids (at most 125,000). n8n saves all of them with the workflow on every event, which slows each delivery from about 10,000 ids on. Attach a GST Compliance Dedupe Redis credential to the trigger, or shorten the Dedupe Window. (scope)",
		]);
	});

	it('notice() → the same words for the started item, from the threshold on; nothing below it', () => {
		const watch = new CapacityWatch();
		expect(watch.notice(holding(ATTACH_REDIS_FROM - 1))).toBeUndefined();
		expect(watch.notice(holding(ATTACH_REDIS_FROM))).toMatch(
			/slows each delivery from about 10,000 ids on/,
		);
		expect(watch.notice(holding(DEDUPE_CAPACITY, 3))).toMatch(
			/has had to forget 3 still inside the dedupe window/,
		);
	});
});
