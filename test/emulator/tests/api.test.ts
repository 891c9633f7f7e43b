/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import { request } from 'http';
import { apiGet, MINUTE, tokenFor, useManualClockEmulator } from './helpers';

describe('emulator: API hosts', () => {
	const emulator = useManualClockEmulator({ apiRateLimitPerMinute: 5 });

	async function tenant(plan: 'einvoice' | 'einvoice+ewaybill' = 'einvoice+ewaybill') {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox', plan });
		const scope = { organizationId: client.organizationId, environment: 'sandbox' as const };
		return { emu, client, scope, token: await tokenFor(emu, client) };
	}

	it('returns the e-invoice and e-way bill of the token organization with the spec fields', async () => {
		const { emu, scope, token } = await tenant();
		const invoice = emu.control.createEinvoice({ ...scope, fields: { totalInvoiceValue: 1180 } });
		const bill = emu.control.createEwaybill({ ...scope, status: 'expired' });
		const got = await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice.id}`, token);
		expect(got.status).toBe(200);
		expect(got.headers.get('content-type')).toMatch(/^application\/json/);
		expect(got.body).toEqual(invoice);
		expect(Object.keys(got.body).sort()).toEqual(
			[
				'ackDate',
				'ackNumber',
				'id',
				'invoiceNumber',
				'irn',
				'object',
				'sellerGstin',
				'status',
				'totalInvoiceValue',
			].sort(),
		);
		expect(got.body).toMatchObject({
			object: 'einvoice',
			status: 'generated',
			totalInvoiceValue: 1180,
		});
		expect(got.body.id).toMatch(/^einv_/);
		const gotBill = await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill.id}`, token);
		expect(gotBill).toMatchObject({
			status: 200,
			body: { ...bill, object: 'ewaybill', status: 'expired' },
		});
	});

	it('answers 404 revealing nothing for another organization or environment, same as a missing id', async () => {
		const { emu, scope, token } = await tenant();
		const other = emu.control.createClient({ environment: 'sandbox' });
		const foreign = emu.control.createEinvoice({
			organizationId: other.organizationId,
			environment: 'sandbox',
		});
		const ownLive = emu.control.createEinvoice({ ...scope, environment: 'production' });
		const missing = await apiGet(emu.sandboxUrl, '/v1/einvoices/einv_doesnotexist', token);
		expect(missing.status).toBe(404);
		for (const id of [foreign.id, ownLive.id]) {
			const res = await apiGet(emu.sandboxUrl, `/v1/einvoices/${id}`, token);
			expect(res.status).toBe(404);
			expect(res.body).toEqual(missing.body);
			expect(JSON.stringify(res.body)).not.toContain(id);
		}
		expect(missing.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
		// The credential's Test tells the API from a host that ignores tokens by this (connectionCheck.ts).
		const withoutToken = await apiGet(emu.sandboxUrl, '/v1/einvoices/einv_doesnotexist');
		expect(withoutToken).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
	});

	it('rejects e-way bills on an e-invoice-only plan after authentication, switchable at runtime', async () => {
		const { emu, client, scope, token } = await tenant('einvoice');
		const bill = emu.control.createEwaybill(scope);
		const invoice = emu.control.createEinvoice(scope);
		const denied = await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill.id}`, token);
		expect(denied.status).toBe(403);
		expect(denied.body).toEqual({
			error: {
				code: 'entitlement_denied',
				message: 'Your plan does not include e-way bills',
				capability: 'ewaybill',
			},
		});
		// authentication first
		expect((await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill.id}`)).status).toBe(401);
		expect((await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice.id}`, token)).status).toBe(200);
		emu.control.setPlan(client.organizationId, 'einvoice+ewaybill');
		// same token
		expect((await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill.id}`, token)).status).toBe(200);
		emu.control.setPlan(client.organizationId, 'einvoice');
		expect((await apiGet(emu.sandboxUrl, `/v1/ewaybills/${bill.id}`, token)).status).toBe(403);
	});

	it('answers unknown paths and methods with JSON errors', async () => {
		const { emu, token } = await tenant();
		const unknown = await apiGet(emu.sandboxUrl, '/v2/nothing', token);
		expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
		const post = await fetch(`${emu.sandboxUrl}/v1/einvoices/einv_x`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}` },
		});
		expect(post.status).toBe(405);
		expect(((await post.json()) as { error: { code: string } }).error.code).toBe(
			'method_not_allowed',
		);
	});

	it('rate-limits per client per minute across all endpoints (429 + Retry-After), then resets', async () => {
		const { emu, client, scope, token } = await tenant();
		const neighbour = await tenant();
		const invoice = emu.control.createEinvoice(scope);
		const bill = emu.control.createEwaybill(scope);
		await emu.control.advance(MINUTE - (emu.control.now() % MINUTE)); // start of a fresh window
		const paths = [`/v1/einvoices/${invoice.id}`, `/v1/ewaybills/${bill.id}`, '/v1/unknown'];
		const statuses: number[] = [];
		for (let i = 0; i < 6; i++)
			statuses.push((await apiGet(emu.sandboxUrl, paths[i % 3], token)).status);
		expect(statuses).toEqual([200, 200, 404, 200, 200, 429]);
		const limited = await apiGet(emu.sandboxUrl, paths[0], token);
		expect(limited.body.error?.code).toBe('rate_limited');
		expect(Number(limited.headers.get('retry-after'))).toBe(60);
		// own budget
		expect((await apiGet(emu.sandboxUrl, paths[0], neighbour.token)).status).toBe(404);
		await emu.control.advance(30_000);
		expect(Number((await apiGet(emu.sandboxUrl, paths[0], token)).headers.get('retry-after'))).toBe(
			30,
		);
		await emu.control.advance(30_000);
		expect((await apiGet(emu.sandboxUrl, paths[0], token)).status).toBe(200);
		expect(emu.control.counters().apiCalls[client.clientId]).toBe(9);
	});

	it('plays injected API faults: a status with Retry-After, then a reset socket', async () => {
		const { emu, scope, token } = await tenant();
		const invoice = emu.control.createEinvoice(scope);
		const path = `/v1/einvoices/${invoice.id}`;
		emu.control.injectApiFaults([
			{ kind: 'status', status: 503, retryAfterSeconds: 2 },
			{ kind: 'reset' },
		]);
		const first = await apiGet(emu.sandboxUrl, path, token);
		expect(first.status).toBe(503);
		expect(first.headers.get('retry-after')).toBe('2');
		await expect(
			fetch(emu.sandboxUrl + path, { headers: { Authorization: `Bearer ${token}` } }),
		).rejects.toThrow();
		expect((await apiGet(emu.sandboxUrl, path, token)).status).toBe(200);
	});

	it('plays injected token faults: status, garbage and a request that is never answered', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		emu.control.injectTokenFaults([
			{ kind: 'status', status: 500 },
			{ kind: 'garbage' },
			{ kind: 'timeout' },
		]);
		const form = {
			grant_type: 'client_credentials',
			client_id: client.clientId,
			client_secret: client.clientSecret,
		};
		const post = (signal?: AbortSignal) =>
			fetch(emu.tokenUrl, { method: 'POST', body: new URLSearchParams(form), signal });
		expect((await post()).status).toBe(500);
		const garbage = await post();
		expect(garbage.status).toBe(200);
		await expect(garbage.json()).rejects.toThrow();
		await expect(post(AbortSignal.timeout(200))).rejects.toThrow();
		expect((await post()).status).toBe(200);
	});

	it('counts API calls per client and the peak of concurrently open API sockets', async () => {
		const { emu, client, scope, token } = await tenant();
		const invoice = emu.control.createEinvoice(scope);
		emu.control.resetCounters();
		const sockets = await Promise.all(
			[0, 1, 2].map(
				() =>
					new Promise<() => void>((resolve, reject) => {
						const req = request(`${emu.productionUrl}/v1/einvoices/${invoice.id}`, {
							agent: false,
							headers: { Authorization: `Bearer ${token}` },
						});
						req.on('response', (res) => {
							res.resume();
							resolve(() => req.destroy());
						});
						req.on('error', reject);
						req.end();
					}),
			),
		);
		const counters = emu.control.counters();
		expect(counters.maxConcurrentApiSockets).toBeGreaterThanOrEqual(3);
		expect(counters.apiRequestsTotal).toBe(3);
		// sandbox client on the production host: 401, not counted
		expect(counters.apiCalls).toEqual({});
		sockets.forEach((close) => close());
		await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice.id}`, token);
		expect(emu.control.counters().apiCalls).toEqual({ [client.clientId]: 1 });
	});
});
