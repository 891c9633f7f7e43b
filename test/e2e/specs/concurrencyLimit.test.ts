/* eslint-disable @typescript-eslint/no-explicit-any -- workflow JSON for n8n's REST API, untyped here; each spec asserts on the fields it reads */
/**
 * n8n's production concurrency limit (N8N_CONCURRENCY_PRODUCTION_LIMIT; n8n Cloud plans set one)
 * in a real n8n: n8n creates the execution, then waits for a free slot before it reads the
 * trigger's answer. A delivery waiting there keeps its claim, however long the wait, so the
 * service's retry of it (after its own timeout) is answered "busy" and starts nothing; once the
 * execution runs, the id is remembered and every later redelivery is a duplicate.
 */
import {
	CRED,
	deliver,
	envelope,
	N8n,
	sleep,
	slowTriggerWorkflow,
	startN8n,
	uuid,
	waitFor,
} from '../../harness';

jest.setTimeout(300_000);

/** How long each execution holds the only slot. */
const HOLD_S = 40;
/** The service's delivery timeout (not shown by the spec; the emulator's default). */
const SERVICE_TIMEOUT_MS = 10_000;

let n8n: N8n;
let webhookCredential: { id: string; name: string };
const secret = `whsec_${uuid()}`;

beforeAll(async () => {
	n8n = await startN8n({
		name: 'concurrency',
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' },
	});
	webhookCredential = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
});

afterAll(async () => await n8n?.dispose());

/** A delivery the service gives up on after its timeout, as the service does. */
async function deliverWithTimeout(url: string, event: Record<string, unknown>) {
	return await deliver(url, event, secret, undefined, { timeoutMs: SERVICE_TIMEOUT_MS }).then(
		(res) => ({ status: res.status, body: res.json() as any }),
		(error: Error) => ({ status: 0, body: error.message }),
	);
}

it('an event queued behind the limit keeps its claim: its redelivery 36 s later starts nothing, and later ones are duplicates', async () => {
	const wf = await slowTriggerWorkflow(n8n, webhookCredential, HOLD_S);
	const first = envelope('einvoice.generated', { id: 'einv_slot_holder' });
	const queued = envelope('einvoice.generated', { id: 'einv_queued' });

	// The first event takes the only slot for HOLD_S; the second waits behind it.
	expect((await deliverWithTimeout(wf.url, first)).status).toBe(200);
	const waiting = await deliverWithTimeout(wf.url, queued);
	expect(waiting.status).toBe(0); // the service timed out: it counts a failure and retries
	await sleep(36_000 - SERVICE_TIMEOUT_MS);

	// Its retry, 36 s after the first attempt: still waiting in n8n's queue, so busy.
	const retry = await deliverWithTimeout(wf.url, queued);
	expect(retry.status).toBe(409);

	// Both executions run, one after the other; then every redelivery is a duplicate.
	await n8n.waitForExecutions(wf.workflowId, 2, 3 * HOLD_S * 1000);
	for (const event of [first, queued]) {
		const again = await deliverWithTimeout(wf.url, event);
		expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
	}
	await waitFor(
		async () => (await n8n.executions(wf.workflowId)).every((e) => e.status === 'success'),
		'executions to finish',
		3 * HOLD_S * 1000,
		500,
	);
	expect(await n8n.executions(wf.workflowId)).toHaveLength(2);
});
