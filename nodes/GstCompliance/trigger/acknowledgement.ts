/**
 * When the service gets its 2xx for an accepted delivery, by n8n version (README, Compatibility):
 *
 * - `atOnce`: the node answers 202 itself before n8n creates the execution, so n8n's concurrency
 *   queue never delays the answer. What n8n holds between the answer and the execution row is
 *   lost if the process dies then; executions queued behind the limit are run again after a
 *   restart by n8n 1.x and 2.34+, and the ledger names any event that never starts.
 * - `afterExecutionCreated`: n8n answers 200 once it has created the execution (on 2.8+, after a
 *   concurrency slot is free). n8n 2.0–2.33 never run a queued execution again after a restart
 *   (fixed in 2.34, n8n PR #35059), so there, with the built-in store, the service must not get
 *   its 2xx before then: it retries what a restart stranded, and the start-time dedupe keeps one
 *   start. The Redis store delivers a stranded event again itself, past the Missed Event Warning
 *   (overdue.ts), so with it the answer is at once on those versions too.
 */

export type AcknowledgeOption = 'auto' | 'atOnce' | 'afterExecutionCreated';
export type Acknowledge = 'atOnce' | 'afterExecutionCreated';

/** The first n8n 2.x that runs queued executions again after a restart. */
const RECOVERS_QUEUED_FROM_MINOR = 34;

/**
 * The mode for this n8n: the option, or by `n8nVersion` (undefined when it could not be read:
 * then at once, as on every current n8n) and whether the store delivers a stranded event again
 * itself (`redelivers`: the Redis store).
 */
export function acknowledgeMode(
	option: AcknowledgeOption,
	n8nVersion?: string,
	redelivers = false,
): Acknowledge {
	if (option !== 'auto') return option;
	if (redelivers) return 'atOnce';
	const match = /^(\d+)\.(\d+)\./.exec(n8nVersion ?? '');
	if (!match) return 'atOnce';
	const [major, minor] = [Number(match[1]), Number(match[2])];
	return major === 2 && minor < RECOVERS_QUEUED_FROM_MINOR ? 'afterExecutionCreated' : 'atOnce';
}
