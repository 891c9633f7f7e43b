/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The trigger's webhook(): verified deliveries start one execution each, with secret rotation and
 * dedupe, first with deliveries signed by the test, then with the service emulator's own deliveries
 * over real HTTP. Each runs through n8n's webhook handling (helpers/deliverToTrigger.ts).
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { EVENT_TYPES } from '../../../../nodes/GstComplianceTrigger/events';
import { formatSignatureHeader, sign } from '../../../../nodes/GstComplianceTrigger/signature';
import { startEmulator, type RunningEmulator } from '../../../emulator';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	NOW_S,
	PREVIOUS_SECRET,
	SECRET,
	signed,
	type DeliveryResult,
} from '../../helpers/deliverToTrigger';

const HOUR = 3_600_000;
let now = NOW_MS;
const event = (id: string, overrides: Record<string, unknown> = {}) =>
	JSON.stringify(envelope({ id, ...overrides }));
/** A delivery signed at the (stubbed) current time. */
const fresh = (body: string) => signed(body, Math.floor(now / 1000));
/** What n8n does to static data across a restart: save it as JSON, load it back. */
const restart = (workflow: ReturnType<typeof newWorkflow>) => {
	dedupeRegistry.clear();
	workflow.staticData = JSON.parse(JSON.stringify(workflow.staticData));
};

