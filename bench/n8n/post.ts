/**
 * The load of items 6–9: POSTs of signed ~4 KB events to one webhook URL, 10 in flight, every one
 * answered 200, then a wait until n8n reports a finished execution for each.
 */
import {
	envelope,
	request,
	runBounded,
	signatureHeader,
	waitForFinished,
	type N8n,
} from '../../test/harness';

export const CONCURRENCY = 10;
export const DEADLINE_MS = 180_000;

/** A realistic envelope: an e-invoice with the spec's fields, padded to about 4 KB. */
export function eventBody(seq: number): string {
	return JSON.stringify(
		envelope('einvoice.generated', {
			id: `einv_bench_${seq}`,
			object: 'einvoice',
			status: 'generated',
			irn: 'a'.repeat(64),
			ackNumber: String(100000000000 + seq),
			ackDate: '2025-01-15 10:00:00',
			sellerGstin: '29ABCDE1234F1Z5',
			invoiceNumber: `INV-${seq}`,
			totalInvoiceValue: 1180,
			notes: 'x'.repeat(3600),
		}),
	);
}

export interface Target {
	label: string;
	url: string;
	workflowId: string;
	/** Finished executions so far; updated by each load. */
	done: number;
	/** Signed with this secret; unsigned when absent (n8n's Webhook node). */
	secret?: string;
	headers?: Record<string, string>;
}

/** The load's shape: connections in flight and the body of each event. */
export interface Load {
	concurrency: number;
	body(seq: number): string;
}

const ITEM_6_LOAD: Load = { concurrency: CONCURRENCY, body: eventBody };

/** Milliseconds until every event was answered 200, and until every execution finished. */
export async function postEvents(
	n8n: N8n,
	target: Target,
	events: number,
	seq: { next: number },
	shape: Load = ITEM_6_LOAD,
): Promise<{ acknowledgedMs: number; finishedMs: number }> {
	const bodies = Array.from({ length: events }, () => shape.body(seq.next++));
	const started = Date.now();
	const load = await runBounded(
		events,
		shape.concurrency,
		async (index) => {
			const payload = bodies[index];
			const response = await request(target.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					...(target.secret
						? { 'service-signature': signatureHeader(target.secret, payload) }
						: {}),
					...target.headers,
				},
				body: payload,
			});
			if (response.status < 200 || response.status > 299)
				throw new Error(
					`${target.label} answered ${response.status}: ${response.text.slice(0, 200)}`,
				);
		},
		DEADLINE_MS,
	);
	const acknowledgedMs = Date.now() - started;
	const failed = load.results.find((result) => result.error);
	if (failed || load.notStarted > 0)
		throw new Error(
			`${target.label}: ${failed?.error?.message ?? `${load.notStarted} events not sent in time`}`,
		);
	target.done = await waitForFinished(n8n, target.workflowId, target.done + events, DEADLINE_MS);
	return { acknowledgedMs, finishedMs: Date.now() - started };
}
