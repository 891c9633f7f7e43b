/**
 * Property: under arbitrary interleavings of claims, clock moves (forward and back), snapshots and
 * restores, the dedupe store agrees with a reference model of its contract: an id seen at minute m
 * is a duplicate while the clock reads at most m + window (including any time before m, after a
 * step back), and is forgotten once the clock has passed that. So an id never wins twice inside
 * the window and always wins again after it. Resolution is the minute (the persisted form), so
 * "after it" is up to two minutes after the window in milliseconds. Below the cap.
 */
import fc from 'fast-check';

import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../nodes/GstComplianceTrigger/dedupe/memoryStore';
import { fcParameters, timeoutFor } from './fcConfig';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

type Action =
	| { kind: 'claim'; id: number }
	| { kind: 'clock'; deltaMs: number }
	| { kind: 'restore' };

const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 6, arbitrary: fc.record({ kind: fc.constant('claim' as const), id: fc.nat(24) }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			deltaMs: fc.oneof(
				fc.integer({ min: -5 * MINUTE, max: 30 * MINUTE }),
				fc.integer({ min: -6 * 60 * MINUTE, max: 6 * 60 * MINUTE }),
			),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
);

const windowMs = fc.integer({ min: 1, max: 180 }).map((minutes) => minutes * MINUTE - 7_000);

describe('property: dedupe store', () => {
	it(
		'agrees with the model under claims, clock steps both ways, snapshots and restores',
		() => {
			fc.assert(
				fc.property(windowMs, fc.array(action, { maxLength: 200 }), (window, actions) => {
					const options: DedupeOptions = { windowMs: window, capacity: 10_000 };
					const windowMinutes = Math.ceil(window / MINUTE);
					let store = new MemoryDedupeStore(options);
					const model = new Map<string, number>();
					let now = T0;
					for (const step of actions) {
						if (step.kind === 'clock') {
							now += step.deltaMs;
						} else if (step.kind === 'restore') {
							const snapshot = JSON.parse(JSON.stringify(store.snapshot())) as unknown;
							store = MemoryDedupeStore.fromSnapshot(snapshot, options);
						} else {
							const id = `evt_${step.id}`;
							const minute = Math.floor(now / MINUTE);
							for (const [seen, at] of model) {
								if (at + windowMinutes < minute) model.delete(seen);
							}
							const expected = !model.has(id);
							if (store.claimNow(id, now) !== expected) return false;
							if (expected) model.set(id, minute);
							if (store.size !== model.size) return false;
						}
					}
					return true;
				}),
				fcParameters(300),
			);
		},
		timeoutFor(300, 50),
	);

	it(
		'with a clock that only moves forward: no second win inside the window, a win after it',
		() => {
			fc.assert(
				fc.property(
					windowMs,
					fc.array(
						fc.record({ id: fc.nat(10), advanceMs: fc.integer({ min: 0, max: 90 * MINUTE }) }),
						{ maxLength: 150 },
					),
					(window, claims) => {
						const store = new MemoryDedupeStore({ windowMs: window, capacity: 10_000 });
						const lastWin = new Map<number, number>();
						let now = T0;
						for (const { id, advanceMs } of claims) {
							now += advanceMs;
							const won = store.claimNow(`evt_${id}`, now);
							const previous = lastWin.get(id);
							if (previous !== undefined && now - previous <= window && won) return false;
							if (previous !== undefined && now - previous >= window + 2 * MINUTE && !won)
								return false;
							if (previous === undefined && !won) return false;
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
