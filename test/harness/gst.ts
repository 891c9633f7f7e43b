/* eslint-disable @typescript-eslint/no-explicit-any -- workflow JSON for n8n's REST API, untyped here; each spec asserts on the fields it reads */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * GST-specific helpers for the e2e specs and the demo: credential data from an emulator, workflow
 * builders, signed deliveries, and loading the example templates (with external services swapped
 * for n8n's own file nodes in the test copy).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { EVENT_TYPES, type ClientInfo, type RunningEmulator } from '../emulator/types';
import { request, HttpResponse } from './http';
import { N8n, NODE_TYPES, REPO_ROOT, WorkflowJson } from './n8n';

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
export const CRED = {
	api: 'gstComplianceApi',
	webhook: 'gstComplianceWebhookApi',
	redis: 'gstComplianceRedisApi',
} as const;
export const EVENT_TYPES_ALL: string[] = [...EVENT_TYPES];

/** Data of a "GST Compliance API" credential for an emulator client. */
export function apiCredentialData(
	emu: Pick<RunningEmulator, 'authUrl' | 'realm' | 'productionUrl' | 'sandboxUrl'>,
	client: Pick<ClientInfo, 'clientId' | 'clientSecret' | 'environment'>,
	overrides: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		environment: client.environment,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		authUrl: emu.authUrl,
		realm: emu.realm,
		productionApiUrl: emu.productionUrl,
		sandboxApiUrl: emu.sandboxUrl,
		...overrides,
	};
}

export function uuid(): string {
	return crypto.randomUUID();
}

let nodeSeq = 0;
function nodeId(): string {
	nodeSeq += 1;
	return `${uuid().slice(0, 8)}-${nodeSeq}`;
}

/** A GST Compliance Trigger node. Its production URL is `/webhook/<webhookId>/webhook`. */
export function triggerNode(opts: {
	name?: string;
	events: string[];
	webhookCredential: { id: string; name: string };
	apiCredential?: { id: string; name: string };
	refetch?: boolean;
	options?: Record<string, unknown>;
	webhookId?: string;
	position?: [number, number];
	/** 2 (the version the editor adds) unless a spec pins a saved version-1 node. */
	typeVersion?: number;
}): Record<string, any> {
	const credentials: Record<string, unknown> = { [CRED.webhook]: opts.webhookCredential };
	if (opts.apiCredential) credentials[CRED.api] = opts.apiCredential;
	return {
		id: nodeId(),
		name: opts.name ?? 'GST Compliance Trigger',
		type: NODE_TYPES.trigger,
		typeVersion: opts.typeVersion ?? 2,
		position: opts.position ?? [0, 0],
		webhookId: opts.webhookId ?? uuid(),
		parameters: {
			events: opts.events,
			refetch: opts.refetch ?? false,
			options: opts.options ?? {},
		},
		credentials,
	};
}

/** Production webhook URL of a trigger node in n8n. */
export function triggerUrl(n8n: N8n, node: { webhookId?: string }): string {
	return n8n.webhookUrl(`${node.webhookId}/webhook`);
}

export function actionNode(opts: {
	name?: string;
	resource: 'einvoice' | 'ewaybill';
	id: string;
	apiCredential: { id: string; name: string };
	options?: Record<string, unknown>;
	position?: [number, number];
}): Record<string, any> {
	const idParam = opts.resource === 'einvoice' ? 'einvoiceId' : 'ewaybillId';
	return {
		id: nodeId(),
		name: opts.name ?? 'GST Compliance',
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: opts.position ?? [220, 0],
		parameters: {
			resource: opts.resource,
			operation: 'get',
			[idParam]: opts.id,
			options: opts.options ?? {},
		},
		credentials: { [CRED.api]: opts.apiCredential },
	};
}

