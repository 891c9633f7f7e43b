/** Signed deliveries to a trigger URL, as the service makes them (a fresh `t` on every attempt). */
import { envelope, signatureHeader, request, shuffled, type HttpResponse } from '../../../harness';

export type Envelope = ReturnType<typeof envelope>;

export function einvoiceEvent(seq: number): Envelope {
	return envelope('einvoice.generated', {
		id: `einv_rel_${seq}`,
		object: 'einvoice',
		status: 'generated',
	});
}

export async function deliverSigned(
	url: string,
	event: Envelope,
	secret: string,
): Promise<HttpResponse> {
	const body = JSON.stringify(event);
	return await request(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'service-signature': signatureHeader(secret, body),
		},
		body,
		timeoutMs: 60_000,
	});
}

/**
 * What the trigger answered: a copy (of an event started, or accepted and on its way) is
 * acknowledged with `{ duplicate: true }`; any other 2xx is a new event.
 */
export function outcome(response: HttpResponse): 'accepted' | 'duplicate' | `HTTP ${number}` {
	if (response.status !== 200 && response.status !== 202) return `HTTP ${response.status}`;
	try {
		return (JSON.parse(response.text) as { duplicate?: boolean }).duplicate === true
			? 'duplicate'
			: 'accepted';
	} catch {
		return 'accepted';
	}
}

/** The stream of 1,000 deliveries the reliability and queue-mode specs send. */
export const DELIVERIES = 1_000;
export const UNIQUE = 700; // 30 % of the deliveries repeat an id
const BURSTS = 5;
const BURST_SIZE = 20;
/** Deliveries in flight at once, besides the bursts. */
export const CONCURRENCY = 10;

/**
 * The plan: each unique event once, 300 repeats of earlier or later ids, shuffled; the burst ids
 * are sent 20 at a time, concurrently, at spread positions of the stream.
 */
export function deliveryPlan(events: Envelope[]): Array<Envelope | Envelope[]> {
	const burstIds = events.slice(0, BURSTS);
	const singles = events.slice(BURSTS);
	const repeats = DELIVERIES - BURSTS * BURST_SIZE - singles.length;
	const stream: Envelope[] = [
		...singles,
		...Array.from({ length: repeats }, (_, i) => singles[(i * 7919) % singles.length]),
	];
	const steps: Array<Envelope | Envelope[]> = shuffled(stream, 42);
	burstIds.forEach((event, i) => {
		steps.splice(
			Math.floor(((i + 1) * steps.length) / (BURSTS + 1)),
			0,
			Array(BURST_SIZE).fill(event),
		);
	});
	return steps;
}
