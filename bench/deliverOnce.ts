/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the benchmark, not credentials */
/**
 * The trigger's delivery path without n8n, as the benchmarks time it: verify and parse
 * (`judgeDelivery`), then the dedupe lifecycle (accept at the webhook → start in the execution) on
 * `store`.
 */
import { judgeDelivery } from '../nodes/GstCompliance/trigger/delivery';
import type { EventLedger } from '../nodes/GstCompliance/trigger/dedupe/lifecycle';
import { START_WITHIN_MS } from './builtInLedger';

export const BENCH_SECRET = 'whsec_bench_0123456789abcdef0123456789abcdef';

/** One new-id delivery, accepted and started; throws unless it started. */
export async function deliverOnce(
	store: Pick<EventLedger, 'accept' | 'start'>,
	body: Buffer | string,
	header: string,
	nowMs: number,
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
	const acceptance = await store.accept(outcome.event.id, nowMs, START_WITHIN_MS);
	if (acceptance.kind !== 'accepted') throw new Error(`bench delivery was ${acceptance.kind}`);
	if ((await store.start(outcome.event.id, nowMs)) !== 'started')
		throw new Error('bench delivery did not start');
}
