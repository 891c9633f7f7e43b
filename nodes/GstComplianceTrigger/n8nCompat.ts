/**
 * The n8n behaviours the trigger depends on beyond n8n-workflow's types, in one place. Each is
 * pinned by test/e2e/specs/n8nCompat.test.ts, which fails on the e2e n8n when the behaviour changes.
 *
 * 1. `responseData: ''` on the webhook description makes n8n answer an `onReceived` webhook with
 *    the node's `webhookResponse`. Left undefined, n8n 2.41 answers the literal text
 *    `firstEntryJson` and never reads `webhookResponse`.
 * 2. From n8n 2.8.0, an `onReceived` answer is read (`webhookResponse`) only after n8n has created
 *    the execution (`shouldDeferOnReceivedResponse` in webhook-helpers), so a getter on it runs
 *    once the execution exists. n8n creates the execution from a fresh workflow object over the
 *    same static data, which resets its "changed" flag, and saves static data right after that
 *    read: a static-data write made inside the getter is saved, one made earlier in `webhook()`
 *    is not.
 */
import type { IDataObject, IWebhookDescription, IWebhookResponseData } from 'n8n-workflow';

/** The trigger's one webhook: POST, answered by the node itself once the execution exists. */
export const TRIGGER_WEBHOOK: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	responseMode: 'onReceived',
	responseData: '',
	path: 'webhook',
};

/**
 * Starts the workflow with `item`; `onExecutionCreated` runs, and the 200 `{received: true}` is
 * built, when n8n reads the answer, after the execution exists (2. above).
 */
export function answerOnceExecutionExists(
	item: IDataObject,
	onExecutionCreated: () => void,
): IWebhookResponseData {
	const response: IWebhookResponseData = { workflowData: [[{ json: item }]] };
	Object.defineProperty(response, 'webhookResponse', {
		enumerable: true,
		get() {
			onExecutionCreated();
			return { received: true };
		},
	});
	return response;
}
