/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- fixed secrets of the tests, not credentials; test code: runs in Node under jest, never inside n8n */
/**
 * One delivery to the trigger the way n8n 2.41 handles a production (or test) webhook call:
 * live-webhooks.js loads the workflow with its saved static data, WebhookService.runWebhook calls
 * the node's webhook() in n8n-core's WebhookContext, webhook-helpers.js answers (the node's own
 * answer, after which the response callback saves static data if it changed; or `webhookResponse`
 * read after WorkflowRunner.run has created the execution from a second Workflow over the same
 * static-data object, then the save), and the execution's first step runs the node's execute() in
 * n8n-core's ExecuteContext, over static data n8n loaded for it from the row, with the webhook's
 * items as input. Contexts, parameters, credentials access and static data are n8n-core's and
 * n8n-workflow's own; the HTTP server part of packages/cli is replayed here step by step.
 */
import { ExecuteContext, HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { dedupeRegistry } from '../../../nodes/GstCompliance/trigger/dedupe/memory/registry';
import { formatSignatureHeader, sign } from '../../../nodes/GstCompliance/trigger/signature';
import { additionalData, NODE_TYPE, nodeTypes, TestCredentialsHelper } from './n8nHost';

export const SECRET = 'whsec_current_0123456789abcdefghij';
export const PREVIOUS_SECRET = 'whsec_previous_0123456789abcdefghij';
/** A fixed "now" for the node (Date.now is stubbed): no test depends on the wall clock. */
export const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0);
export const NOW_S = Math.floor(NOW_MS / 1000);
export const TRIGGER_NAME = 'GST Compliance Trigger';

type ExpressRequest = NonNullable<IWorkflowExecuteAdditionalData['httpRequest']>;
type ExpressResponse = NonNullable<IWorkflowExecuteAdditionalData['httpResponse']>;

/** The workflow's database row, as far as a delivery reads and writes it. */
export interface WorkflowRow {
	id: string;
	nodeId: string;
	/** The trigger node's name (default TRIGGER_NAME); change it to rename the node. */
	nodeName?: string;
	/** The staticData column: loaded before each delivery, replaced when n8n saves it. */
	staticData: IDataObject;
	/**
	 * The workflow's other GST trigger nodes (a delivery's `node` names one of them); the row's own
	 * trigger is always in the workflow. Remove one to delete it from the workflow.
	 */
	triggers?: Array<{ id: string; name: string }>;
}

export interface DeliveryRequest {
	body: Buffer | string;
	headers?: Record<string, string | string[] | undefined>;
	/**
	 * n8n left the body unread (version 2, a content type n8n does not parse): no `rawBody`, and
	 * n8n's `readRawBody` reads it, or fails with this error (e.g. raw-body's 413 above n8n's
	 * payload limit, or a client that aborted).
	 */
	unreadBody?: true | Error;
	mode?: 'webhook' | 'manual';
	/** The trigger node's version (default 1, as saved by the first release). */
	typeVersion?: number;
	/** The node's Dedupe Store parameter (version 3). */
	dedupeStore?: 'builtIn' | 'redis';
	/** The webhook credential's data; null: the node has no webhook credential selected. */
	credentials?: IDataObject | null;
	events?: string[];
	options?: IDataObject;
	refetch?: boolean;
	/** The GST Compliance API credential's data, for Refetch Latest State over real HTTP. */
	apiCredential?: ICredentialDataDecryptedObject;
	workflow?: WorkflowRow;
	/** A GST Compliance Dedupe Redis credential selected on the node, with this data. */
	redis?: IDataObject;
	/**
	 * Names the saved credentials the node selects: deliveries naming the same set share the
	 * trigger's few-seconds credential cache. Default: a set of its own per delivery, as if its
	 * credentials had just been saved, so a test that changes the credential data sees it at once.
	 */
	credentialSet?: string;
	/** Counts the credential reads (n8n's database reads) of this delivery by type. */
	reads?: Record<string, number>;
	/**
	 * n8n fails to create the execution (a database error, a crash): `webhookResponse` is never
	 * read, n8n answers 500 and saves nothing.
	 */
	executionFails?: boolean;
	/** Another trigger node of the same workflow (same static data), instead of the row's own. */
	node?: { id: string; name: string };
	/**
	 * Runs after webhook() returned and before n8n reads the answer and saves static data: a
	 * delivery that overlaps this one (n8n's concurrency queue, a slow database) runs here.
	 */
	beforeAnswer?: () => Promise<unknown>;
	/**
	 * n8n's save of the static data this request changed fails (a database error: n8n logs it and
	 * leaves the workflow's "changed" flag set) or never lands (the process is killed first): the
	 * row keeps what it had. The result's `answer` is then whatever the node wrote by itself.
	 */
	saveFails?: boolean;
	/**
	 * n8n's base of Production URLs (WEBHOOK_URL): where the trigger sends requests to its own URL
	 * (trigger/ownUrl.ts). Default: the harness's, where each request is a delivery to the same
	 * trigger and workflow, its execution left for later.
	 */
	webhookBaseUrl?: string;
	/**
	 * When the execution n8n created runs its first step: `now` (default; the harness's n8n has a
	 * free slot), or `later`: the result's `execution` runs it when the test says (a concurrency
	 * queue, a restart), never if the test never does.
	 */
	execution?: 'now' | 'later';
}

