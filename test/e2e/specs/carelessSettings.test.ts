/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Careless settings never open a door, inside a real n8n (docs/security.md): a signing secret that
 * breaks the credential's rules is never used to verify, the API token never reaches a proxy of
 * the request over http://, and a Redis URL pasted into the Redis credential's Host never reaches
 * the log.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	apiCredentialData,
	CRED,
	deliver,
	envelope,
	httpRequestNode,
	N8n,
	runOnce,
	signatureHeader,
	startN8n,
	triggerNode,
	triggerUrl,
	uuid,
} from '@/test/harness';

jest.setTimeout(240_000);

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;
const SECRET = `whsec_${uuid().replace(/-/g, '')}`;

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice' });
	n8n = await startN8n({ name: 'careless-settings' });
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

/** A published workflow with one trigger taking every event; returns its URL and id. */
async function publishTrigger(
	webhookCredential: { id: string; name: string },
	extraCredentials: Record<string, { id: string; name: string }> = {},
): Promise<{ url: string; workflowId: string }> {
	const webhookId = uuid();
	const node = triggerNode({ events: ['*'], webhookCredential, webhookId });
	Object.assign(node.credentials, extraCredentials);
	const wf = await n8n.createWorkflow({ name: `careless ${uuid()}`, nodes: [node] });
	await n8n.activateWorkflow(wf.id);
	return { url: triggerUrl(n8n, { webhookId }), workflowId: wf.id };
}

it('a Previous Signing Secret "-" (saved although its Test failed): a delivery signed with "-" → 401, nothing starts', async () => {
	const credential = await n8n.createCredential('GST webhook (careless)', CRED.webhook, {
		signingSecret: SECRET,
		previousSigningSecret: '-',
	});
	const trigger = await publishTrigger(credential);
	const forged = JSON.stringify(envelope('einvoice.failed', { id: 'einv_forged' }));
	const res = await deliver(trigger.url, forged, '-', signatureHeader('-', forged));
	expect(res.status).toBe(401);
	const genuine = await deliver(
		trigger.url,
		envelope('einvoice.generated', { id: 'einv_1' }),
		SECRET,
	);
	expect(genuine.status).toBe(202);
	const executions = await n8n.waitForExecutions(trigger.workflowId, 1);
	expect(executions).toHaveLength(1);
	expect(n8n.logs()).toContain('Previous Signing Secret is shorter than 16 characters');
});

/** A forward proxy that records whether a bearer token reached it, and answers 502. */
async function recordingProxy(): Promise<{
	url: string;
	seen: { requests: number; bearers: number };
	server: Server;
}> {
	const seen = { requests: 0, bearers: 0 };
	const server = createServer((req, res) => {
		seen.requests++;
		if (/^bearer /i.test(req.headers.authorization ?? '')) seen.bearers++;
		res.writeHead(502).end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

it('the HTTP Request node with the credential and Options → Proxy over http:// → refused, the proxy receives no token', async () => {
	const proxy = await recordingProxy();
	try {
		const apiCred = await n8n.createCredential('GST API', CRED.api, apiCredentialData(emu, client));
		const { execution } = await runOnce(
			n8n,
			httpRequestNode({
				url: `${emu.sandboxUrl}/v1/einvoices/einv_1`,
				apiCredential: apiCred,
				options: { proxy: proxy.url },
			}),
		);
		expect(execution.status).toBe('error');
		const detail = JSON.stringify(await n8n.execution(execution.id));
		expect(detail).toContain('goes through a proxy, which would see it in clear text');
		expect(proxy.seen).toEqual({ requests: 0, bearers: 0 });
	} finally {
		proxy.server.close();
	}
});

it('a Redis URL with a password pasted into the Redis credential Host → 500, and the password is in no log line', async () => {
	const password = `pw-${uuid()}`;
	const webhookCredential = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: SECRET,
		previousSigningSecret: '',
	});
	const redis = await n8n.createCredential('Dedupe Redis (careless)', 'gstComplianceRedisApi', {
		host: `redis://:${password}@127.0.0.1`,
		port: 6379,
		database: 0,
		user: '',
		password: '',
		ssl: false,
	});
	const trigger = await publishTrigger(webhookCredential, { gstComplianceRedisApi: redis });
	for (let i = 0; i < 2; i++) {
		const res = await deliver(
			trigger.url,
			envelope('einvoice.generated', { id: `einv_${i}` }),
			SECRET,
		);
		expect({ status: res.status, body: res.json() }).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
		});
	}
	expect(n8n.logs()).toContain("Redis credential's Host is a URL");
	expect(n8n.logs()).not.toContain(password);
	expect(await n8n.executions(trigger.workflowId)).toHaveLength(0);
});
