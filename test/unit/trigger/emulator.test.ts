/**
 * The emulator's real signed deliveries, over real HTTP, into the node's webhook(): a tiny local
 * server hands each request's exact bytes and headers to n8n's webhook handling (deliverToTrigger.ts)
 * and answers with what the node decided. Every attempt is sent twice (duplicateRate 1) and batches
 * are shuffled.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { dedupeRegistry } from '../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { EVENT_TYPES } from '../../../nodes/GstComplianceTrigger/events';
import { startEmulator, type RunningEmulator } from '../../emulator';
import { deliver, newWorkflow, type DeliveryResult } from '../helpers/deliverToTrigger';

interface Received {
	eventId: string;
	result: DeliveryResult;
}

let emu: RunningEmulator;
let server: Server;
let url: string;
let workflow = newWorkflow('wf-emulator');
let credentials = { signingSecret: '', previousSigningSecret: '' };
const received: Received[] = [];
/** Answer 503 after the node accepted, as if n8n's acknowledgement were lost: forces a retry. */
let loseAcks = 0;

beforeAll(async () => {
	emu = await startEmulator({ clock: 'manual', retryBaseMs: 1000 });
	jest.spyOn(Date, 'now').mockImplementation(() => emu.control.now());
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			void deliver({ body, headers: req.headers, credentials, workflow, events: ['*'] }).then(
				(result) => {
					received.push({
						eventId: String((JSON.parse(body.toString('utf8')) as { id: string }).id),
						result,
					});
					const lost = result.started !== undefined && loseAcks > 0 && loseAcks--;
					res.writeHead(lost ? 503 : result.status, { 'Content-Type': 'application/json' });
					res.end(JSON.stringify(lost ? { error: 'lost' } : result.body));
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/gst`;
});

afterAll(async () => {
	jest.restoreAllMocks();
	await emu.stop();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	dedupeRegistry.clear();
	workflow = newWorkflow(`wf-${Math.random()}`);
	received.length = 0;
	loseAcks = 0;
});

/** Each test owns one subscription: the earlier ones would sign with secrets it does not hold. */
afterEach(() => {
	for (const sub of emu.control.subscriptions()) emu.control.setSubscriptionActive(sub.id, false);
});

function startsPerEvent(): Map<string, number> {
	const starts = new Map<string, number>();
	for (const { eventId, result } of received) {
		if (result.started) starts.set(eventId, (starts.get(eventId) ?? 0) + 1);
	}
	return starts;
}

async function subscribe(): Promise<{
	subscriptionId: string;
	clientId: string;
	organizationId: string;
}> {
	const { clientId, organizationId } = emu.seeded!.production;
	const sub = emu.control.createSubscription({
		clientId,
		url,
		events: EVENT_TYPES.map((e) => e.value),
	});
	credentials = { signingSecret: sub.signingSecret, previousSigningSecret: '' };
	return { subscriptionId: sub.id, clientId, organizationId };
}

async function emitEvents(organizationId: string): Promise<string[]> {
	const ids: string[] = [];
	const environment = 'production' as const;
	for (let i = 0; i < 8; i++) {
		const einvoice = emu.control.createEinvoice({ organizationId, environment });
		if (i % 2 === 0) ids.push(emu.control.setEinvoiceStatus(einvoice.id, 'cancelled').id);
		if (i === 3) ids.push(emu.control.setEinvoiceStatus(einvoice.id, 'failed_terminal').id);
	}
	for (let i = 0; i < 4; i++) {
		const ewaybill = emu.control.createEwaybill({ organizationId, environment });
		ids.push(emu.control.setEwaybillStatus(ewaybill.id, i % 2 ? 'expired' : 'cancelled').id);
	}
	return ids;
}

it('starts exactly one execution per event id despite duplicates, reordering and lost acks', async () => {
	const { subscriptionId, organizationId } = await subscribe();
	emu.control.setDeliveryFaults({ duplicateRate: 1, reorderWindow: 5 });
	loseAcks = 3;
	const explicit = await emitEvents(organizationId);
	await emu.control.settle();
	await emu.control.advance(10 * 60_000); // the retries of the lost acknowledgements

	const deliveries = emu.control.deliveries({ subscriptionId });
	const eventIds = deliveries.map((d) => d.eventId);
	expect(new Set(eventIds).size).toBe(eventIds.length);
	expect(eventIds.length).toBeGreaterThan(explicit.length); // creations emit "generated" too
	expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
	expect(deliveries.some((d) => d.attempts > 1)).toBe(true);

	const starts = startsPerEvent();
	expect([...starts.keys()].sort()).toEqual([...eventIds].sort());
	expect([...starts.values()].every((n) => n === 1)).toBe(true);
	expect(received.length).toBeGreaterThanOrEqual(2 * eventIds.length); // every attempt came twice
	expect(received.filter((r) => r.result.status !== 200)).toEqual([]);

	// Shuffled: the order of first arrival is not the order of emission.
	const firstArrival = [...new Set(received.map((r) => r.eventId))];
	expect(firstArrival).not.toEqual(eventIds);
});

it('treats the dashboard replay of a delivered event as a duplicate, also after a restart', async () => {
	const { subscriptionId, organizationId } = await subscribe();
	emu.control.setDeliveryFaults({});
	await emitEvents(organizationId);
	await emu.control.settle();
	const deliveries = emu.control.deliveries({ subscriptionId });
	const startedBefore = received.filter((r) => r.result.started).length;
	expect(startedBefore).toBe(deliveries.length);

	// n8n restarts: the in-process store is gone, static data comes back from the database.
	dedupeRegistry.clear();
	workflow.staticData = JSON.parse(JSON.stringify(workflow.staticData));
	await emu.control.advance(60_000);
	for (const delivery of deliveries) {
		const replayed = await emu.control.replay(delivery.id);
		expect(replayed.lastStatusCode).toBe(200);
		expect(JSON.parse(replayed.lastResponseBody ?? '{}')).toEqual({
			received: true,
			duplicate: true,
		});
	}
	expect(received.filter((r) => r.result.started)).toHaveLength(startedBefore);
});

it('keeps accepting during a signing-secret rotation', async () => {
	const { subscriptionId, organizationId } = await subscribe();
	emu.control.setDeliveryFaults({});
	const oldSecret = credentials.signingSecret;
	const { signingSecret } = emu.control.rotateSigningSecret(subscriptionId);

	// Not yet updated in n8n: the old secret's v1 is still in the header.
	await emitEvents(organizationId);
	await emu.control.settle();
	// Updated, with the old secret kept as the previous one.
	credentials = { signingSecret, previousSigningSecret: oldSecret };
	await emitEvents(organizationId);
	await emu.control.settle();
	// After the overlap the service signs with the new secret only.
	credentials = { signingSecret, previousSigningSecret: '' };
	await emu.control.advance(25 * 3_600_000);
	await emitEvents(organizationId);
	await emu.control.settle();

	expect(received.length).toBeGreaterThan(0);
	expect(received.every((r) => r.result.status === 200 && r.result.started)).toBe(true);
	expect(emu.control.deliveries({ subscriptionId }).every((d) => d.state === 'delivered')).toBe(
		true,
	);
});

it('rejects deliveries signed with a secret the credential does not hold, and the service retries', async () => {
	const { subscriptionId, organizationId } = await subscribe();
	emu.control.setDeliveryFaults({});
	credentials = { signingSecret: 'whsec_not_the_right_one_0123456789', previousSigningSecret: '' };
	await emitEvents(organizationId);
	await emu.control.settle();
	expect(received.length).toBeGreaterThan(0);
	expect(received.every((r) => r.result.status === 401 && !r.result.started)).toBe(true);
	expect(emu.control.deliveries({ subscriptionId }).every((d) => d.state === 'pending')).toBe(true);
});