/** n8n's HTTP Request node using the GST Compliance API credential ("Predefined credential type"). */
export function httpRequestNode(opts: {
	url: string;
	apiCredential: { id: string; name: string };
	options?: Record<string, unknown>;
}): Record<string, any> {
	return {
		id: nodeId(),
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		// 4.2: the HTTP Request node versions whose own default sends credentials across origins.
		typeVersion: 4.2,
		position: [220, 0],
		parameters: {
			method: 'GET',
			url: opts.url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CRED.api,
			options: opts.options ?? {},
		},
		credentials: { [CRED.api]: opts.apiCredential },
	};
}

/** A built-in Webhook node that answers with the last node's output (to run action workflows). */
/**
 * n8n's Webhook node on `pathName`: answering with the last node's items, or (`onReceived`, the
 * editor's "Respond: Immediately") at once.
 */
export function webhookNode(
	pathName: string,
	name = 'Webhook',
	respond: 'lastNode' | 'onReceived' = 'lastNode',
): Record<string, any> {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: uuid(),
		parameters: {
			httpMethod: 'POST',
			path: pathName,
			responseMode: respond,
			...(respond === 'lastNode' ? { responseData: 'allEntries' } : {}),
			options: {},
		},
	};
}

export function chain(...names: string[]): Record<string, any> {
	const c: Record<string, any> = {};
	for (let i = 0; i + 1 < names.length; i++) {
		c[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return c;
}

/** The `Service-Signature` header the service sends for `body` (one `v1`). */
export function signatureHeader(
	secret: string,
	body: string,
	t = Math.floor(Date.now() / 1000),
): string {
	const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
	return `t=${t},v1=${v1}`;
}

/** POSTs an envelope to a trigger URL, signed with `secret` (or with a given header). */
export async function deliver(
	url: string,
	envelope: Record<string, unknown> | string,
	secret: string,
	header?: string,
	opts: { timeoutMs?: number } = {},
): Promise<HttpResponse> {
	const body = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
	return await request(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'service-signature': header ?? signatureHeader(secret, body),
		},
		body,
		timeoutMs: opts.timeoutMs,
	});
}

export function envelope(
	type: string,
	data: Record<string, unknown>,
	id = `evt_e2e_${uuid().replace(/-/g, '')}`,
) {
	return { id, type, createdAt: new Date().toISOString(), data };
}

// ------------------------------------------------------------------ templates

/**
 * The columns of the data table examples/status-data-table-upsert.json writes, all of type String,
 * as examples/README.md tells a user to create them.
 */
export const STATUS_TABLE_COLUMNS = [
	'resourceId',
	'type',
	'status',
	'eventCreatedAt',
	'irn',
	'ackNumber',
	'invoiceNumber',
	'sellerGstin',
];

export interface TemplateFile {
	file: string;
	workflow: WorkflowJson;
}

