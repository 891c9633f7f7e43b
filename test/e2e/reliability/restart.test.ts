/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n; imports the package through the @/ alias */
/**
 * n8n is SIGKILLed in the middle of a stream of events that the emulator delivers (real clock,
 * short retry base); the emulator keeps retrying what failed. After n8n is back, every event
 * must have exactly one execution: none lost, none doubled.
 */
import { EVENT_TYPES } from '@/test/emulator';
import {
	CRED,
	uuid,
	waitFor,
	waitForFinished,
	killHard,
	startSession,
	activeTrigger,
	triggerUrlOf,
	type Session,
	type TriggerWorkflow,
} from '@/test/harness';

jest.setTimeout(300_000);

/**
 * Events emitted after the kill fail until n8n is back (connection refused, then 404 until its
 * webhooks are registered: up to ~40 s on a loaded 2-core machine). 8 of them, retried at ~10 s,
 * 30 s and 70 s, make at most ~32 consecutive failures, below the 50 that deactivate a
 * subscription.
 */
const EVENTS = 16;
const EMIT_EVERY_MS = 500;
const KILL_AFTER = 8;
/** Retries at ~10 s, 30 s, 70 s (see EVENTS). */
const RETRY_BASE_MS = 10_000;

let session: Session;
let trigger: TriggerWorkflow;
let subscriptionId: string;

beforeAll(async () => {
	session = await startSession({ retryBaseMs: RETRY_BASE_MS, deliveryTimeoutMs: 5_000 });
	const { n8n, emulator, client } = session;
	const webhookId = uuid();
	const subscription = emulator.control.createSubscription({
		clientId: client.clientId,
		url: triggerUrlOf(n8n, webhookId),
		events: [...EVENT_TYPES],
	});
	subscriptionId = subscription.id;
	const webhookCredential = await n8n.createCredential('GST webhook (subscription)', CRED.webhook, {
		signingSecret: subscription.signingSecret,
		previousSigningSecret: '',
	});
	trigger = await activeTrigger(session, 'reliability: restart', { webhookCredential, webhookId });
});

afterAll(async () => {
	await session?.stop();
});

it('after a SIGKILL and restart mid-stream, each event has exactly one execution', async () => {
	const { n8n, emulator, client } = session;
	const { control } = emulator;
	let restarted: Promise<void> | undefined;
	for (let i = 0; i < EVENTS; i++) {
		// Each new e-invoice emits einvoice.generated, which the emulator delivers at once.
		control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' });
		if (i + 1 === KILL_AFTER) {
			await killHard(n8n);
			restarted = n8n.restart();
		}
		await new Promise((resolve) => setTimeout(resolve, EMIT_EVERY_MS));
	}
	await restarted;

	// The emulator's retries reach the restarted n8n; nothing may be dead-lettered.
	await waitFor(
		async () => control.deliveries({ subscriptionId }).every((d) => d.state === 'delivered'),
		'every delivery to be acknowledged',
		150_000,
		500,
	);
	const deliveries = control.deliveries({ subscriptionId });
	const emitted = deliveries.map((d) => d.eventId);
	expect(new Set(emitted).size).toBe(EVENTS);
	expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([]);
	expect(control.subscriptions().find((s) => s.id === subscriptionId)?.active).toBe(true);
	const retried = deliveries.filter((d) => d.attempts > 1).length;
	expect(retried).toBeGreaterThan(0); // the kill really failed some deliveries

	const total = await waitForFinished(n8n, trigger.workflowId, EVENTS, 60_000, 3_000);
	const perEvent = new Map<string, string[]>();
	for (const execution of await n8n.executions(trigger.workflowId)) {
		const [item] = await n8n.nodeOutput(execution.id, trigger.nodeName);
		const eventId = String(item?.id ?? `(no output: execution ${execution.id})`);
		perEvent.set(eventId, [...(perEvent.get(eventId) ?? []), execution.status]);
	}
	expect({ total, events: [...perEvent.keys()].sort() }).toEqual({
		total: EVENTS,
		events: [...emitted].sort(),
	});
	expect([...perEvent.values()].flat().filter((status) => status !== 'success')).toEqual([]);
});
