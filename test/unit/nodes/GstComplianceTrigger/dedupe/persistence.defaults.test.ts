/**
 * The dedupe policy the trigger ships: what `webhook()` configures when no option is set
 * (`dedupeOptions(DEFAULT_WINDOW_HOURS, DEFAULT_TOLERANCE_SECONDS)`), exercised on the store.
 */
import {
	DEFAULT_WINDOW_HOURS,
	dedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { MemoryDedupeStore } from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';
import { DEFAULT_TOLERANCE_SECONDS } from '../../../../../nodes/GstComplianceTrigger/delivery';

const T0 = Date.UTC(2025, 0, 15);

describe('shipped dedupe policy', () => {
	it('remembers an id for 24 h plus the 300 s tolerance', () => {
		expect(dedupeOptions(DEFAULT_WINDOW_HOURS, DEFAULT_TOLERANCE_SECONDS).windowMs).toBe(
			(24 * 3600 + 300) * 1000,
		);
	});

	it('remembers 125,000 ids; the 125,001st pushes out the oldest', () => {
		const store = new MemoryDedupeStore(
			dedupeOptions(DEFAULT_WINDOW_HOURS, DEFAULT_TOLERANCE_SECONDS),
		);
		for (let i = 0; i < 125_000; i++) store.claimNow(`evt_${i}`, T0);
		expect(store.size).toBe(125_000);
		expect(store.claimNow('evt_0', T0)).toBe(false);
		expect(store.claimNow('evt_new', T0)).toBe(true);
		expect(store.size).toBe(125_000);
		expect(store.claimNow('evt_124999', T0)).toBe(false);
		expect(store.claimNow('evt_0', T0)).toBe(true);
	});
});
