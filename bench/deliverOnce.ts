/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the benchmark, not credentials */
/**
 * The trigger's delivery path without n8n, as the benchmarks time it: verify and parse
 * (`judgeDelivery`), then the dedupe lifecycle (claim → prepare → renew → commit) on `store`.
 */
import { judgeDelivery } from '../nodes/GstCompliance/trigger/delivery';
import { admit, type ClaimStore } from '../nodes/GstCompliance/trigger/dedupe/lifecycle';

export const BENCH_SECRET = 'whsec_bench_0123456789abcdef0123456789abcdef';

/** One new-id delivery, start to commit; throws unless it started. */
export async function deliverOnce(
	store: ClaimStore,
	body: Buffer | string,
	header: string,
	nowMs: number,
	windowMs: number,
): Promise<void> {
	const outcome = judgeDelivery({
		body: typeof body === 'string' ? Buffer.from(body) : body,
		signatureHeader: header,
		secrets: [BENCH_SECRET, ''],
		nowMs,
		toleranceMs: 300_000,
		selectedEvents: ['*'],
	});
	if (outcome.kind !== 'verified') throw new Error(`bench delivery was ${outcome.kind}`);
	const admission = await admit(store, outcome.event.id, {
		now: () => nowMs,
		sleep: async () => {},
		// The answer is read at once here: no renewal is ever due.
		tick: async () => await new Promise<void>(() => {}),
		prepareMs: 5_000,
		startMs: 30_000,
		maxWaitMs: 3_600_000,
		windowMs,
		prepare: async () => outcome.event,
		answeredWithoutStart: () => false,
		onReleaseFailure: () => {},
		onHoldProblem: () => {},
		onUnprotected: () => {},
	});
	if (admission.kind !== 'start') throw new Error(`bench delivery was ${admission.kind}`);
	await admission.commit();
}
