/** Signed deliveries to a trigger URL, as the service makes them (a fresh `t` on every attempt). */
import { envelope, signatureHeader, request, type HttpResponse } from '../../../harness';

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
 * What the trigger answered: a duplicate is acknowledged with `{ duplicate: true }`; any other 200
 * is a new event (its body is not relied on: builds before d6fe6b1 let n8n answer with a default).
 */
export function outcome(response: HttpResponse): 'accepted' | 'duplicate' | `HTTP ${number}` {
	if (response.status !== 200) return `HTTP ${response.status}`;
	try {
		return (JSON.parse(response.text) as { duplicate?: boolean }).duplicate === true
			? 'duplicate'
			: 'accepted';
	} catch {
		return 'accepted';
	}
}