export interface ExecutionRun {
	/** The items the trigger's first step outputs: what the workflow goes on with. */
	items: IDataObject[];
	/** Hints the step added (n8n shows them on the node's output). */
	hints: string[];
}

export interface DeliveryResult {
	status: number;
	body: unknown;
	/**
	 * The 2xx the node had answered when n8n began saving the static data this request changed
	 * (right after webhook() returned): the sender counts the event delivered, and it is lost with
	 * the acceptance if n8n dies before the save lands. Undefined when no 2xx had gone out yet.
	 */
	acknowledgedBeforeSave?: { status: number; body: unknown };
	/**
	 * Items the workflow goes on with (the execution's first step); undefined when no execution
	 * was created or it has not run (`execution: 'later'`); [] when it ended without items.
	 */
	started: IDataObject[] | undefined;
	/**
	 * Runs the first step of the execution n8n created for this delivery (again, for one n8n runs
	 * again after a restart); undefined when n8n created none. `withoutStaticData`: as n8n runs a
	 * queued execution after a restart, a Retry from the executions list or a queue-mode worker's
	 * job, from the execution row's workflow snapshot, which holds no static data.
	 */
	execution?: (how?: { withoutStaticData?: boolean }) => Promise<ExecutionRun>;
}

export function newWorkflow(id = 'wf1'): WorkflowRow {
	return { id, nodeId: 'node-1', staticData: {} };
}

