/**
 * The n8n behaviours the package depends on beyond n8n-workflow's types, in one place. Each is
 * pinned by a test that fails when n8n changes it: 1, 2, 5, 6 and 7 by
 * test/e2e/specs/n8nCompat.test.ts on the e2e n8n (and the compatibility project on each version
 * of the tested range); 3 by bench item 6's profile (the expression's cost) and by the e2e spec
 * (version-1 nodes keep working, and a version-2 node verifies a body of any Content-Type); 4 by
 * this file's integration test against n8n-core's own helper; 8 by this file's integration test and
 * the built-in store's memoryLedger test, on n8n-core's own contexts; 9 to 16 as they say. The trigger's node file writes its
 * versions, webhook and `execute` by 1 to 6.
 *
 * 1. `responseData: ''` on the webhook description makes n8n answer an `onReceived` webhook with
 *    the node's `webhookResponse`. Left undefined, n8n 2.41 answers the literal text
 *    `firstEntryJson` and never reads `webhookResponse`.
 * 2. From n8n 2.8.0, an `onReceived` answer is read (`webhookResponse`) only after n8n has created
 *    the execution and, under a production concurrency limit, after a slot is free
 *    (`shouldDeferOnReceivedResponse` in webhook-helpers). n8n creates the execution from a fresh
 *    workflow object over the same static data, which resets its "changed" flag, and saves static
 *    data right after that read: a static-data write made inside the getter is saved, one made
 *    earlier in `webhook()` is not. n8n 1.x answers before the execution exists.
 * 3. n8n (2.41 `webhook-helpers` parseRequestBody, and 1.x alike) evaluates the expression
 *    `$parameter["options"]["binaryData"]` on every request to a webhook node of version 1; in
 *    n8n 2.41 that is an isolated-VM expression (bench/method.md, item 6). Version 2 of the
 *    trigger is version 1 unchanged, so new nodes skip it; saved
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
 * 5. A webhook node that writes its own answer and returns `noWebhookResponse` with `workflowData`
 *    still gets its execution, on every tested version, and n8n saves the static data written in
 *    `webhook()` right away (the response callback), before it creates the execution.
 * 6. A webhook node with an `execute` method: n8n-core calls `execute` as the first step of the
 *    node's own execution, with the webhook's items as its input (`runNode`: `execute` before the
 *    webhook pass-through), after the concurrency queue, on the worker in queue mode, and for
 *    executions n8n runs again after a restart. The editor still listens for a test event on
 *    Execute step; pinned data replaces the node's output without calling it.
 * 7. n8n 1.x and 2.34+ run queued (`new`) executions again after a restart; 2.0–2.33 never do
 *    (n8n PR #35059). The version is read from n8n's own package.json beside the `bin/n8n` that
 *    started the process, else from the n8n-core it resolves (n8n puts its modules on NODE_PATH;
 *    the package does not ship n8n-core, and its major.minor is n8n's on 2.x).
 * 8. n8n-core's webhook and execute contexts keep the workflow they run in as `workflow`, whose
 *    `nodes` are the workflow's nodes by name (the published version's, for a production
 *    webhook). n8n-workflow's types offer no list of a workflow's nodes; the built-in dedupe store
 *    reads their ids to drop the saved ids of trigger nodes that are gone. Where the property is
 *    missing, nothing is dropped.
 * 9. Which steps see the workflow's static data: `webhook()` always sees the row's, loaded for each
 *    request. An execution's first step sees the copy loaded when the execution was created in
 *    regular mode, and none at all when n8n runs the execution again after a restart, on a Retry
 *    from the executions list, or as a queue-mode worker's job (the execution row's workflow
 *    snapshot keeps none; 2.41 `toWorkflowSnapshot`, 1.123 and 2.8 alike). Activation hooks see the
 *    row's, but run after n8n starts the queued executions again (not awaited before them). The
 *    built-in store relies on `webhook()`'s alone and reads an execution's copy as a union, never
 *    writing it; an execution n8n runs again after a restart first makes n8n run the webhook (a
 *    probe, 14.) so the row's is read before it decides: pinned by the crash specs
 *    (test/e2e/specs/concurrencyLimit.test.ts, and the compatibility project on 1.123.81 and
 *    2.8.4: replays of events done before the crash do no work after the waiting executions ran
 *    again; review 6's N1 order) and by the queue spec (a worker's execution).
 * 10. The items `webhook()` returns reach its execution's first step unchanged, on the process that
 *    accepted, on a queue-mode worker, after a restart, and again on a Retry of a failed first step
 *    (n8n keeps the step's input in the execution's run data). The acceptance (its token, the
 *    accepting process and time) rides there, so a start knows its own earlier write: pinned by
 *    the crash spec (executions run again after a restart start their events once), the queue spec
 *    (a worker tells that another process accepted: its probe of the item's URL is answered by
 *    another process) and the e2e spec of this file (a Retry).
 * 11. A Test-URL delivery that starts an execution ends the listening session (n8n deregisters the
 *    test webhook after the first delivery with `workflowData`); one that starts none leaves the
 *    editor listening and shows nothing. An error thrown by the execution's first step shows in the
 *    editor with its message and description. So a Test-URL delivery that does no work starts an
 *    execution that fails saying why (trigger/testUrl.ts), and Test-URL events need no dedupe:
 *    pinned by the editor's browser spec (test/e2e/specs/editor.test.ts: a refused delivery is
 *    shown, the same sample runs in two listening sessions).
 * 12. `checkExists` runs when the editor starts listening on the Test URL and when the workflow is
 *    published (2.41 retries a failing one, then reports it); n8n shows only the error's message,
 *    not its description, so the trigger's activation errors carry the remedy in the message.
 *    `getActivationMode()` says why it runs: 'manual' when listening, 'init' when n8n starts
 *    with the workflow published, 'activate' or 'update' when a user publishes; the Production
 *    URL (`getNodeWebhookUrl`) is built from WEBHOOK_URL, or n8n's own host where it is unset, so
 *    only a publish fails for a URL the service cannot reach (trigger/reachability.ts): pinned
 *    by the trigger's integration test and the trigger spec (a loopback WEBHOOK_URL).
 *    A credential slot is labelled with its `displayName`, and one hidden by its `displayOptions`
 *    is not read at run time (versions 1 and 2 keep the Redis slot shown). Pinned by the
 *    trigger's integration test (the hooks on n8n-core's HookContext) and the editor's spec (the
 *    slot labels; version 3 with the built-in store shows no Redis slot).
 * 13. A node parameter in which no string starts with `=` is no expression: `getNodeParameter`
 *    returns it as saved in the node (n8n-workflow's `nodeParametersAreStatic` and its webhook
 *    description fields skip the engine by the same rule). Resolving costs every call an
 *    additional-keys object (a resume URL, `URLSearchParams`) and a walk of the value, so the
 *    trigger reads a static parameter from its one copy of the node and asks n8n only for one that
 *    holds an expression. Pinned by the trigger's integration tests on n8n-core's own contexts:
 *    every option read both ways agrees, and an option set by an expression is honoured.
 * 14. What tells a webhook node that n8n saved the static data its `webhook()` wrote: nothing n8n
 *    calls or sets. n8n saves it in the response callback (5.) without awaiting it before it
 *    creates the execution, and the Workflow it builds for the execution over the same object
 *    resets the "changed" flag at once (`establishContextForPersistence`, 2.41), so the flag says
 *    nothing. What does: every production request loads the workflow's static data from the
 *    database before the node runs (live-webhooks `loadWebhookExecutionData`, 1.123, 2.8 and 2.41
 *    alike), so what a later request's copy holds was saved; and an execution that starts has its
 *    row. The built-in store answers an accepted delivery 2xx on either; where neither comes, the
 *    trigger makes such a request itself (a probe of its own Production URL), and with no proof
 *    within `settings.acceptanceSaveWithinMs` answers 503 (dedupe/memory/unsavedAcceptances.ts).
 *    Whichever process serves the Production URL runs the probe's webhook, so an execution whose
 *    probe is answered while its own process's store read nothing runs on a process that
 *    receives no deliveries (a queue-mode worker). Pinned by the crash spec (a SIGKILL inside a
 *    burst: test/e2e/specs/concurrencyLimit.test.ts, and the compatibility project on 1.123.81
 *    and 2.8.4) and the queue spec (a worker, on the host's clock and 2 min ahead).
 * 15. The editors of n8n 1.x and 2.0–2.33 take a node parameter that a credential slot's
 *    `displayOptions.show` names as the node's authentication field when each of its option values
 *    is named there (a boolean, having none, always is), and then leave that parameter out of the
 *    node's panel; 2.41 takes only a parameter with options. So no slot `show`s on such a field:
 *    the API slot is hidden while Refetch Latest State is off instead. n8n 2.x's publish check
 *    (`validateNodeCredentials`) reads the node's parameters as saved, where a default is left
 *    out, so it is hidden for a missing value too (`undefined`; the editor, which gets the
 *    description as JSON, reads it as `null` and resolves defaults first). Pinned by the trigger's description
 *    test (n8n 2.8's rule over both nodes; n8n's own check on a saved node) and the compatibility
 *    project's browser check (the toggle is shown, and turning it on shows the slot).
 * 16. A node type made of versions (`VersionedNodeType`) gives each version its own description:
 *    n8n's loader and NodeTypes resolve a saved node by its `typeVersion` (`getNodeType`), the
 *    editor draws a node from its version's description, and n8n-core reads a credential through
 *    the first slot of that name in it, refusing it where that slot is hidden. So version 3 can
 *    require the Redis slot where Dedupe Store is Redis while versions 1 and 2, which have no such
 *    parameter, keep it optional; one description would need two slots of one name, and every
 *    editor draws both. n8n's Credential Test finds a versioned type's Tests through its versions
 *    only where the package shares n8n's n8n-workflow (`instanceof`), so the type carries its
 *    slots and Tests itself too. Pinned by the trigger's description test (each version's slots
 *    through n8n's own publish check), its integration test (the Tests on every version and the
 *    type) and the editor spec (the slot is required where Redis is chosen).
 */
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeParameters,
	IN8nHttpFullResponse,
	IWebhookResponseData,
} from 'n8n-workflow';

