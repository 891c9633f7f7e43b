/**
 * The n8n behaviours the package depends on beyond n8n-workflow's types, in one place. Each is
 * pinned by a test that fails when n8n changes it: 1 and 2 by test/e2e/specs/n8nCompat.test.ts on
 * the e2e n8n (and the compatibility project on each version of the tested range); 3 by bench
 * item 6's profile (the expression's cost) and by the e2e spec (version-1 nodes keep working, and
 * a version-2 node verifies a body of any Content-Type); 4 by this file's integration test against
 * n8n-core's own helper. The trigger's node file writes its versions and webhook by 1 to 3.
 *
 * 1. `responseData: ''` on the webhook description makes n8n answer an `onReceived` webhook with
 *    the node's `webhookResponse`. Left undefined, n8n 2.41 answers the literal text
 *    `firstEntryJson` and never reads `webhookResponse`.
 * 2. From n8n 2.8.0, an `onReceived` answer is read (`webhookResponse`) only after n8n has created
 *    the execution (`shouldDeferOnReceivedResponse` in webhook-helpers), so a getter on it runs
 *    once the execution exists. n8n creates the execution from a fresh workflow object over the
 *    same static data, which resets its "changed" flag, and saves static data right after that
 *    read: a static-data write made inside the getter is saved, one made earlier in `webhook()`
 *    is not. n8n 1.x answers before the execution exists (README, Compatibility).
 * 3. n8n (2.41 `webhook-helpers` parseRequestBody, and 1.x alike) evaluates the expression
 *    `$parameter["options"]["binaryData"]` on every request to a webhook node of version 1; in
 *    n8n 2.41 that is an isolated-VM expression, about 5 ms of CPU per event (bench item 6's
 *    profile). Version 2 of the trigger is version 1 unchanged, so new nodes skip it; saved
 *    version-1 nodes keep working as they are. For a node above version 1, n8n reads the body
 *    only for the content types it parses (JSON, text, form, XML); `requestBytes` reads any other
 *    with n8n's own `readRawBody`, so a delivery's Content-Type (not shown by the service) never
 *    matters.
 * 4. n8n-core's `httpRequestWithAuthentication` reads the credential, runs its `authenticate`,
 *    sets the execution's cancel signal (so stopping the execution aborts the request) and sends
 *    with n8n's request helper. The action node does the same minus the credential read, which it
 *    has already made for the item (a database read and a decryption each time). Its requests
 *    do not use n8n's redirect follow, which re-sends the token to any origin before n8n 1.123.50
 *    (1.x) and 2.6 (2.x): http/redirects.ts follows instead, pinned by the action node's
 *    tests with the request option removed and by the compatibility project.
 */
import type {
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IWebhookResponseData,
} from 'n8n-workflow';

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

/** The exact bytes of a webhook request, read by n8n's `readRawBody` if n8n has not yet (3. above). */
export async function requestBytes(request: object): Promise<Buffer> {
	const req = request as { rawBody?: unknown; readRawBody?: () => Promise<void> };
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
	return Buffer.from(typeof req.rawBody === 'string' ? req.rawBody : '');
}

/** What `sendAuthenticated` needs of an n8n context (IExecuteFunctions and IWebhookFunctions fit). */
export interface SendContext {
	helpers: { httpRequest(requestOptions: IHttpRequestOptions): Promise<unknown> };
	getExecutionCancelSignal?(): AbortSignal | undefined;
}

/**
 * `httpRequestWithAuthentication` (4. above) with credential data already read: `authenticate` is
 * the credential's own, and the request carries the execution's cancel signal.
 */
export async function sendAuthenticated(
	context: SendContext,
	request: IHttpRequestOptions,
	authenticate: (request: IHttpRequestOptions) => Promise<IHttpRequestOptions>,
): Promise<IN8nHttpFullResponse> {
	const signal = context.getExecutionCancelSignal?.();
	const authenticated = await authenticate(signal ? { ...request, abortSignal: signal } : request);
	return (await context.helpers.httpRequest(authenticated)) as IN8nHttpFullResponse;
}
