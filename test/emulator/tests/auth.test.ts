/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import { createHmac } from 'crypto';
import { MANUAL_CLOCK_START, startEmulator } from '..';
import {
	apiGet,
	credentials,
	decodeJwt,
	HOUR,
	MINUTE,
	requestToken,
	tokenFor,
	useManualClockEmulator,
} from './helpers';

describe('emulator: token endpoint and authentication', () => {
	const emulator = useManualClockEmulator({ tokenRateLimitPerMinute: 5 });

	it('mints a Bearer JWT with the spec claims (aud, organization_id, exp = iat + 900)', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		expect(client.clientId).toMatch(/^svc_test_/);
		const res = await requestToken(emu, credentials(client));
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			access_token: expect.any(String),
			expires_in: 900,
			token_type: 'Bearer',
			scope: 'service.api',
		});
		const { header, claims } = decodeJwt(String(res.body.access_token));
		expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
		const iat = Math.floor(emu.control.now() / 1000);
		expect(claims).toMatchObject({
			aud: 'service.api',
			organization_id: client.organizationId,
			client_id: client.clientId,
			azp: client.clientId,
			environment: 'sandbox',
			iat,
			exp: iat + 900,
		});
		expect(emu.control.now()).toBe(MANUAL_CLOCK_START);
		expect(emu.authUrl).not.toBe(emu.sandboxUrl);
		expect(emu.tokenUrl).toBe(`${emu.authUrl}/realms/gst/protocol/openid-connect/token`);
	});

	it('makes expires_in and exp configurable (tokenTtlSeconds)', async () => {
		const emu = await startEmulator({ clock: 'manual', seed: false, tokenTtlSeconds: 5 });
		try {
			const client = emu.control.createClient({ environment: 'production' });
			const res = await requestToken(emu, credentials(client));
			expect(res.body.expires_in).toBe(5);
			const { claims } = decodeJwt(String(res.body.access_token));
			expect(Number(claims.exp) - Number(claims.iat)).toBe(5);
		} finally {
			await emu.stop();
		}
	});

	it('issues production clients with svc_live_ and sandbox clients with svc_test_', () => {
		const emu = emulator();
		expect(emu.control.createClient({ environment: 'production' }).clientId).toMatch(
			/^svc_live_[0-9a-f]{24}$/,
		);
		expect(() =>
			emu.control.createClient({ environment: 'production', clientId: 'svc_test_x' }),
		).toThrow();
	});

	it('rejects a token request that carries scope with 400', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const res = await requestToken(emu, { ...credentials(client), scope: 'einvoice.read' });
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('invalid_scope');
	});

	it('answers 401 to a wrong secret and to an unknown client', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		expect((await requestToken(emu, credentials(client, 'nope'))).status).toBe(401);
		expect(
			(await requestToken(emu, { ...credentials(client), client_id: 'svc_test_unknown' })).status,
		).toBe(401);
	});

	it('accepts only form-encoded client_credentials requests', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		expect((await requestToken(emu, credentials(client), 'application/json')).status).toBe(400);
		const wrongGrant = await requestToken(emu, { ...credentials(client), grant_type: 'password' });
		expect(wrongGrant).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
	});

	it('rate-limits token requests per client with 429 and Retry-After, then recovers next minute', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const other = emu.control.createClient({ environment: 'sandbox' });
		const statuses: number[] = [];
		for (let i = 0; i < 6; i++)
			statuses.push((await requestToken(emu, credentials(client))).status);
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
		const limited = await requestToken(emu, credentials(client));
		expect(limited.status).toBe(429);
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(60);
		expect((await requestToken(emu, credentials(other))).status).toBe(200); // per client
		await emu.control.advance(retryAfter * 1000);
		expect((await requestToken(emu, credentials(client))).status).toBe(200);
		const counters = emu.control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(6);
		expect(counters.tokenRequests[client.clientId]).toBe(8);
	});

	it('keeps the old secret for 24 h after rotation, then revokes it', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'production' });
		const { clientSecret } = emu.control.rotateClientSecret(client.clientId);
		expect(clientSecret).not.toBe(client.clientSecret);
		expect((await requestToken(emu, credentials(client))).status).toBe(200);
		expect((await requestToken(emu, credentials(client, clientSecret))).status).toBe(200);
		await emu.control.advance(24 * HOUR - MINUTE);
		expect((await requestToken(emu, credentials(client))).status).toBe(200);
		await emu.control.advance(MINUTE);
		expect((await requestToken(emu, credentials(client))).status).toBe(401);
		expect((await requestToken(emu, credentials(client, clientSecret))).status).toBe(200);
	});

	it('rejects an expired token with 401 once exp passes on the clock', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const invoice = emu.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const token = await tokenFor(emu, client);
		await emu.control.advance(900_000 - 1000);
		expect((await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice.id}`, token)).status).toBe(200);
		await emu.control.advance(1000);
		const expired = await apiGet(emu.sandboxUrl, `/v1/einvoices/${invoice.id}`, token);
		expect(expired.status).toBe(401);
		expect(expired.body.error?.code).toBe('unauthorized');
	});

	it('rejects forged, tampered, alg=none, malformed and missing tokens with 401', async () => {
		const emu = emulator();
		const client = emu.control.createClient({ environment: 'sandbox' });
		const invoice = emu.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const path = `/v1/einvoices/${invoice.id}`;
		const token = await tokenFor(emu, client);
		const [header, payload] = token.split('.');
		const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
		const claims = decodeJwt(token).claims;
		const forge = (body: unknown, key = 'guessed-key') => {
			const input = `${header}.${b64(body)}`;
			return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
		};
		const tampered = `${header}.${b64({ ...claims, organization_id: 'org_other' })}.${token.split('.')[2]}`;
		const none = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
		for (const bad of [forge(claims), tampered, none, 'not-a-jwt']) {
			expect((await apiGet(emu.sandboxUrl, path, bad)).status).toBe(401);
		}
		expect((await apiGet(emu.sandboxUrl, path)).status).toBe(401);
		expect((await apiGet(emu.sandboxUrl, path, token)).status).toBe(200);
	});

	it('answers 401 when a client is used against the other environment host', async () => {
		const emu = emulator();
		const live = emu.control.createClient({ environment: 'production' });
		const test = emu.control.createClient({
			environment: 'sandbox',
			organizationId: live.organizationId,
		});
		const liveInvoice = emu.control.createEinvoice({
			organizationId: live.organizationId,
			environment: 'production',
		});
		const liveToken = await tokenFor(emu, live);
		const testToken = await tokenFor(emu, test);
		expect(
			(await apiGet(emu.productionUrl, `/v1/einvoices/${liveInvoice.id}`, liveToken)).status,
		).toBe(200);
		expect(
			(await apiGet(emu.sandboxUrl, `/v1/einvoices/${liveInvoice.id}`, liveToken)).status,
		).toBe(401);
		expect(
			(await apiGet(emu.productionUrl, `/v1/einvoices/${liveInvoice.id}`, testToken)).status,
		).toBe(401);
	});
});
