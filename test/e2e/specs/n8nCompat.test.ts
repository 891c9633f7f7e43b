/**
 * The n8n behaviours the package depends on (nodes/GstCompliance/n8nCompat.ts), checked on
 * the n8n this project runs: each test fails when n8n changes the behaviour, in one obvious place.
 */
import {
	CRED,
	deliver,
	envelope,
	N8n,
	request,
	signatureHeader,
	startN8n,
	triggerNode,
	triggerUrl,
	uuid,
} from '../../harness';

jest.setTimeout(240_000);

let n8n: N8n;
let url: string;
let workflowId: string;
const secret = `whsec_${uuid().replace(/-/g, '')}`;

beforeAll(async () => {
	n8n = await startN8n({ name: 'n8n-compat' });
	const credential = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
	const webhookId = uuid();
	const node = triggerNode({ events: ['*'], webhookCredential: credential, webhookId });
	const wf = await n8n.createWorkflow({ name: 'n8n compat', nodes: [node] });
	workflowId = wf.id;
	await n8n.activateWorkflow(workflowId);
	url = triggerUrl(n8n, { webhookId });
});

afterAll(async () => {
	await n8n?.dispose();
});

it('responseData "": n8n answers an onReceived webhook with the node\'s webhookResponse', async () => {
	const res = await deliver(url, envelope('einvoice.generated', { id: 'einv_compat_1' }), secret);
	expect({ status: res.status, body: res.json() }).toEqual({
		status: 200,
		body: { received: true },
	});
});

it('n8n reads the answer only after the execution exists: at the 200, the execution is there', async () => {
	// Counted once the first test's execution has finished, so only this delivery can change the
	// count (a run of this spec once miscounted while the first was still running).
	const before = (await n8n.waitForExecutions(workflowId, 1)).length;
	const res = await deliver(url, envelope('einvoice.generated', { id: 'einv_compat_2' }), secret);
	expect(res.status).toBe(200);
	// No waiting: the execution was created before the answer was built.
	expect((await n8n.executions(workflowId)).length).toBe(before + 1);
});

it('a static-data write made while n8n reads the answer is saved with the workflow', async () => {
	const event = envelope('einvoice.generated', { id: 'einv_compat_3' });
	expect((await deliver(url, event, secret)).status).toBe(200);
	await n8n.restart();
	// Only the database survives a restart: the id is there, so the redelivery is a duplicate.
	const again = await deliver(url, event, secret);
	expect(again.json()).toEqual({ received: true, duplicate: true });
});

it('a trigger saved as version 1 (before version 2 existed) still accepts, and answers a duplicate as one', async () => {
	const credential = await n8n.createCredential('GST webhook v1', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
	const webhookId = uuid();
	const node = triggerNode({
		events: ['*'],
		webhookCredential: credential,
		webhookId,
		typeVersion: 1,
	});
	const wf = await n8n.createWorkflow({ name: 'n8n compat: version 1', nodes: [node] });
	await n8n.activateWorkflow(wf.id);
	const v1Url = triggerUrl(n8n, { webhookId });
	const event = envelope('einvoice.generated', { id: 'einv_compat_v1' });
	expect((await deliver(v1Url, event, secret)).json()).toEqual({ received: true });
	expect((await deliver(v1Url, event, secret)).json()).toEqual({ received: true, duplicate: true });
});

it.each([
	['application/octet-stream', 'application/octet-stream'],
	['none', undefined],
	['application/json; charset=utf-8', 'application/json; charset=utf-8'],
])(
	"a delivery with Content-Type %s (the service's is not shown) is verified on its exact bytes and accepted",
	async (_label, contentType) => {
		const body = JSON.stringify(envelope('einvoice.generated', { id: `einv_ct_${uuid()}` }));
		const res = await request(url, {
			method: 'POST',
			headers: {
				...(contentType ? { 'content-type': contentType } : {}),
				'service-signature': signatureHeader(secret, body),
			},
			body,
		});
		expect({ status: res.status, body: res.json() }).toEqual({
			status: 200,
			body: { received: true },
		});
	},
);
