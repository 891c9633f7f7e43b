/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * GST Compliance Trigger inside a real n8n 2.41, fed by the emulator's real signed deliveries:
 * selected / unselected events, forged, duplicate, 20 concurrent duplicates, and a redelivery of an
 * old event after n8n restarts (dedupe state persisted in the workflow's static data).
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	waitFor,
	CRED,
	deliver,
	envelope,
	signatureHeader,
	triggerNode,
	triggerUrl,
	uuid,
	N8n,
	startN8n,
} from '@/test/harness';

jest.setTimeout(240_000);

const TRIGGER = 'GST Compliance Trigger';

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;
let url: string;
let secret: string;
let subscriptionId: string;
let workflowId: string;

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
	n8n = await startN8n({ name: 'trigger' });
	const webhookId = uuid();
	url = triggerUrl(n8n, { webhookId });
	// The "dashboard": a subscription to every event type, pointing at the node's production URL.
	const sub = emu.control.createSubscription({
		clientId: client.clientId,
		url,
		events: [
			'einvoice.generated',
			'einvoice.cancelled',
			'einvoice.failed',
			'ewaybill.generated',
			'ewaybill.expired',
		],
	});
	secret = sub.signingSecret;
	subscriptionId = sub.id;
	const cred = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
	const node = triggerNode({
		events: ['einvoice.generated', 'einvoice.failed'],
		webhookCredential: cred,
		webhookId,
	});
	const wf = await n8n.createWorkflow({ name: 'trigger e2e', nodes: [node], connections: {} });
	workflowId = wf.id;
	await n8n.activateWorkflow(workflowId);
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

/** Event ids that started an execution, from the trigger node's output of each execution. */
async function startedEventIds(): Promise<string[]> {
	const ids: string[] = [];
	for (const e of await n8n.executions(workflowId)) {
		const out = await n8n.nodeOutput(e.id, TRIGGER);
		for (const item of out) ids.push(String(item.id));
	}
	return ids.sort();
}

let expected: string[] = [];

/**
 * The barrier: sends a fresh selected event through the emulator and waits until its own execution
 * has finished. Every delivery before it has been answered, and n8n creates the execution of each
 * in the same request, milliseconds after the node's answer, so any execution an earlier delivery
 * started exists by the time the barrier's has finished.
 * Then asserts the exact set of started events (all executions finished, none still running).
 */
async function barrierAndCheck(): Promise<void> {
	emu.control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' });
	await emu.control.settle();
	const evt = emu.control
		.deliveries({ subscriptionId })
		.find(
			(d) =>
				d.eventType === 'einvoice.generated' &&
				!expected.includes(d.eventId) &&
				d.state === 'delivered',
		);
	expect(evt).toBeDefined();
	expected = [...expected, evt!.eventId].sort();
	const started = await waitFor(
		async () => {
			const executions = await n8n.executions(workflowId);
			if (executions.some((e) => ['new', 'running', 'waiting'].includes(e.status))) return;
			const ids = await startedEventIds();
			return ids.includes(evt!.eventId) ? ids : undefined;
		},
		`the execution of barrier event ${evt!.eventId}`,
		30_000,
		300,
	);
	expect(started).toEqual(expected);
}

function lastDeliveryOf(eventType: string) {
	const ds = emu.control.deliveries({ subscriptionId }).filter((d) => d.eventType === eventType);
	return ds[ds.length - 1];
}

it('a selected event → one execution whose output has data.status', async () => {
	const inv = emu.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
		status: 'failed_terminal',
	});
	await emu.control.settle();
	const d = lastDeliveryOf('einvoice.failed');
	expect(d).toMatchObject({ state: 'delivered', lastStatusCode: 202 });
	const [execution] = await n8n.waitForExecutions(workflowId, 1);
	expect(execution.status).toBe('success');
	const out = await n8n.nodeOutput(execution.id, TRIGGER);
	expect(out).toHaveLength(1);
	expect(out[0]).toMatchObject({
		id: d.eventId,
		type: 'einvoice.failed',
		data: { id: inv.id, status: 'failed_terminal' },
	});
	expect(typeof out[0].createdAt).toBe('string');
	expected = [d.eventId];
	expect(await startedEventIds()).toEqual(expected);
});