export const envelope = (overrides: Record<string, unknown> = {}) => ({
	id: 'evt_0001',
	type: 'einvoice.generated',
	createdAt: '2025-01-15T04:29:59Z',
	data: { id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
	...overrides,
});

/** A correctly signed request for `body` at `t` (default: now). */
export function signed(body: string | Buffer, t: number = NOW_S, secret = SECRET): DeliveryRequest {
	return {
		body,
		headers: { 'service-signature': formatSignatureHeader(t, [sign(secret, t, body)]) },
	};
}

/**
 * Fake: Express builds the request and response in n8n's web server, not n8n-core. The request
 * carries what n8n's body parser leaves on it (rawBody, parsed body); the response records the
 * status and JSON a node sends directly.
 */
function expressPair(
	rawBody: Buffer,
	headers: DeliveryRequest['headers'],
	unreadBody?: DeliveryRequest['unreadBody'],
) {
	let body: unknown = {};
	try {
		if (!unreadBody) body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		// Not JSON: the request keeps an empty parsed body.
	}
	const request = {
		rawBody: unreadBody ? undefined : rawBody,
		body,
		headers: headers ?? {},
		params: {},
		query: {},
		readRawBody: async () => {
			if (unreadBody instanceof Error) throw unreadBody;
			request.rawBody = rawBody;
		},
	};
	const sent = {
		status: 200,
		body: undefined as unknown,
		headers: undefined as Record<string, string> | undefined,
	};
	let ended!: () => void;
	const answered = new Promise<void>((resolve) => (ended = resolve));
	const response = {
		writableEnded: false,
		status(code: number) {
			sent.status = code;
			return response;
		},
		json(data: unknown) {
			sent.body = data;
			response.writableEnded = true;
			ended();
			return response;
		},
		writeHead(code: number, headers: Record<string, string>) {
			sent.status = code;
			sent.headers = headers;
			return response;
		},
		end(text?: string) {
			sent.body = text === undefined ? undefined : JSON.parse(text);
			response.writableEnded = true;
			ended();
			return response;
		},
	};
	return {
		request: request as unknown as ExpressRequest,
		response: response as unknown as ExpressResponse,
		sent,
		answered,
	};
}

/** webhook-on-received-response-extractor.js in n8n 2.41. */
function onReceivedBody(responseData: unknown, result: IWebhookResponseData): unknown {
	if (responseData === 'noData') return undefined;
	if (responseData) return responseData;
	if (result.webhookResponse !== undefined) return result.webhookResponse;
	return { message: 'Workflow was started' };
}

/** Numbers the credential sets of deliveries that name none (see `credentialSet`). */
let credentialSets = 0;

/** The trigger node as saved in the workflow, with its credentials selected. */
function triggerNode(row: WorkflowRow, delivery: Omit<DeliveryRequest, 'body'>): INode {
	const refetch = delivery.refetch ?? false;
	const set = delivery.credentialSet ?? `delivery-${++credentialSets}`;
	return {
		id: delivery.node?.id ?? row.nodeId,
		name: delivery.node?.name ?? row.nodeName ?? TRIGGER_NAME,
		type: NODE_TYPE.trigger,
		typeVersion: delivery.typeVersion ?? 1,
		position: [0, 0],
		webhookId: `${row.id}-webhook`,
		parameters: {
			events: delivery.events ?? ['*'],
			options: (delivery.options ?? {}) as INodeParameters,
			refetch,
			...(delivery.dedupeStore ? { dedupeStore: delivery.dedupeStore } : {}),
		},
		credentials: {
			...(delivery.credentials === null
				? {}
				: { gstComplianceWebhookApi: { id: `webhook-${set}`, name: 'GST webhook' } }),
			...(refetch ? { gstComplianceApi: { id: `api-${set}`, name: 'GST API' } } : {}),
			...(delivery.redis ? { gstComplianceRedisApi: { id: `redis-${set}`, name: 'Redis' } } : {}),
		},
	};
}

/** The workflow's nodes: the one delivered to, the row's own trigger and its other triggers. */
function workflowNodes(row: WorkflowRow, node: INode): INode[] {
	const own = { id: row.nodeId, name: row.nodeName ?? TRIGGER_NAME };
	const others = [own, ...(row.triggers ?? [])].filter(
		(other) => other.id !== node.id && other.name !== node.name,
	);
	return [
		node,
		...others.map((other) => ({ ...node, ...other, webhookId: `${other.id}-webhook` })),
	];
}

/** The trigger's description and methods for the version a saved node names, as n8n resolves them. */
const nodeType = (typeVersion: number) =>
	nodeTypes.getByNameAndVersion(NODE_TYPE.trigger, typeVersion);
const description = nodeType(1).description.webhooks![0] as IWebhookDescription;

function webhookDataOf(
	row: WorkflowRow,
	node: INode,
	hostData: IWorkflowExecuteAdditionalData,
): IWebhookData {
	return {
		httpMethod: 'POST',
		node: node.name,
		path: `${node.webhookId}/${description.path as string}`,
		webhookDescription: description,
		workflowId: row.id,
		workflowExecuteAdditionalData: hostData,
		webhookId: node.webhookId,
	};
}

/** n8n-core's HookContext, as WebhookService builds it for checkExists / create / delete. */
export function hookContext(
	activation: WorkflowActivateMode,
	webhookCredential: IDataObject = { signingSecret: SECRET },
	saved: Pick<DeliveryRequest, 'typeVersion' | 'dedupeStore' | 'options'> = {},
	/** n8n's webhook base URL (WEBHOOK_URL); a public one unless a test says otherwise. */
	webhookBaseUrl = 'https://n8n.example.com/webhook',
): HookContext {
	const row = newWorkflow();
	const node = triggerNode(row, saved);
	const workflow = new Workflow({
		id: row.id,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
	});
	const hostData = additionalData(
		new TestCredentialsHelper({
			gstComplianceWebhookApi: webhookCredential as ICredentialDataDecryptedObject,
		}),
		{ webhookBaseUrl },
	);
	return new HookContext(
		workflow,
		node,
		hostData,
		'trigger',
		activation,
		webhookDataOf(row, node, hostData),
	);
}

/**
 * The harness's n8n Production URLs: a request to `<base>/<webhook id>/webhook` is delivered, as
 * n8n would, to the trigger that webhook id belongs to, with the settings of its latest delivery.
 */
const productionUrls = {
	base: undefined as Promise<string> | undefined,
	triggers: new Map<string, DeliveryRequest & { workflow: WorkflowRow }>(),
};

function productionBaseUrl(): Promise<string> {
	return (productionUrls.base ??= new Promise<string>((resolve) => {
		const server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const trigger = [...productionUrls.triggers].find(([id]) => req.url?.includes(id))?.[1];
				if (!trigger) return void res.writeHead(404).end();
				void deliver({
					...trigger,
					body: Buffer.concat(chunks),
					headers: req.headers,
					execution: 'later',
				}).then(
					(result) => {
						res.writeHead(result.status, { 'content-type': 'application/json' });
						res.end(result.body === undefined ? undefined : JSON.stringify(result.body));
					},
					() => res.writeHead(500).end(),
				);
			});
		});
		server.unref();
		server.listen(0, '127.0.0.1', () =>
			resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`),
		);
	}));
}

export async function deliver(delivery: DeliveryRequest): Promise<DeliveryResult> {
	const row = delivery.workflow ?? newWorkflow();
	const mode: WorkflowExecuteMode = delivery.mode ?? 'webhook';
	const webhookCredential =
		delivery.credentials === undefined
			? { signingSecret: SECRET, previousSigningSecret: '' }
			: delivery.credentials;
	const node = triggerNode(row, delivery);

	// live-webhooks.js: the workflow as loaded from the database for this request.
	const loadedStaticData = JSON.parse(JSON.stringify(row.staticData)) as IDataObject;
	const workflowOf = () =>
		new Workflow({
			id: row.id,
			name: 'Unit test workflow',
			nodes: workflowNodes(row, node),
			connections: {},
			active: true,
			nodeTypes,
			staticData: loadedStaticData,
		});
	const workflow = workflowOf();
	const rawBody = typeof delivery.body === 'string' ? Buffer.from(delivery.body) : delivery.body;
	const { request, response, sent, answered } = expressPair(
		rawBody,
		delivery.headers,
		delivery.unreadBody,
	);
	const credentialsHelper = new TestCredentialsHelper({
		...(webhookCredential === null
			? {}
			: { gstComplianceWebhookApi: webhookCredential as ICredentialDataDecryptedObject }),
		...(delivery.apiCredential ? { gstComplianceApi: delivery.apiCredential } : {}),
		...(delivery.redis
			? { gstComplianceRedisApi: delivery.redis as ICredentialDataDecryptedObject }
			: {}),
	});
	if (!delivery.webhookBaseUrl && node.webhookId)
		productionUrls.triggers.set(node.webhookId, {
			...delivery,
			workflow: row,
			beforeAnswer: undefined,
			saveFails: undefined,
			reads: undefined,
		});
	const hostData = additionalData(credentialsHelper, {
		httpRequest: request,
		httpResponse: response,
		webhookBaseUrl: delivery.webhookBaseUrl ?? (await productionBaseUrl()),
	});
	const webhookData = webhookDataOf(row, node, hostData);

	// webhook.service.js runWebhook()
	const context = new WebhookContext(workflow, node, hostData, mode, webhookData, [], null);
	const result = (await nodeType(node.typeVersion).webhook!.call(context)) as IWebhookResponseData;
	const workflowData = result.workflowData?.[0];
	if (delivery.reads)
		for (const [type, count] of Object.entries(credentialsHelper.readsByType))
			delivery.reads[type] = (delivery.reads[type] ?? 0) + count;

	// webhook-helpers.js executeWebhook(), then live-webhooks.js's response callback:
	// WorkflowStaticDataService.saveStaticData(workflow). Test webhooks (manual mode) never save.
	const staticData = workflow.staticData as IDataObject & { __dataChanged?: boolean };
	const save = () => {
		if (delivery.saveFails) return;
		if (mode === 'webhook' && staticData.__dataChanged === true) {
			row.staticData = JSON.parse(JSON.stringify(staticData)) as IDataObject;
			staticData.__dataChanged = false;
		}
	};
	// The execution: n8n loads static data from the row for it, and its first step is the
	// trigger's execute() with the webhook's items.
	const execution =
		workflowData &&
		(async (how: { withoutStaticData?: boolean } = {}) =>
			await runFirstStep(row, node, mode, workflowData, credentialsHelper, how.withoutStaticData));
	let run: ExecutionRun | undefined;
	let answer: { status: number; body: unknown };
	let acknowledgedBeforeSave: DeliveryResult['acknowledgedBeforeSave'];
	if (result.noWebhookResponse === true) {
		// The node answers itself, at once or once its acceptance shows as saved; the callback
		// saves at once, then n8n creates the execution and, with a free slot, runs it.
		await Promise.resolve();
		if (response.writableEnded && sent.status < 300)
			acknowledgedBeforeSave = { status: sent.status, body: sent.body };
		save();
		await delivery.beforeAnswer?.();
		if (execution && !delivery.executionFails && delivery.execution !== 'later')
			run = await execution();
		await answered;
		answer = { status: sent.status, body: sent.body };
	} else if (result.workflowData === undefined) {
		await delivery.beforeAnswer?.();
		answer = { status: 200, body: result.webhookResponse ?? { message: 'Webhook call received' } };
		save();
	} else {
		await delivery.beforeAnswer?.();
		if (delivery.executionFails) {
			response.status(500).json({ message: 'Error in workflow' });
			return { status: 500, body: { message: 'Error in workflow' }, started: undefined };
		}
		// WorkflowRunner.run(): the execution's Workflow over the same static-data object resets
		// its "changed" flag; the answer is read after it, then saved.
		workflowOf();
		staticData.__dataChanged = false;
		const responseData = description.responseData ?? 'firstEntryJson';
		answer = { status: 200, body: onReceivedBody(responseData, result) };
		save();
	}
	if (!execution || (result.noWebhookResponse === true && delivery.executionFails))
		return { ...answer, acknowledgedBeforeSave, started: undefined };
	if (delivery.execution === 'later')
		return { ...answer, acknowledgedBeforeSave, started: undefined, execution };
	run ??= await execution();
	return { ...answer, acknowledgedBeforeSave, started: run.items, execution };
}

/**
 * The trigger's first step on items of the test's choosing (an execution queued by an earlier
 * version, pinned or foreign items), with a webhook credential selected.
 */
export async function firstStepWith(
	items: IDataObject[],
	row: WorkflowRow = newWorkflow(),
): Promise<ExecutionRun> {
	const node = triggerNode(row, {});
	const credentialsHelper = new TestCredentialsHelper({
		gstComplianceWebhookApi: { signingSecret: SECRET } as ICredentialDataDecryptedObject,
	});
	return await runFirstStep(
		row,
		node,
		'webhook',
		items.map((json) => ({ json })),
		credentialsHelper,
	);
}

/**
 * The execution's first step: n8n-core's ExecuteContext over a Workflow with the static data n8n
 * loads from the row for the execution (none: `withoutStaticData`; saved only if changed, at its
 * end, which the harness refuses), the webhook's items as the node's input.
 */
async function runFirstStep(
	row: WorkflowRow,
	node: INode,
	mode: WorkflowExecuteMode,
	items: INodeExecutionData[],
	credentialsHelper: TestCredentialsHelper,
	withoutStaticData = false,
): Promise<ExecutionRun> {
	const loaded = withoutStaticData
		? {}
		: (JSON.parse(JSON.stringify(row.staticData)) as IDataObject);
	const workflow = new Workflow({
		id: row.id,
		name: 'Unit test workflow',
		nodes: workflowNodes(row, node),
		connections: {},
		active: true,
		nodeTypes,
		staticData: loaded,
	});
	const inputData = { main: [items] };
	const hints: string[] = [];
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData(credentialsHelper),
		mode,
		createRunExecutionData({}),
		0,
		items,
		inputData,
		{ node, data: inputData, source: null },
		[],
	);
	const addHints = context.addExecutionHints.bind(context);
	context.addExecutionHints = (...added) => {
		hints.push(...added.map((hint) => hint.message));
		addHints(...added);
	};
	const output = (await nodeType(node.typeVersion).execute!.call(
		context,
	)) as INodeExecutionData[][];
	const changed = (workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true;
	if (changed) throw new Error('the execution changed static data: n8n would save its old copy');
	return { items: (output[0] ?? []).map((item) => item.json), hints };
}

/**
 * A clock a test file moves: each test starts at NOW_MS in a fresh process (no store remembered),
 * with Date.now stubbed to `clock.now`; `clock.fresh(id)` is an event signed at the current time.
 */
export function movingClock(): { now: number; fresh(id: string): DeliveryRequest } {
	const clock = {
		now: NOW_MS,
		fresh: (id: string) => signed(JSON.stringify(envelope({ id })), Math.floor(clock.now / 1000)),
	};
	beforeEach(() => {
		clock.now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => clock.now);
		dedupeRegistry.clear();
	});
	afterEach(() => jest.restoreAllMocks());
	return clock;
}
