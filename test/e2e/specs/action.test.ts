/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * Inside a real n8n 2.41 with the packed package installed as a community package:
 * the credential's Test button (via REST), the action node executed by n8n, and n8n's own
 * HTTP Request node using our credential as a predefined credential type.
 */
import { startEmulator, type RunningEmulator, type ClientInfo } from '@/test/emulator';
import {
	request,
	actionNode,
	apiCredentialData,
	chain,
	CRED,
	httpRequestNode,
	runOnce,
	webhookNode,
	N8n,
	startN8n,
} from '@/test/harness';

jest.setTimeout(240_000);

let emu: RunningEmulator;
let n8n: N8n;
let sandbox: ClientInfo;
let einvoiceOnly: ClientInfo;
let einvoiceId: string;
let ewaybillId: string;

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	sandbox = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
	einvoiceOnly = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice' });
	einvoiceId = emu.control.createEinvoice({
		organizationId: sandbox.organizationId,
		environment: 'sandbox',
	}).id;
	ewaybillId = emu.control.createEwaybill({
		organizationId: einvoiceOnly.organizationId,
		environment: 'sandbox',
	}).id;
	n8n = await startN8n({ name: 'action' });
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

describe('n8n loads the packed package', () => {
	it('lists both nodes and both credentials', async () => {
		const nodes = await n8n.nodeTypeNames();
		expect(nodes).toEqual(
			expect.arrayContaining([
				'n8n-nodes-gst-compliance.gstCompliance',
				'n8n-nodes-gst-compliance.gstComplianceTrigger',
			]),
		);
		const creds = await n8n.credentialTypeNames();
		expect(creds).toEqual(expect.arrayContaining([CRED.api, CRED.webhook]));
	});
});

describe('credential Test button (POST /rest/credentials/test)', () => {
	async function test(data: Record<string, unknown>) {
		const saved = await n8n.createCredential(`cred ${Date.now()}`, CRED.api, data);
		return await n8n.testCredential(saved, CRED.api, data);
	}

	it('succeeds and names the organization', async () => {
		const r = await test(apiCredentialData(emu, sandbox));
		expect(r.status).toBe('OK');
		expect(r.message).toContain(sandbox.organizationId);
	});

	it('wrong secret → its own message', async () => {
		const r = await test(apiCredentialData(emu, sandbox, { clientSecret: 'not-the-secret' }));
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/secret/i);
		expect(r.message).not.toContain('not-the-secret');
	});

	it('wrong environment → its own message', async () => {
		// A sandbox client (svc_test_) configured as Production.
		const r = await test(apiCredentialData(emu, sandbox, { environment: 'production' }));
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/production|sandbox|environment/i);
		const wrongSecret = await test(apiCredentialData(emu, sandbox, { clientSecret: 'nope' }));
		expect(r.message).not.toBe(wrongSecret.message);
	});

	it('production client pointed at the sandbox host → 401 explained', async () => {
		const prod = emu.control.createClient({ environment: 'production' });
		const r = await test(apiCredentialData(emu, prod, { productionApiUrl: emu.sandboxUrl }));
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/401/);
	});
});

describe('webhook credential Test button', () => {
	it('accepts a whole secret and flags a truncated one', async () => {
		const good = { signingSecret: 'whsec_0123456789abcdef0123', previousSigningSecret: '' };
		const saved = await n8n.createCredential('webhook ok', CRED.webhook, good);
		expect(await n8n.testCredential(saved, CRED.webhook, good)).toMatchObject({ status: 'OK' });
		const short = { signingSecret: 'whsec_01', previousSigningSecret: '' };
		const savedShort = await n8n.createCredential('webhook short', CRED.webhook, short);
		const r = await n8n.testCredential(savedShort, CRED.webhook, short);
		expect(r.status).toBe('Error');
		expect(r.message).not.toContain('whsec_01');
	});
});

describe('action node executed by n8n', () => {
	async function runAction(resource: 'einvoice' | 'ewaybill', id: string, client: ClientInfo) {
		const cred = await n8n.createCredential(
			`api ${client.clientId}`,
			CRED.api,
			apiCredentialData(emu, client),
		);
		const path = `action-${resource}-${Date.now()}`;
		const trigger = webhookNode(path);
		const action = actionNode({ resource, id, apiCredential: cred });
		const wf = await n8n.createWorkflow({
			name: `action ${resource}`,
			nodes: [trigger, action],
			connections: chain(trigger.name, action.name),
		});
		await n8n.activateWorkflow(wf.id);
		const res = await request(n8n.webhookUrl(path), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		const [execution] = await n8n.waitForExecutions(wf.id, 1);
		const detail = await n8n.execution(execution.id);
		return {
			res,
			execution,
			detail,
			output: await n8n.nodeOutput(execution.id, action.name),
			action,
		};
	}

	it('gets an e-invoice', async () => {
		const { res, execution, output } = await runAction('einvoice', einvoiceId, sandbox);
		expect(execution.status).toBe('success');
		expect(res.status).toBe(200);
		expect(output).toHaveLength(1);
		expect(output[0]).toMatchObject({ id: einvoiceId, object: 'einvoice', status: 'generated' });
		expect(typeof output[0].irn).toBe('string');
	});

	it('e-way bill on an e-invoice-only plan fails with the plan message', async () => {
		const { execution, detail } = await runAction('ewaybill', ewaybillId, einvoiceOnly);
		expect(execution.status).toBe('error');
		const err = detail.data.resultData.error;
		const text = `${err?.message ?? ''} ${err?.description ?? ''}`;
		expect(text).toMatch(/plan|e-way bill/i);
		expect(text).not.toContain(einvoiceOnly.clientSecret);
	});
});

describe("n8n's HTTP Request node with our credential (Predefined credential type)", () => {
	it('calls /v1/einvoices/{id} successfully', async () => {
		const cred = await n8n.createCredential(
			'api for http',
			CRED.api,
			apiCredentialData(emu, sandbox),
		);
		const { execution, output: out } = await runOnce(
			n8n,
			httpRequestNode({ url: `${emu.sandboxUrl}/v1/einvoices/${einvoiceId}`, apiCredential: cred }),
		);
		const detail = await n8n.execution(execution.id);
		expect({ status: execution.status, error: detail.data.resultData.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});
		expect(out[0]).toMatchObject({ id: einvoiceId, object: 'einvoice' });
	});
});

describe('secrets stay out of n8n logs', () => {
	it('no client secret in the log file', () => {
		const logs = n8n.logs();
		expect(logs.length).toBeGreaterThan(0);
		for (const c of [sandbox, einvoiceOnly]) expect(logs).not.toContain(c.clientSecret);
	});
});