it('an unselected event type → acknowledged (200), no execution', async () => {
	emu.control.createEwaybill({ organizationId: client.organizationId, environment: 'sandbox' });
	await emu.control.settle();
	expect(lastDeliveryOf('ewaybill.generated')).toMatchObject({
		state: 'delivered',
		lastStatusCode: 200,
		attempts: 1,
	});
	await barrierAndCheck();
});

it('a forged delivery → 401, no execution, nothing echoed', async () => {
	const evt = envelope('einvoice.generated', {
		id: 'einv_forged',
		object: 'einvoice',
		status: 'generated',
	});
	const res = await deliver(url, evt, 'not-the-signing-secret');
	expect(res.status).toBe(401);
	expect(res.text).not.toContain(secret);
	// A valid signature over another body (tampered payload) is refused too.
	const body = JSON.stringify(evt);
	const tampered = await deliver(
		url,
		body.replace('einv_forged', 'einv_forgeX'),
		secret,
		signatureHeader(secret, body),
	);
	expect(tampered.status).toBe(401);
	await barrierAndCheck();
});

it('a duplicate delivery (dashboard replay) → 200, no execution', async () => {
	const first = lastDeliveryOf('einvoice.failed');
	const replayed = await emu.control.replay(first.id);
	expect(replayed).toMatchObject({ lastStatusCode: 200, state: 'delivered' });
	expect(replayed.attempts).toBeGreaterThanOrEqual(2);
	await barrierAndCheck();
});

it('20 concurrent deliveries of one event id → exactly one execution', async () => {
	const evt = envelope('einvoice.generated', {
		id: 'einv_concurrent',
		object: 'einvoice',
		status: 'generated',
	});
	const body = JSON.stringify(evt);
	const header = signatureHeader(secret, body);
	const results = await Promise.all(
		Array.from({ length: 20 }, () => deliver(url, body, secret, header)),
	);
	// One is accepted (202); the others find it accepted and on its way (202, duplicate) or started
	// (200, duplicate): every one is answered 2xx at once, none creates another execution.
	const statuses = results.map((r) => r.status);
	expect(statuses.filter((status) => status !== 200 && status !== 202)).toEqual([]);
	expect(results.filter((r) => !r.text.includes('duplicate'))).toHaveLength(1);
	expected = [...expected, evt.id].sort();
	await n8n.waitForExecutions(workflowId, expected.length);
	await barrierAndCheck();
	expect((await startedEventIds()).filter((id) => id === evt.id)).toHaveLength(1);
});

it('after an n8n restart, an old event redelivered → 2xx duplicate, no execution', async () => {
	await n8n.restart();
	const old = lastDeliveryOf('einvoice.failed');
	const replayed = await emu.control.replay(old.id);
	expect(replayed.lastStatusCode).toBe(200);
	expect(replayed.lastResponseBody).toContain('duplicate');
	// Also a concurrent-duplicate id from before the restart, sent by hand.
	const again = envelope('einvoice.generated', {
		id: 'einv_concurrent',
		object: 'einvoice',
		status: 'generated',
	});
	const concurrentId = expected.find((id) => id.startsWith('evt_e2e_'))!;
	const res = await deliver(url, { ...again, id: concurrentId }, secret);
	expect([200, 202]).toContain(res.status);
	expect(res.json()).toMatchObject({ duplicate: true });
	await barrierAndCheck();
});

it('publishing a trigger whose Production URL is loopback (WEBHOOK_URL http://127.0.0.1:…) → refused, naming WEBHOOK_URL and the option', async () => {
	const cred = await n8n.createCredential('GST webhook (local)', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
	const local = await n8n.createWorkflow({
		name: 'trigger on a local URL',
		nodes: [
			triggerNode({ events: ['*'], webhookCredential: cred, options: { allowLocalUrl: false } }),
		],
	});
	await expect(n8n.activateWorkflow(local.id)).rejects.toThrow(
		/The Production URL http:\/\/127\.0\.0\.1:\d+\/webhook\/.+ is localhost, which the service cannot reach.*Set WEBHOOK_URL.*Allow Local Production URL/,
	);
});

it('n8n logs never contain the signing secret', () => {
	expect(n8n.logs()).not.toContain(secret);
});
