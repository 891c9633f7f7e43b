/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import type { ClientInfo, Einvoice, SubscriptionInfo } from '..';
import { apiGet, tokenFor, useManualClockEmulator } from './helpers';
import { startReceiver, verifySignature } from './receiver';

describe('emulator: HTTP control API', () => {
	const emulator = useManualClockEmulator({ seed: true });

	async function call<T>(
		method: string,
		...args: unknown[]
	): Promise<{ status: number; result?: T; error?: string }> {
		const res = await fetch(`${emulator().controlUrl}/control/${method}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(args),
		});
		return { status: res.status, ...((await res.json()) as { result?: T; error?: string }) };
	}

	it('exposes the URLs and seeded clients at GET /control/info', async () => {
		const emu = emulator();
		const res = await fetch(`${emu.controlUrl}/control/info`);
		const { result } = (await res.json()) as { result: Record<string, unknown> };
		expect(result).toMatchObject({
			tokenUrl: emu.tokenUrl,
			productionUrl: emu.productionUrl,
			sandboxUrl: emu.sandboxUrl,
			realm: 'gst',
			seeded: emu.seeded,
		});
		expect(emu.seeded!.production.clientId).toMatch(/^svc_live_/);
		expect(emu.seeded!.sandbox.clientId).toMatch(/^svc_test_/);
	});

	it('drives clients, resources, plans, subscriptions, the clock and counters over HTTP', async () => {
		const emu = emulator();
		const { result: client } = await call<ClientInfo>('createClient', {
			environment: 'sandbox',
			plan: 'einvoice',
		});
		const scope = { organizationId: client!.organizationId, environment: 'sandbox' };
		const { result: invoice } = await call<Einvoice>('createEinvoice', scope);
		const { result: bill } = await call<{ id: string }>('createEwaybill', scope);
		const token = await tokenFor(emu, client!);
		expect((await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice!.id}`, token)).body).toEqual(
			invoice,
		);
		expect((await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill!.id}`, token)).status).toBe(403);
		expect((await call('setPlan', client!.organizationId, 'einvoice+ewaybill')).result).toBeNull();
		expect((await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill!.id}`, token)).status).toBe(200);

		const receiver = await startReceiver();
		try {
			const { result: sub } = await call<SubscriptionInfo>('createSubscription', {
				clientId: client!.clientId,
				url: receiver.url,
				events: ['einvoice.cancelled'],
			});
			const { result: event } = await call<{ id: string }>(
				'setEinvoiceStatus',
				invoice!.id,
				'cancelled',
			);
			await call('settle');
			expect(receiver.received.map((r) => r.body.id)).toEqual([event!.id]);
			const [{ headers, raw }] = receiver.received;
			const { result: now } = await call<number>('now');
			expect(
				verifySignature(String(headers['service-signature']), raw, sub!.signingSecret, now!),
			).toBe(true);
			const { result: log } = await call<Array<{ state: string }>>('deliveries', {
				subscriptionId: sub!.id,
			});
			expect(log).toEqual([expect.objectContaining({ state: 'delivered', attempts: 1 })]);
		} finally {
			await receiver.close();
		}

		await call('advance', 1000);
		expect((await call<number>('now')).result).toBe(emu.control.now());
		const { result: counters } = await call<{ tokenMints: Record<string, number> }>('counters');
		expect(counters!.tokenMints[client!.clientId]).toBe(1);
	});

	it('answers errors as { error } with 400 and unknown methods with 404', async () => {
		expect(await call('setPlan', 'org_x', 'platinum')).toMatchObject({
			status: 400,
			error: expect.stringMatching(/plan/),
		});
		expect(await call('rotateClientSecret', 'svc_test_missing')).toMatchObject({
			status: 400,
			error: expect.any(String),
		});
		expect(await call('noSuchMethod')).toMatchObject({ status: 404, error: expect.any(String) });
		const notArray = await fetch(`${emulator().controlUrl}/control/now`, {
			method: 'POST',
			body: '{"a":1}',
		});
		expect(notArray.status).toBe(400);
	});
});
