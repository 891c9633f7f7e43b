/**
 * Naming the events accepted and never started (dedupe/lifecycle.ts `overdue`): looked for at
 * every delivery the trigger receives (webhook.ts, whether it starts anything or not) and at every
 * execution's first step (execution.ts), at most every OVERDUE_LOOK_EVERY_MS per trigger and
 * process. A community node gets no timer of its own, so a quiet trigger names a lost event with
 * its next delivery, whatever that delivery is.
 */
import { triggerRunKey, type TriggerId } from './dedupe/keys';
import { overdueMessage, type EventLedger } from './dedupe/lifecycle';
import { makeRoom } from '../bounded';
import { isDue } from '../throttle';
import { settle } from '../settle';

/** Overdue events are looked for at most this often per trigger and process (a Redis read). */
export const OVERDUE_LOOK_EVERY_MS = 10_000;
const lastOverdueLook = new Map<string, number>();
/** Triggers and kinds whose last look is kept (bounded.ts). */
const OVERDUE_LOOKS_KEPT = 10_000;
/** How many overdue events a look delivers again at the same time. */
const REDELIVER_AT_ONCE = 4;

/**
 * Names the events accepted longer ago than the Missed Event Warning that never started: a warning
 * each, and the same words returned for the item (`shown`: the caller starts one). An event whose
 * delivery the store kept is delivered again first (`redeliver`, a webhook's: ownUrl.ts), and
 * its name says how that went. The store hands out only what this look can do its part for
 * (lifecycle.ts, OverdueLook). A store that cannot be read for it is not an error. A clock stepped
 * back looks again at once.
 */
export async function overdueNotes(
	trigger: TriggerId & { test: boolean; warn(message: string): void },
	ledger: Pick<EventLedger, 'overdue'>,
	startWithinMs: number,
	{ shown, redeliver }: { shown: boolean; redeliver?: (delivery: Buffer) => Promise<void> },
): Promise<string[]> {
	// A look whose names no item shows does not hold back one whose names an item shows.
	const key = triggerRunKey(
		trigger,
		`${trigger.test ? 'test' : 'production'}${shown ? '' : ':unshown'}`,
	);
	const nowMs = Date.now();
	if (!isDue(lastOverdueLook.get(key), nowMs, OVERDUE_LOOK_EVERY_MS)) return [];
	lastOverdueLook.delete(key);
	makeRoom(lastOverdueLook, OVERDUE_LOOKS_KEPT);
	lastOverdueLook.set(key, nowMs);
	const overdue = await ledger
		.overdue(nowMs, startWithinMs, { shown, redelivers: redeliver !== undefined })
		.catch(() => []);
	const toSend = redeliver ? overdue.filter((event) => event.delivery) : [];
	// A few at a time: a kill inside a burst loses many, and this delivery answers after them.
	const sender = async () => {
		for (let event = toSend.shift(); event; event = toSend.shift()) {
			const sent = await settle(redeliver!(event.delivery!));
			event.redelivered = sent.ok
				? { ok: true }
				: { ok: false, why: (sent.error as Error).message };
		}
	};
	await Promise.all(Array.from({ length: Math.min(REDELIVER_AT_ONCE, toSend.length) }, sender));
	return overdue.map((event) => {
		const message = overdueMessage(event, startWithinMs);
		trigger.warn(message);
		return message;
	});
}
