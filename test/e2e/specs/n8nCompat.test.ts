/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
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
	retryAfterFailedStart,
	signatureHeader,
	sleep,
	startReplyLate,
	startN8n,
	triggerNode,
	triggerUrl,
	uuid,
	waitFor,
} from '@/test/harness';

jest.setTimeout(240_000);

let n8n: N8n;
let credential: { id: string; name: string };
const secret = `whsec_${uuid().replace(/-/g, '')}`;

beforeAll(async () => {
	n8n = await startN8n({ name: 'n8n-compat' });
	credential = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
});

afterAll(async () => {
	await n8n?.dispose();
});

/** A published workflow with one trigger (its options as given); its URL and id. */
async function publish(
	options: Record<string, unknown> = {},
	typeVersion?: number,
): Promise<{ url: string; workflowId: string; trigger: string }> {
	const webhookId = uuid();
	const node = triggerNode({
		events: ['*'],
		webhookCredential: credential,
		webhookId,
		options,
		typeVersion,
	});
	const wf = await n8n.createWorkflow({ name: `n8n compat ${uuid().slice(0, 8)}`, nodes: [node] });
	await n8n.activateWorkflow(wf.id);
	return { url: triggerUrl(n8n, { webhookId }), workflowId: wf.id, trigger: node.name as string };
}

const AFTER_EXECUTION = { acknowledge: 'afterExecutionCreated' };

describe('answered by the node at once (5.)', () => {
	it('202 from the node itself, and n8n still creates and runs the execution', async () => {
		const wf = await publish();
		const res = await deliver(
			wf.url,
			envelope('einvoice.generated', { id: 'einv_at_once' }),
			secret,
		);
		expect({ status: res.status, body: res.json() }).toEqual({
			status: 202,
			body: { received: true },
		});
		const [execution] = await n8n.waitForExecutions(wf.workflowId, 1);
		expect(execution.status).toBe('success');
	});

	it('the static data written in webhook() is saved before the answer: after a restart, a copy is a duplicate', async () => {
		const wf = await publish();
		const event = envelope('einvoice.generated', { id: 'einv_saved_at_once' });
		expect((await deliver(wf.url, event, secret)).status).toBe(202);
		await n8n.waitForExecutions(wf.workflowId, 1);
		await n8n.restart();
		// Only the database survives a restart: the acceptance is there, so the copy starts nothing.
		const again = await deliver(wf.url, event, secret);
		expect(again.json()).toEqual({ received: true, duplicate: true });
		await sleep(2_000);
		expect(await n8n.executions(wf.workflowId)).toHaveLength(1);
	});
});

describe("the node's execute() as the first step of its execution (6.)", () => {
	it('runs with the webhook’s items: the trigger’s output is the envelope it builds, nothing else', async () => {
		const wf = await publish();
		const event = envelope('einvoice.generated', { id: 'einv_first_step' });
		await deliver(wf.url, event, secret);
		const [execution] = await n8n.waitForExecutions(wf.workflowId, 1);
		expect(await n8n.nodeOutput(execution.id, wf.trigger)).toEqual([event]);
	});
});

describe('answered by n8n once the execution exists (1. and 2.; Respond "When the Execution Is Recorded")', () => {
	it('responseData "": n8n answers an onReceived webhook with the node\'s webhookResponse', async () => {
		const wf = await publish(AFTER_EXECUTION);
		const res = await deliver(
			wf.url,
			envelope('einvoice.generated', { id: 'einv_compat_1' }),
			secret,
		);
		expect({ status: res.status, body: res.json() }).toEqual({
			status: 200,
			body: { received: true },
		});
	});

	it('n8n reads the answer only after the execution exists: at the 200, the execution is there', async () => {
		const wf = await publish(AFTER_EXECUTION);
		const res = await deliver(
			wf.url,
			envelope('einvoice.generated', { id: 'einv_compat_2' }),
			secret,
		);
		expect(res.status).toBe(200);
		// No waiting: the execution was created before the answer was built.
		expect((await n8n.executions(wf.workflowId)).length).toBe(1);
	});

	it('a static-data write made while n8n reads the answer is saved with the workflow', async () => {
		const wf = await publish(AFTER_EXECUTION);
		const event = envelope('einvoice.generated', { id: 'einv_compat_3' });
		expect((await deliver(wf.url, event, secret)).status).toBe(200);
		await waitFor(
			async () => (await n8n.executions(wf.workflowId)).every((e) => e.status === 'success'),
			'the execution to finish',
			30_000,
			200,
		);
		await n8n.restart();
		const again = await deliver(wf.url, event, secret);
		expect(again.json()).toEqual({ received: true, duplicate: true });
	});
});

it('a trigger saved as version 1 (before version 2 existed) still accepts, and answers a duplicate as one', async () => {
	const wf = await publish({}, 1);
	const event = envelope('einvoice.generated', { id: 'einv_compat_v1' });
	expect((await deliver(wf.url, event, secret)).json()).toEqual({ received: true });
	await n8n.waitForExecutions(wf.workflowId, 1);
	expect((await deliver(wf.url, event, secret)).json()).toEqual({
		received: true,
		duplicate: true,
	});
});

it.each([
	['application/octet-stream', 'application/octet-stream'],
	['none', undefined],
	['application/json; charset=utf-8', 'application/json; charset=utf-8'],
])(
	"a delivery with Content-Type %s (the service's is not shown) is verified on its exact bytes and accepted",
	async (_label, contentType) => {
		const wf = await publish();
		const body = JSON.stringify(envelope('einvoice.generated', { id: `einv_ct_${uuid()}` }));
		const res = await request(wf.url, {
			method: 'POST',
			headers: {
				...(contentType ? { 'content-type': contentType } : {}),
				'service-signature': signatureHeader(secret, body),
			},
			body,
		});
		expect({ status: res.status, body: res.json() }).toEqual({
			status: 202,
			body: { received: true },
		});
	},
);

describe('the items of a webhook’s execution reach its first step again, with their acceptance (10.)', () => {
	it('a start whose Redis reply comes 2.5 s late (past the command timeout) is tried again and finds its own mark: the event does its work once', async () => {
		const { emitted, work, statuses } = await startReplyLate('start-reply-late');
		expect(Object.fromEntries(work.workRuns)).toEqual({ [emitted[0]]: 1 });
		expect(statuses).toEqual(['success']);
	});

	it('Retry from the executions list, after the start failed (Redis stopped): the retried execution starts the event once', async () => {
		const { emitted, work, statuses } = await retryAfterFailedStart('retry-failed-start');
		expect(Object.fromEntries(work.workRuns)).toEqual({ [emitted[0]]: 1 });
		expect(statuses).toEqual(['error', 'success']);
	});
});
