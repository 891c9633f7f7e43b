/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * Paths the unit tests can only fake, inside a real n8n 2.41 against the emulator:
 * - the trigger with Refetch Latest State on: the GET runs through the API credential and n8n's
 *   own request helper, and a failed GET starts the workflow with `refetched: null`;
 * - a real cross-origin redirect: the emulator's API host answers 302 to another origin it
 *   controls, which records whether an Authorization header arrived, for the GST Compliance node
 *   and for n8n's HTTP Request node using the credential as a predefined credential type.
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	N8n,
	runOnce,
	startN8n,
	actionNode,
	apiCredentialData,
	CRED,
	deliver,
	envelope,
	httpRequestNode,
	triggerNode,
	triggerUrl,
	uuid,
} from '@/test/harness';

jest.setTimeout(240_000);

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;
let apiCred: { id: string; name: string };

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	// e-invoices only: a GET of an e-way bill is refused (403), a path for "GET failed".
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice' });
	n8n = await startN8n({ name: 'real-paths' });
	apiCred = await n8n.createCredential('GST API', CRED.api, apiCredentialData(emu, client));
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

describe('GST Compliance Trigger with Refetch Latest State', () => {
	const TRIGGER = 'GST Compliance Trigger';
	let url: string;
	let secret: string;
	let workflowId: string;

	beforeAll(async () => {
		const webhookId = uuid();
		url = triggerUrl(n8n, { webhookId });
		secret = `whsec_${uuid().replace(/-/g, '')}`;
		const webhookCred = await n8n.createCredential('GST webhook', CRED.webhook, {
			signingSecret: secret,
		});
		const node = triggerNode({
			events: ['*'],
			webhookCredential: webhookCred,
			apiCredential: apiCred,
			refetch: true,
			webhookId,
		});
		const wf = await n8n.createWorkflow({ name: 'refetch', nodes: [node], connections: {} });
		workflowId = wf.id;
		await n8n.activateWorkflow(workflowId);
	});

	/** Delivers `evt` and returns the trigger's output item of the execution it started. */
	async function deliverAndRead(evt: ReturnType<typeof envelope>, executionCount: number) {
		const res = await deliver(url, evt, secret);
		expect(res.status).toBe(202);
		const executions = await n8n.waitForExecutions(workflowId, executionCount);
		for (const execution of executions) {
			const [item] = await n8n.nodeOutput(execution.id, TRIGGER);
			if (item?.id === evt.id) return { execution, item };
		}
		throw new Error(`no execution for ${evt.id}`);
	}

	it('adds the e-invoice as the API returns it now', async () => {
		const invoice = emu.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		// The event says "generated"; by the time it arrives the e-invoice is cancelled.
		emu.control.setEinvoiceStatus(invoice.id, 'cancelled');
		const evt = envelope('einvoice.generated', { ...invoice, status: 'generated' });
		const { execution, item } = await deliverAndRead(evt, 1);
		expect(execution.status).toBe('success');
		expect(item.data).toMatchObject({ id: invoice.id, status: 'generated' });
		expect(item.refetched).toEqual({ ...invoice, status: 'cancelled' });
		expect(item).not.toHaveProperty('refetchError');
		expect(emu.control.counters().apiCalls[client.clientId]).toBeGreaterThanOrEqual(1);
	});

	it('GET failed → the workflow starts with refetched: null and the reason', async () => {
		const evt = envelope('ewaybill.generated', { id: 'ewb_1', object: 'ewaybill' });
		const { execution, item } = await deliverAndRead(evt, 2);
		expect(execution.status).toBe('success');
		expect(item.refetched).toBeNull();
		expect(item.refetchError).toMatch(/Your plan does not include e-way bills/);
		expect(JSON.stringify(item)).not.toContain(client.clientSecret);
	});

	it('a body sent as application/json that is not JSON → n8n answers 422 and starts nothing', async () => {
		const body = '{"id": "evt_not_json", ';
		const res = await deliver(url, body, secret);
		expect(res.status).toBe(422);
		// Barrier: a later valid event; once its execution exists, none for the bad body can appear.
		const invoice = emu.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		await deliverAndRead(envelope('einvoice.generated', { ...invoice }), 3);
		expect(await n8n.executions(workflowId)).toHaveLength(3);
	});
});

describe('a redirect to another origin', () => {
	afterEach(() => emu.control.setRedirect(false));

	it('GST Compliance node: followed without the token', async () => {
		const invoice = emu.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		emu.control.setRedirect(true);
		const { output } = await runOnce(
			n8n,
			actionNode({ resource: 'einvoice', id: invoice.id, apiCredential: apiCred }),
		);
		expect(emu.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: `/v1/einvoices/${invoice.id}`, authorization: false },
		]);
		expect(output[0]).toMatchObject({ elsewhere: true });
	});

	it("n8n's HTTP Request node with the credential: followed without the token", async () => {
		emu.control.setRedirect(true);
		const { output } = await runOnce(
			n8n,
			httpRequestNode({
				url: `${emu.sandboxUrl}/v1/einvoices/einv_redirected`,
				apiCredential: apiCred,
			}),
		);
		expect(emu.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: '/v1/einvoices/einv_redirected', authorization: false },
		]);
		expect(output[0]).toMatchObject({ elsewhere: true });
	});

	it('the emulator does see the token when a client forwards it (the check can fail)', async () => {
		emu.control.setRedirect(true);
		await fetch(`${emu.elsewhereUrl}/v1/einvoices/x`, {
			headers: { Authorization: 'Bearer forwarded' },
		});
		expect(emu.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: '/v1/einvoices/x', authorization: true },
		]);
	});
});

it('n8n logs never contain the client secret', () => {
	expect(n8n.logs()).not.toContain(client.clientSecret);
});