/** The answer to an accepted delivery: what the service gets. */
export const ACCEPTED = { status: 202, body: { received: true } } as const;

/** What a webhook node returns when it answers the request itself (5. above). */
export function answeredByNode(item?: IDataObject): IWebhookResponseData {
	return item
		? { noWebhookResponse: true, workflowData: [[{ json: item }]] }
		: { noWebhookResponse: true };
}

/**
 * Writes `body` as JSON with `status`, unless the request is answered or gone already (an answer
 * written after webhook() returned, when the sender may have given up).
 */
export function writeAnswer(
	response: {
		writableEnded?: boolean;
		destroyed?: boolean;
		writeHead(code: number, headers: Record<string, string>): { end(body: string): unknown };
	},
	status: number,
	body: IDataObject,
): void {
	if (response.writableEnded === true || response.destroyed === true) return;
	// Written as it goes out: Express's json() would type, hash (ETag) and re-encode the same
	// bytes on every delivery.
	const text = JSON.stringify(body);
	response
		.writeHead(status, {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Length': String(Buffer.byteLength(text)),
		})
		.end(text);
}

/**
 * Starts the workflow with `item`; n8n answers 200 `{received: true}` once the execution exists,
 * and `onRead` runs then, its static-data writes saved with that answer (2. above).
 */