describe('deliveries signed by the test', () => {
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		dedupeRegistry.clear();
	});
	afterEach(() => jest.restoreAllMocks());

	describe('an accepted delivery', () => {
		it('answers 200 {received:true} and starts one item with the envelope', async () => {
			const result = await deliver(fresh(event('evt_1')));
			expect(result.status).toBe(200);
			expect(result.body).toEqual({ received: true });
			expect(result.started).toEqual([
				{
					id: 'evt_1',
					type: 'einvoice.generated',
					createdAt: '2025-01-15T04:29:59Z',
					data: { id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
				},
			]);
		});

		it('outputs data alone with the Data Only shape', async () => {
			const result = await deliver({ ...fresh(event('evt_1')), options: { outputShape: 'data' } });
			expect(result.started).toEqual([
				{ id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
			]);
		});

		it('starts each selected type, and only those', async () => {
			const selected = ['einvoice.failed', 'ewaybill.rejected'];
			for (const { value } of EVENT_TYPES) {
				const result = await deliver({
					...fresh(event(`evt_${value}`, { type: value })),
					events: selected,
				});
				expect(result.status).toBe(200);
				expect(result.started !== undefined).toBe(selected.includes(value));
			}
		});

		it('accepts a header with several v1 of which one is valid, in any order, with spaces', async () => {
			const body = event('evt_1');
			const header = ` v1=${'0'.repeat(64)} , v1=${sign(SECRET, NOW_S, body)} , t=${NOW_S} `;
			const result = await deliver({ body, headers: { 'service-signature': header } });
			expect(result.started).toHaveLength(1);
		});

		it('accepts t up to the configured tolerance, and not beyond', async () => {
			const options = { toleranceSeconds: 30 };
			expect(
				(await deliver({ ...signed(event('evt_1'), NOW_S - 30), options })).started,
			).toHaveLength(1);
			expect((await deliver({ ...signed(event('evt_2'), NOW_S - 31), options })).status).toBe(401);
			expect((await deliver({ ...signed(event('evt_3'), NOW_S - 299) })).started).toHaveLength(1);
		});
	});

	describe('secret rotation', () => {
		const credentials = { signingSecret: SECRET, previousSigningSecret: PREVIOUS_SECRET };

		it('accepts deliveries signed with the previous secret while it is set', async () => {
			const result = await deliver({
				...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
				credentials,
			});
			expect(result.started).toHaveLength(1);
		});

		it('accepts the service’s double signature (new and old v1) during the overlap', async () => {
			const body = event('evt_both');
			const header = formatSignatureHeader(NOW_S, [
				sign(SECRET, NOW_S, body),
				sign(PREVIOUS_SECRET, NOW_S, body),
			]);
			const result = await deliver({ body, headers: { 'service-signature': header }, credentials });
			expect(result.started).toHaveLength(1);
		});

		it('rejects the previous secret once it is cleared from the credential', async () => {
			const result = await deliver({
				...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
				credentials: { signingSecret: SECRET, previousSigningSecret: '' },
			});
			expect(result.status).toBe(401);
		});
	});

	describe('dedupe through the node', () => {
		it('answers a redelivery 200 {duplicate:true} and starts nothing', async () => {
			const workflow = newWorkflow();
			expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
			now += 60_000;
			const again = await deliver({ ...fresh(event('evt_1')), workflow });
			expect(again).toEqual({
				status: 200,
				body: { received: true, duplicate: true },
				started: undefined,
			});
		});

		it('starts exactly one of 20 concurrent deliveries of one id', async () => {
			const workflow = newWorkflow();
			const results = await Promise.all(
				Array.from({ length: 20 }, () => deliver({ ...fresh(event('evt_race')), workflow })),
			);
			expect(results.every((r) => r.status === 200)).toBe(true);
			expect(results.filter((r) => r.started)).toHaveLength(1);
			expect(results.filter((r) => (r.body as { duplicate?: boolean }).duplicate)).toHaveLength(19);
		});

		it('still knows the ids after a restart, from the persisted static data', async () => {
			const workflow = newWorkflow();
			for (const id of ['evt_a', 'evt_b', 'evt_c'])
				await deliver({ ...fresh(event(id)), workflow });
			restart(workflow);
			expect((await deliver({ ...fresh(event('evt_b')), workflow })).body).toEqual({
				received: true,
				duplicate: true,
			});
			expect((await deliver({ ...fresh(event('evt_d')), workflow })).started).toHaveLength(1);
		});

		it('forgets an id after the window (24 h + tolerance by default), not before', async () => {
			const workflow = newWorkflow();
			await deliver({ ...fresh(event('evt_1')), workflow });
			now += 24 * HOUR + 4 * 60_000;
			expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toBeUndefined();
			now += 3 * 60_000;
			expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
		});

		it('uses the configured window', async () => {
			const workflow = newWorkflow();
			const options = { dedupeWindowHours: 1 };
			await deliver({ ...fresh(event('evt_1')), workflow, options });
			now += 2 * HOUR;
			expect((await deliver({ ...fresh(event('evt_1')), workflow, options })).started).toHaveLength(
				1,
			);
		});

		it('keeps test-URL deliveries apart from production, and persists nothing for them', async () => {
			const workflow = newWorkflow();
			const test = await deliver({ ...fresh(event('evt_1')), workflow, mode: 'manual' });
			expect(test.started).toHaveLength(1);
			expect(workflow.staticData).toEqual({});
			expect(
				(await deliver({ ...fresh(event('evt_1')), workflow, mode: 'manual' })).started,
			).toBeUndefined();

			expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
			expect((await deliver({ ...fresh(event('evt_2')), workflow })).started).toHaveLength(1);
			expect(
				(await deliver({ ...fresh(event('evt_2')), workflow, mode: 'manual' })).started,
			).toHaveLength(1);
		});

		it('keeps workflows apart', async () => {
			expect(
				(await deliver({ ...fresh(event('evt_1')), workflow: newWorkflow('wf1') })).started,
			).toHaveLength(1);
			expect(
				(await deliver({ ...fresh(event('evt_1')), workflow: newWorkflow('wf2') })).started,
			).toHaveLength(1);
		});
	});
});

/**
 * The emulator's real signed deliveries, over real HTTP: a tiny local server hands each request's
 * exact bytes and headers to n8n's webhook handling and answers with what the node decided. Every
 * attempt is sent twice (duplicateRate 1) and batches are shuffled.
 */
describe('deliveries from the service emulator', () => {
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
		credentials = {
			signingSecret: 'whsec_not_the_right_one_0123456789',
			previousSigningSecret: '',
		};
		await emitEvents(organizationId);
		await emu.control.settle();
		expect(received.length).toBeGreaterThan(0);
		expect(received.every((r) => r.result.status === 401 && !r.result.started)).toBe(true);
		expect(emu.control.deliveries({ subscriptionId }).every((d) => d.state === 'pending')).toBe(
			true,
		);
	});
});