export function loadTemplate(file: string): WorkflowJson {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

/**
 * Points a template's credentials at real credential ids (templates ship with placeholders that
 * n8n asks the user to replace on import) and gives webhook nodes fresh webhook ids.
 */
export function bindCredentials(
	wf: WorkflowJson,
	creds: Partial<Record<string, { id: string; name: string }>>,
): WorkflowJson {
	const copy: WorkflowJson = JSON.parse(JSON.stringify(wf));
	for (const node of copy.nodes) {
		if (node.webhookId) node.webhookId = uuid();
		if (!node.credentials) continue;
		for (const type of Object.keys(node.credentials)) {
			const c = creds[type];
			if (c) node.credentials[type] = c;
			else delete node.credentials[type];
		}
	}
	return copy;
}

/**
 * Replaces an external-service node (Slack, e-mail, Google Sheets) by n8n's own nodes: a Set node
 * that renders `fields` (expressions of the original node's parameters), a Set node that joins them
 * into one quoted CSV line, Convert to File (text) and Read/Write Files from Disk appending the
 * line to `filePath`. Incoming and outgoing connections of the replaced node are kept.
 */
export function swapForFileWrite(
	wf: WorkflowJson,
	nodeName: string,
	filePath: string,
	fields: Record<string, string>,
): WorkflowJson {
	const copy: WorkflowJson = JSON.parse(JSON.stringify(wf));
	const idx = copy.nodes.findIndex((n) => n.name === nodeName);
	if (idx < 0) throw new Error(`template has no node "${nodeName}"`);
	const original = copy.nodes[idx];
	const [x, y] = original.position as [number, number];
	const setName = `${nodeName} (file copy)`;
	const lineName = `${nodeName} → CSV line`;
	const textName = `${nodeName} → text file`;
	const writeName = `${nodeName} → append to ${path.basename(filePath)}`;
	const cells = Object.keys(fields)
		.map((k) => `$json[${JSON.stringify(k)}]`)
		.join(', ');
	const setNode = (name: string, pos: [number, number], assignments: Record<string, string>) => ({
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: pos,
		parameters: {
			mode: 'manual',
			includeOtherFields: false,
			assignments: {
				assignments: Object.entries(assignments).map(([n, value]) => ({
					id: uuid(),
					name: n,
					value,
					type: 'string',
				})),
			},
			options: {},
		},
	});
	copy.nodes.splice(
		idx,
		1,
		setNode(setName, [x, y], fields),
		setNode(lineName, [x + 160, y], {
			line: `={{ [${cells}].map(v => '"' + String(v ?? '').replaceAll('"', '""') + '"').join(',') + '\\n' }}`,
		}),
		{
			id: nodeId(),
			name: textName,
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [x + 320, y],
			parameters: {
				operation: 'toText',
				sourceProperty: 'line',
				binaryPropertyName: 'data',
				options: {},
			},
		},
		{
			id: nodeId(),
			name: writeName,
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			position: [x + 480, y],
			parameters: {
				operation: 'write',
				fileName: filePath,
				dataPropertyName: 'data',
				options: { append: true },
			},
		},
	);
	const conns = copy.connections ?? {};
	for (const from of Object.keys(conns)) {
		for (const outputs of Object.values(conns[from]) as Array<Array<Array<{ node: string }>>>) {
			for (const output of outputs)
				for (const link of output ?? []) if (link.node === nodeName) link.node = setName;
		}
	}
	if (conns[nodeName]) {
		conns[writeName] = conns[nodeName];
		delete conns[nodeName];
	}
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	Object.assign(conns, {
		[setName]: link(lineName),
		[lineName]: link(textName),
		[textName]: link(writeName),
	});
	copy.connections = conns;
	return copy;
}

/** Reads a CSV written by the swapped nodes: rows of cells (simple quoted-CSV parser). */
export function readCsv(filePath: string): string[][] {
	if (!fs.existsSync(filePath)) return [];
	const text = fs.readFileSync(filePath, 'utf8');
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (quoted) {
			if (ch === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (ch === '"') quoted = false;
			else cell += ch;
		} else if (ch === '"') quoted = true;
		else if (ch === ',') {
			row.push(cell);
			cell = '';
		} else if (ch === '\n' || ch === '\r') {
			if (ch === '\r' && text[i + 1] === '\n') i++;
			row.push(cell);
			if (row.some((c) => c !== '')) rows.push(row);
			row = [];
			cell = '';
		} else cell += ch;
	}
	if (cell !== '' || row.length) {
		row.push(cell);
		rows.push(row);
	}
	return rows;
}

/** Creates both credentials for an emulator client and a webhook signing secret. */
export async function createGstCredentials(
	n8n: N8n,
	emu: RunningEmulator,
	client: ClientInfo,
	signingSecret: string,
): Promise<{ api: { id: string; name: string }; webhook: { id: string; name: string } }> {
	const api = await n8n.createCredential(
		`GST API (${client.environment})`,
		CRED.api,
		apiCredentialData(emu, client),
	);
	const webhook = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret,
		previousSigningSecret: '',
	});
	return { api, webhook };
}