export function answerOnceExecutionExists(
	item: IDataObject,
	onRead: () => void,
): IWebhookResponseData {
	const response: IWebhookResponseData = { workflowData: [[{ json: item }]] };
	Object.defineProperty(response, 'webhookResponse', {
		enumerable: true,
		get() {
			onRead();
			return { received: true };
		},
	});
	return response;
}

/**
 * A parameter as saved in the node, when nothing in it is an expression (13. above): the value
 * n8n's `getNodeParameter` would return, without the per-call cost of resolving it; `fallback`
 * where it is not set. Undefined when it holds an expression: the caller asks n8n.
 */
export function staticParameter<T>(
	parameters: INodeParameters,
	name: string,
	fallback: T,
): T | undefined {
	const saved = parameters[name];
	if (saved === undefined) return fallback;
	return holdsExpression(saved) ? undefined : (saved as T);
}

/** n8n's rule: a string that starts with `=` is an expression, anywhere inside the value. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(holdsExpression);
	return false;
}

let version: Promise<string | undefined> | undefined;

/**
 * The version in n8n's own package.json, beside the `n8n` binary that started this process
 * (`<n8n>/bin/n8n`: `n8n start`, `n8n worker`, `n8n webhook`, the Docker image, npx).
 */
async function n8nPackageVersion(): Promise<unknown> {
	const main = require.main?.filename ?? '';
	const root = main.replace(/[\\/]bin[\\/]n8n(\.js)?$/, '');
	if (root === main) throw new Error('not started by n8n’s bin/n8n');
	return await import(`${root}/package.json`);
}

/**
 * n8n's version (7. above): its own package.json, else the n8n-core it runs on (found through the
 * module paths n8n adds; its major.minor is n8n's on 2.x); undefined when neither can be read.
 */
export async function n8nVersion(
	...loads: Array<() => Promise<unknown>>
): Promise<string | undefined> {
	const tries = loads.length
		? loads
		: [n8nPackageVersion, async () => await import('n8n-core/package.json')];
	return await (version ??= (async () => {
		for (const load of tries) {
			const read = (await load().catch(() => undefined)) as
				| { version?: unknown; default?: { version?: unknown } }
				| undefined;
			const value = read?.version ?? read?.default?.version;
			if (typeof value === 'string') return value;
		}
		return undefined;
	})());
}

/** Forgets the version read (tests). */
export function forgetN8nVersion(): void {
	version = undefined;
}

/** The ids of the nodes of the workflow `context` runs in (8. above); undefined if unknown. */
export function workflowNodeIds(context: object): string[] | undefined {
	const nodes = (context as { workflow?: { nodes?: unknown } }).workflow?.nodes;
	if (typeof nodes !== 'object' || nodes === null) return undefined;
	const ids = Object.values(nodes).map((node) => (node as { id?: unknown } | null)?.id);
	return ids.every((id) => typeof id === 'string') ? (ids as string[]) : undefined;
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
