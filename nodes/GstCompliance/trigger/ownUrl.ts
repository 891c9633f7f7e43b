/**
 * Requests the trigger sends to its own Production URL (the address n8n gives it: WEBHOOK_URL), so
 * n8n runs its webhook again:
 *
 * - `redeliver`: an accepted event whose execution was lost, when the store kept its delivery (the
 *   Redis store; n8n died between the 2xx and the execution row, or never ran a queued execution
 *   again after a restart), signed as the service signs, with the Signing Secret: the webhook takes
 *   the event again (its acceptance is overdue: `retaken`) and the execution that delivery creates
 *   starts it once. Nobody has to replay it from the Developer hub.
 * - `probe`: a request that only makes n8n load the workflow's static data from the database, as it
 *   does for every request, so the built-in store sees which acceptances are saved
 *   (dedupe/memory/unsavedAcceptances.ts). The webhook answers it 204 and does nothing else.
 *
 * An n8n that cannot reach its own Production URL gets neither: an event whose execution was lost
 * is then named, to replay, and an acceptance is shown saved only by later deliveries or its
 * execution.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { formatSignatureHeader, sign, SIGNATURE_HEADER } from './signature';

/** How long the trigger waits for its own URL to answer a request it sends there. */
export const OWN_URL_TIMEOUT_MS = 5_000;

/** The header of a probe; its value is not read. */
export const PROBE_HEADER = 'x-gst-compliance-probe';

/** What a request to the trigger's own URL needs of n8n's webhook context. */
export interface OwnUrlContext {
	getNodeWebhookUrl(name: 'default'): string | undefined;
	helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> };
}

/** Sends `body` to the trigger's Production URL, signed with `secret` now; throws what failed. */
export async function redeliver(
	context: OwnUrlContext,
	secret: string,
	body: Buffer,
	nowMs = Date.now(),
): Promise<void> {
	const t = Math.floor(nowMs / 1000);
	await post(context, body, {
		'content-type': 'application/json',
		[SIGNATURE_HEADER]: formatSignatureHeader(t, [sign(secret, t, body)]),
	});
}

/** Asks n8n to run the trigger's webhook once more, with nothing to deliver (see above). */
export async function probe(context: OwnUrlContext): Promise<void> {
	await post(context, Buffer.alloc(0), { [PROBE_HEADER]: '1' });
}

/** POSTs `body` to the trigger's Production URL; throws unless it answers 2xx. */
async function post(
	context: OwnUrlContext,
	body: Buffer,
	headers: Record<string, string>,
): Promise<void> {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new Error('n8n gives the trigger no Production URL');
	const answer = (await context.helpers.httpRequest({
		method: 'POST',
		url,
		body,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: OWN_URL_TIMEOUT_MS,
	})) as { statusCode?: number };
	const status = Number(answer.statusCode);
	if (!(status >= 200 && status < 300)) throw new Error(`${url} answered ${status}`);
}
