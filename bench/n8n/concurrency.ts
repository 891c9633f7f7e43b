/**
 * Item 10, a burst behind n8n's production concurrency limit: how many deliveries of a burst get
 * their 200 within the service's delivery timeout (not shown by the service; the emulator's 10 s),
 * with the limit at 1 and at 5 and each execution taking 2 s. n8n answers a delivery only once its
 * execution has a slot, so the rest time out there and count as failed deliveries (docs/trigger.md,
 * "n8n's concurrency limit"). Informative rows: the figures behind the advice, no goal.
 */
import {
	CRED,
	deliver,
	envelope,
	slowTriggerWorkflow,
	startN8n,
	uuid,
	waitForFinished,
} from '../../test/harness';
import type { Row } from '../result';

const SERVICE_TIMEOUT_MS = 10_000;
const EXECUTION_S = 2;

async function burst(limit: number, size: number): Promise<{ inTime: number; medianMs: number }> {
	const n8n = await startN8n({
		name: `bench-concurrency-${limit}`,
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(limit), N8N_LOG_LEVEL: 'warn' },
	});
	try {
		const secret = `whsec_${uuid()}`;
		const webhookCredential = await n8n.createCredential('GST webhook', CRED.webhook, {
			signingSecret: secret,
			previousSigningSecret: '',
		});
		const wf = await slowTriggerWorkflow(n8n, webhookCredential, EXECUTION_S);
		const answered = await Promise.all(
			Array.from({ length: size }, async (_, i) => {
				const started = Date.now();
				const event = envelope('einvoice.generated', { id: `einv_burst_${i}` });
				const status = await deliver(wf.url, event, secret, undefined, {
					timeoutMs: SERVICE_TIMEOUT_MS,
				}).then(
					(response) => response.status,
					() => 0,
				);
				return { ok: status === 200, ms: Date.now() - started };
			}),
		);
		await waitForFinished(n8n, wf.workflowId, size, 5 * size * EXECUTION_S * 1000, 500);
		const inTime = answered.filter((a) => a.ok);
		const ms = inTime.map((a) => a.ms).sort((a, b) => a - b);
		return { inTime: inTime.length, medianMs: ms[Math.floor(ms.length / 2)] ?? NaN };
	} finally {
		await n8n.dispose();
	}
}

export async function concurrencyRows(): Promise<Row[]> {
	const rows: Row[] = [];
	for (const [limit, size] of [
		[1, 10],
		[5, 50],
	] as const) {
		const { inTime, medianMs } = await burst(limit, size);
		const what = `Limit ${limit}, a burst of ${size} events, ${EXECUTION_S} s per execution`;
		rows.push(
			{
				item: '10',
				what: `${what}: answered within the service's 10 s timeout`,
				unit: 'events',
				ours: [inTime],
				ratio: [inTime / size],
				goal: '— (informative: the rest count as failed deliveries and are retried)',
			},
			{
				item: '10',
				what: `${what}: median wait of those answered in time`,
				unit: 'ms',
				ours: [medianMs],
				ratio: [medianMs],
				goal: '—',
			},
		);
	}
	return rows;
}
