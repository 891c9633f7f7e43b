/**
 * Delivering an accepted event to the trigger's own Production URL again, when the store kept its
 * delivery (the Redis store) and its execution was lost (n8n died between the 2xx and the
 * execution row, or never ran a queued execution again after a restart): signed as the service
 * signs, with the Signing Secret, so the trigger's webhook takes the event again (its acceptance is
 * overdue: `retaken`) and the execution that delivery creates starts it once. Nobody has to replay
 * it from the Developer hub. It needs an n8n that reaches its own Production URL (WEBHOOK_URL);
 * where it does not, the event is named with the reason, as before.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { formatSignatureHeader, sign, SIGNATURE_HEADER } from './signature';

/** How long the trigger waits for its own URL to answer a delivery it sends again. */
export const REDELIVERY_TIMEOUT_MS = 5_000;

/** What a redelivery needs of n8n's webhook context. */
export interface RedeliveryContext {
	getNodeWebhookUrl(name: 'default'): string | undefined;
	helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> };
}

/** Sends `body` to the trigger's Production URL, signed with `secret` now; throws what failed. */
export async function redeliver(
	context: RedeliveryContext,
	secret: string,
	body: Buffer,
	nowMs = Date.now(),
): Promise<void> {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new Error('n8n gives the trigger no Production URL');
	const t = Math.floor(nowMs / 1000);
	const answer = (await context.helpers.httpRequest({
		method: 'POST',
		url,
		body,
		headers: {
			'content-type': 'application/json',
			[SIGNATURE_HEADER]: formatSignatureHeader(t, [sign(secret, t, body)]),
		},
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: REDELIVERY_TIMEOUT_MS,
	})) as { statusCode?: number };
	const status = Number(answer.statusCode);
	if (!(status >= 200 && status < 300)) throw new Error(`${url} answered ${status}`);
}
