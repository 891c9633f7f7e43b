/**
 * A thin stand-in for n8n's IWebhookFunctions, with just what the trigger touches, and `deliver()`
 * that calls the node's real webhook() and then answers the way n8n 2.41 does
 * (packages/cli webhook-helpers: `handleImmediateWebhookResponse` and the onReceived extractor).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { sign, formatSignatureHeader } from '../../../nodes/GstComplianceTrigger/signature';
import { GstComplianceTrigger } from '../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';

export const SECRET = 'whsec_current_0123456789abcdefghij';
export const PREVIOUS_SECRET = 'whsec_previous_0123456789abcdefghij';
/** A fixed "now" for the node (Date.now is stubbed): no test depends on the wall clock. */
export const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0);
export const NOW_S = Math.floor(NOW_MS / 1000);

export interface FakeWorkflow {
	id: string;
	nodeId: string;
	/** What n8n would hand back from the database as this node's static data. */
	staticData: IDataObject;
}

export interface DeliveryRequest {
	body: Buffer | string;
	headers?: Record<string, string | string[] | undefined>;
	mode?: 'webhook' | 'manual';
	credentials?: IDataObject | null;
	/** A GST Compliance Dedupe Redis credential attached to the node (none by default). */
	redis?: IDataObject;
	/** Credential ids as n8n stores them on the node (enables the credential cache). */
	credentialIds?: boolean;
	/** Counts credential reads by type. */
	reads?: Record<string, number>;
	/** Collects what the node logs, by level. */
	logs?: Array<[string, string]>;
	events?: string[];
	options?: IDataObject;
	refetch?: boolean;
	workflow?: FakeWorkflow;
}

export interface DeliveryResult {
	status: number;
	body: unknown;
	/** Items the workflow would start with; undefined when nothing starts. */
	started: IDataObject[] | undefined;
}

export function newWorkflow(id = 'wf1'): FakeWorkflow {
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

const node = new GstComplianceTrigger();

export async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
	const workflow = request.workflow ?? newWorkflow();
	const response = { statusCode: 0, body: undefined as unknown };
	const parameters: IDataObject = {
		events: request.events ?? ['*'],
		options: request.options ?? {},
		refetch: request.refetch ?? false,
	};
	const credentials =
		request.credentials === undefined
			? { signingSecret: SECRET, previousSigningSecret: '' }
			: request.credentials;
	const rawBody = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;

	const context = {
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getCredentials: async (type: string) => {
			if (request.reads) request.reads[type] = (request.reads[type] ?? 0) + 1;
			if (type === 'gstComplianceRedisApi' && request.redis) return request.redis;
			if (type !== 'gstComplianceWebhookApi' || credentials === null)
				throw new Error(`no ${type} credential`);
			return credentials;
		},
		getRequestObject: () => ({ rawBody, headers: request.headers ?? {} }),
		getResponseObject: () => ({
			status(code: number) {
				response.statusCode = code;
				return this;
			},
			json(body: unknown) {
				response.body = body;
				return this;
			},
		}),
		getHeaderData: () => request.headers ?? {},
		getMode: () => request.mode ?? 'webhook',
		getWorkflow: () => ({ id: workflow.id, active: true }),
		getNode: () => ({
			id: workflow.nodeId,
			name: 'GST Compliance Trigger',
			credentials: {
				gstComplianceWebhookApi: {
					id: request.credentialIds ? `cred-${workflow.id}` : null,
					name: 'webhook',
				},
				...(request.redis
					? { gstComplianceRedisApi: { id: `redis-${workflow.id}`, name: 'Redis' } }
					: {}),
			},
		}),
		getWorkflowStaticData: () => workflow.staticData,
		logger: {
			debug() {},
			info() {},
			warn: (message: string) => request.logs?.push(['warn', message]),
			error: (message: string) => request.logs?.push(['error', message]),
		},
		helpers: {},
	} as unknown as IWebhookFunctions;

	const result: IWebhookResponseData = await node.webhook.call(context);
	const started = result.workflowData?.[0]?.map((item) => item.json);
	if (result.noWebhookResponse)
		return { status: response.statusCode, body: response.body, started };
	return {
		status: 200,
		body: result.webhookResponse ?? { message: 'Workflow was started' },
		started,
	};
}
