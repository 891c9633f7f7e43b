/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import type { ClientInfo, RunningEmulator } from '..';
import { apiGet, HOUR, tokenFor, useManualClockEmulator } from './helpers';
import { startReceiver, verifySignature, type Received } from './receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe('emulator: webhook delivery', () => {
	const emulator = useManualClockEmulator({ retryBaseMs: 1000, deliveryTimeoutMs: 500 });
	const receivers: Receiver[] = [];
	afterEach(async () => {
		emulator().control.setDeliveryFaults({});
		await Promise.all(receivers.splice(0).map((r) => r.close()));
	});

	/** A fresh tenant, a receiver answering with `respond`, and a subscription to `events`. */
	async function setup(events: string[], respond?: (r: Received, i: number) => number) {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const receiver = await startReceiver(respond);
		receivers.push(receiver);
		const sub = emu.control.createSubscription({
			clientId: client.clientId,
			url: receiver.url,
			events,
		});
		const scope = { organizationId: client.organizationId, environment: client.environment };
		return { emu, client, receiver, sub, scope };
	}

	const clockAt = (emu: RunningEmulator) => emu.control.now();

	it('POSTs a signed envelope whose data is exactly what the GET returns', async () => {
		const { emu, client, receiver, sub, scope } = await setup(['einvoice.generated']);
		const invoice = emu.control.createEinvoice(scope);
		await emu.control.settle();
		expect(receiver.received).toHaveLength(1);
		const [{ headers, raw, body }] = receiver.received;
		expect(headers['content-type']).toBe('application/json');
		expect(
			verifySignature(String(headers['service-signature']), raw, sub.signingSecret, clockAt(emu)),
		).toBe(true);
		expect(
			verifySignature(String(headers['service-signature']), raw, 'whsec_wrong', clockAt(emu)),
		).toBe(false);
		expect(String(headers['service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
		expect(body.id).toMatch(/^evt_/);
		expect(body.type).toBe('einvoice.generated');
		expect(body.createdAt).toBe(new Date(clockAt(emu)).toISOString());
		const got = await apiGet(
			emu.sandboxUrl,
			`/v1/einvoices/${invoice.id}`,
			await tokenFor(emu, client),
		);
		expect(body.data).toEqual(got.body);
		expect(emu.control.deliveries({ subscriptionId: sub.id })).toEqual([
			expect.objectContaining({
				eventId: body.id,
				eventType: 'einvoice.generated',
				state: 'delivered',
				attempts: 1,
				lastStatusCode: 200,
				lastResponseBody: 'answer 200',
				nextAttemptAt: null,
				acknowledgedAfterMs: expect.any(Number),
				acknowledgedAt: expect.any(Number),
			}),
		]);
	});

	it('delivers only the subscribed types of the subscription tenant and environment', async () => {
		const { emu, client, receiver, scope } = await setup([
			'einvoice.cancelled',
			'ewaybill.rejected',
			'einvoice.paid',
		]);
		const invoice = emu.control.createEinvoice(scope);
		emu.control.createEinvoice({ ...scope, environment: 'production' });
		const stranger = emu.control.createClient({ environment: 'sandbox' });
		emu.control.setEinvoiceStatus(
			emu.control.createEinvoice({
				organizationId: stranger.organizationId,
				environment: 'sandbox',
			}).id,
			'cancelled',
		);
		await emu.control.settle();
		expect(receiver.received).toHaveLength(0);
		const cancelled = emu.control.setEinvoiceStatus(invoice.id, 'cancelled');
		const bill = emu.control.createEwaybill(scope);
		const rejected = emu.control.setEwaybillStatus(bill.id, 'rejected');
		emu.control.setEwaybillStatus(bill.id, 'expired');
		const future = emu.control.emitEvent({
			clientId: client.clientId,
			type: 'einvoice.paid',
			data: { id: invoice.id },
		});
		emu.control.emitEvent({ clientId: client.clientId, type: 'einvoice.archived', data: {} });
		await emu.control.settle();
		expect(receiver.received.map((r) => r.body.id).sort()).toEqual(
			[cancelled.id, rejected.id, future.id].sort(),
		);
		expect(cancelled).toMatchObject({
			type: 'einvoice.cancelled',
			data: { id: invoice.id, status: 'cancelled' },
		});
	});

	it('maps every state of the spec to its event type', () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const scope = { organizationId: client.organizationId, environment: 'sandbox' as const };
		const invoice = emu.control.createEinvoice(scope).id;
		const bill = emu.control.createEwaybill(scope).id;
		expect(emu.control.setEinvoiceStatus(invoice, 'failed_terminal').type).toBe('einvoice.failed');
		expect(emu.control.setEinvoiceStatus(invoice, 'generated').type).toBe('einvoice.generated');
		expect(emu.control.setEwaybillStatus(bill, 'cancelled').type).toBe('ewaybill.cancelled');
		expect(emu.control.setEwaybillStatus(bill, 'generated').type).toBe('ewaybill.generated');
		expect(() => emu.control.setEinvoiceStatus(invoice, 'expired' as never)).toThrow();
	});

	it('retries failed deliveries with exponential backoff until a 2xx', async () => {
		const times: number[] = [];
		const { emu, receiver, sub, scope } = await setup(['einvoice.generated'], (_r, i) => {
			times.push(emulator().control.now());
			return i < 3 ? 503 : 204;
		});
		emu.control.createEinvoice(scope);
		await emu.control.settle();
		const [pending] = emu.control.deliveries({ subscriptionId: sub.id });
		expect(pending).toMatchObject({
			state: 'pending',
			attempts: 1,
			lastStatusCode: 503,
			lastResponseBody: 'answer 503',
		});
		expect(pending.nextAttemptAt! - clockAt(emu)).toBeGreaterThanOrEqual(1000);
		await emu.control.advance(10_000);
		expect(receiver.received).toHaveLength(4);
		// same event id each time
		expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(1);
		const gaps = times.slice(1).map((t, i) => t - times[i]);
		[1000, 2000, 4000].forEach((base, i) => {
			expect(gaps[i]).toBeGreaterThanOrEqual(base);
			expect(gaps[i]).toBeLessThanOrEqual(base * 1.1);
		});
		// Each attempt is signed afresh with the clock time of that attempt.
		receiver.received.forEach((r, i) =>
			expect(
				verifySignature(String(r.headers['service-signature']), r.raw, sub.signingSecret, times[i]),
			).toBe(true),
		);
		expect(emu.control.deliveries({ subscriptionId: sub.id })[0]).toMatchObject({
			state: 'delivered',
			attempts: 4,
			lastStatusCode: 204,
		});
	});

	it('treats network errors and timeouts as failed deliveries', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const closed = await startReceiver();
		await closed.close();
		const hung = await import('http').then(({ createServer }) => createServer(() => undefined));
		await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
		const hungUrl = `http://127.0.0.1:${(hung.address() as { port: number }).port}/`;
		const subs = [closed.url, hungUrl].map((url) =>
			emu.control.createSubscription({
				clientId: client.clientId,
				url,
				events: ['einvoice.generated'],
			}),
		);
		emu.control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' });
		await emu.control.settle();
		const [refused, timedOut] = subs.map(
			(s) => emu.control.deliveries({ subscriptionId: s.id })[0],
		);
		expect(refused).toMatchObject({
			state: 'pending',
			attempts: 1,
			lastStatusCode: null,
			lastError: expect.stringMatching(/ECONNREFUSED/),
		});
		expect(timedOut).toMatchObject({
			state: 'pending',
			attempts: 1,
			lastStatusCode: null,
			lastError: expect.stringMatching(/timed out/),
		});
		subs.forEach((s) => emu.control.setSubscriptionActive(s.id, false));
		await new Promise<void>((resolve) => {
			hung.close(() => resolve());
			hung.closeAllConnections();
		});
	});

	it('dead-letters after 24 h of retries', async () => {
		const { emu, receiver, sub, scope } = await setup(['einvoice.generated'], () => 500);
		const start = clockAt(emu);
		emu.control.createEinvoice(scope);
		// A retry is at most 1 h plus 10 % jitter away, so before 22.9 h the next one always fits.
		await emu.control.advance(22 * HOUR);
		expect(emu.control.deliveries({ subscriptionId: sub.id })[0].state).toBe('pending');
		await emu.control.advance(3 * HOUR);
		const [dead] = emu.control.deliveries({ subscriptionId: sub.id });
		expect(dead).toMatchObject({
			state: 'dead',
			lastStatusCode: 500,
			nextAttemptAt: null,
			acknowledgedAfterMs: null,
		});
		expect(dead.attempts).toBe(receiver.received.length);
		// Every attempt failed, one after another: the longest run of failures is all of them.
		expect(emu.control.subscriptions().find((s) => s.id === sub.id)?.longestFailureRun).toBe(
			dead.attempts,
		);
		expect(dead.attempts).toBeGreaterThan(20);
		expect(dead.attempts).toBeLessThan(50);
		const everyDead = emu.control.deliveries().filter((d) => d.state === 'dead');
		expect(everyDead).toContainEqual(dead);
		expect(emu.control.counters().deadLettered).toBe(everyDead.length);
		// The last attempt happened inside the 24 h window, and the subscription stays active.
		const lastT = Number(
			/t=(\d+)/.exec(String(receiver.received.at(-1)!.headers['service-signature']))![1],
		);
		expect(lastT * 1000).toBeLessThanOrEqual(start + 24 * HOUR);
		expect(lastT * 1000).toBeGreaterThan(start + 22 * HOUR);
		expect(emu.control.subscriptions().find((s) => s.id === sub.id)!.active).toBe(true);
	});

	it('deactivates a subscription after 50 consecutive failed deliveries; re-enabling resumes', async () => {
		let healthy = false;
		const { emu, receiver, sub, scope } = await setup(
			['einvoice.generated', 'einvoice.cancelled'],
			() => (healthy ? 200 : 500),
		);
		const invoices = [1, 2, 3].map(() => emu.control.createEinvoice(scope));
		await emu.control.advance(25 * HOUR);
		const info = emu.control.subscriptions().find((s) => s.id === sub.id)!;
		expect(info).toMatchObject({ active: false, consecutiveFailures: 50 });
		expect(receiver.received).toHaveLength(50);
		expect(
			emu.control.deliveries({ subscriptionId: sub.id }).every((d) => d.state === 'dead'),
		).toBe(true);
		emu.control.setEinvoiceStatus(invoices[0].id, 'cancelled');
		await emu.control.settle();
		expect(receiver.received).toHaveLength(50); // inactive: nothing sent
		healthy = true;
		emu.control.setSubscriptionActive(sub.id, true);
		const event = emu.control.setEinvoiceStatus(invoices[1].id, 'cancelled');
		await emu.control.settle();
		expect(receiver.received.at(-1)!.body.id).toBe(event.id);
		expect(emu.control.subscriptions().find((s) => s.id === sub.id)).toMatchObject({
			active: true,
			consecutiveFailures: 0,
		});
	});

	it('a 2xx resets the consecutive failure count', async () => {
		const { emu, sub, scope } = await setup(['einvoice.generated'], (_r, i) =>
			i === 2 ? 200 : 500,
		);
		emu.control.createEinvoice(scope);
		emu.control.createEinvoice(scope);
		await emu.control.settle();
		expect(emu.control.subscriptions().find((s) => s.id === sub.id)!.consecutiveFailures).toBe(2);
		await emu.control.advance(1500);
		expect(
			emu.control.subscriptions().find((s) => s.id === sub.id)!.consecutiveFailures,
		).toBeLessThan(2);
	});

	it('replays a delivered or dead-lettered delivery with the same event id', async () => {
		let healthy = false;
		const { emu, receiver, sub, scope } = await setup(['einvoice.generated'], () =>
			healthy ? 200 : 500,
		);
		emu.control.createEinvoice(scope);
		await emu.control.advance(25 * HOUR);
		const [dead] = emu.control.deliveries({ subscriptionId: sub.id });
		expect(dead.state).toBe('dead');
		healthy = true;
		const replayed = await emu.control.replay(dead.id);
		expect(replayed).toMatchObject({
			id: dead.id,
			state: 'delivered',
			attempts: dead.attempts + 1,
			lastStatusCode: 200,
		});
		const again = await emu.control.replay(dead.id);
		expect(again).toMatchObject({ state: 'delivered', attempts: dead.attempts + 2 });
		const last = receiver.received.slice(-2);
		expect(last.map((r) => r.body.id)).toEqual([dead.eventId, dead.eventId]);
		expect(
			verifySignature(
				String(last[1].headers['service-signature']),
				last[1].raw,
				sub.signingSecret,
				clockAt(emu),
			),
		).toBe(true);
	});

	it('signs with the new secret after rotation, adds the old one for 24 h, then drops it', async () => {
		const { emu, receiver, sub, scope } = await setup(['einvoice.generated']);
		const { signingSecret } = emu.control.rotateSigningSecret(sub.id);
		expect(signingSecret).not.toBe(sub.signingSecret);
		expect(emu.control.subscriptions().find((s) => s.id === sub.id)!.signingSecret).toBe(
			signingSecret,
		);
		emu.control.createEinvoice(scope);
		await emu.control.settle();
		let { headers, raw } = receiver.received[0];
		let header = String(headers['service-signature']);
		expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
		expect(
			verifySignature(header.split(',').slice(0, 2).join(','), raw, signingSecret, clockAt(emu)),
		).toBe(true);
		expect(verifySignature(header, raw, sub.signingSecret, clockAt(emu))).toBe(true);
		await emu.control.advance(24 * HOUR);
		emu.control.createEinvoice(scope);
		await emu.control.settle();
		({ headers, raw } = receiver.received[1]);
		header = String(headers['service-signature']);
		expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		expect(verifySignature(header, raw, signingSecret, clockAt(emu))).toBe(true);
		expect(verifySignature(header, raw, sub.signingSecret, clockAt(emu))).toBe(false);
	});

	it('injects duplicate deliveries', async () => {
		const { emu, receiver, sub, scope } = await setup(['einvoice.generated']);
		emu.control.setDeliveryFaults({ duplicateRate: 1 });
		const before = emu.control.counters().deliveryAttempts;
		emu.control.createEinvoice(scope);
		await emu.control.settle();
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[0].raw.equals(receiver.received[1].raw)).toBe(true);
		expect(emu.control.deliveries({ subscriptionId: sub.id })[0]).toMatchObject({
			state: 'delivered',
			attempts: 1,
		});
		expect(emu.control.counters().deliveryAttempts - before).toBe(2);
	});

	it('injects reordering in batches and delay on the clock', async () => {
		const { emu, receiver, scope } = await setup(['einvoice.generated']);
		emu.control.setDeliveryFaults({ reorderWindow: 4 });
		const ids = [1, 2, 3, 4].map(() => emu.control.createEinvoice(scope).id);
		await emu.control.settle();
		const order = receiver.received.map((r) => r.body.data.id);
		expect([...order].sort()).toEqual([...ids].sort());
		expect(order).not.toEqual(ids);

		emu.control.setDeliveryFaults({ delayMs: 5000 });
		emu.control.createEinvoice(scope);
		await emu.control.advance(4999);
		expect(receiver.received).toHaveLength(4);
		await emu.control.advance(1);
		expect(receiver.received).toHaveLength(5);
	});

	it('counts delivery attempts and outcomes', async () => {
		const { emu, scope } = await setup(['einvoice.generated'], (_r, i) => (i === 0 ? 500 : 200));
		emu.control.resetCounters();
		emu.control.createEinvoice(scope);
		await emu.control.advance(2000);
		expect(emu.control.counters()).toMatchObject({
			deliveryAttempts: 2,
			deliveriesSucceeded: 1,
			deliveriesFailed: 1,
			deadLettered: 0,
		});
	});

	it('rejects subscriptions for unknown clients or non-http URLs', () => {
		const emu = emulator();
		const client: ClientInfo = emu.control.createClient({ environment: 'production' });
		expect(() =>
			emu.control.createSubscription({ clientId: 'svc_live_nope', url: 'http://x/', events: [] }),
		).toThrow();
		expect(() =>
			emu.control.createSubscription({ clientId: client.clientId, url: 'ftp://x/', events: [] }),
		).toThrow();
	});
});
