/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The token cache: keys, refresh margin, bounds and single flight on its own, then against the
 * emulator over real HTTP (single flight, refresh, rotation, 401 handling).
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { gstApiRequest } from '../../../../transport/apiRequest';
import { GstCredentialError } from '../../../../credentials/GstComplianceApi/credentialError';
import {
	cacheKey,
	TokenCache,
	tokenCache,
} from '../../../../credentials/GstComplianceApi/tokenCache';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import type { ClientInfo } from '../../../emulator';
import { executeContext } from '../../helpers/executeNode';
import { recordOutboundRequests } from '../../helpers/outboundRequests';
import { credentialData, useEmulatorForPackage } from '../../helpers/emulatorForPackage';

const base = {
	environment: 'sandbox',
	clientId: 'svc_test_abc',
	clientSecret: 's3cret-value',
	authUrl: 'https://auth.example.com/',
	realm: 'gst',
	productionApiUrl: 'https://api.example.com',
	sandboxApiUrl: 'https://sandbox.example.com/',
};

describe('TokenCache (without network)', () => {
	let now = 0;
	beforeEach(() => {
		now = 0;
		configureSettings({ now: () => now, tokenCacheSize: 3 });
	});
	afterEach(() => resetSettings());

	const credentials = (secret: string) => parseCredentials({ ...base, clientSecret: secret });
	const minting = () => {
		const mints: string[] = [];
		const cache = new TokenCache(async (c) => {
			mints.push(c.clientSecret);
			await new Promise((resolve) => setImmediate(resolve));
			return { accessToken: `token-${mints.length}`, requestedAt: now, lifetimeMs: 900_000 };
		});
		return { cache, mints };
	};

	it('keys by a hash that holds no plaintext secret, and differs per secret', () => {
		const key = cacheKey(credentials('s3cret-value'));
		expect(key).toMatch(/^[0-9a-f]{64}$/);
		expect(key).not.toContain('s3cret');
		expect(cacheKey(credentials('other'))).not.toBe(key);
	});

	it('re-mints only when fewer than 60 s remain', async () => {
		const { cache, mints } = minting();
		await cache.getToken(credentials('a'));
		now = 839_999;
		await cache.getToken(credentials('a'));
		expect(mints).toHaveLength(1);
		now = 840_000;
		await cache.getToken(credentials('a'));
		expect(mints).toHaveLength(2);
	});

	it('is bounded (LRU)', async () => {
		const { cache, mints } = minting();
		for (const secret of ['a', 'b', 'c', 'd']) await cache.getToken(credentials(secret));
		expect(cache.size).toBe(3);
		await cache.getToken(credentials('d'));
		await cache.getToken(credentials('a'));
		expect(mints).toEqual(['a', 'b', 'c', 'd', 'a']);
	});

	it('invalidates only a token minted before the request started', async () => {
		const { cache } = minting();
		await cache.getToken(credentials('a'));
		const serialAtStart = cache.lastSerial;
		expect(cache.invalidate(credentials('a'), serialAtStart - 1)).toBe(false);
		expect(cache.invalidate(credentials('a'), serialAtStart)).toBe(true);
		expect(cache.peek(credentials('a'))).toBeUndefined();
	});

	it('shares one failing flight and lets the next caller try again', async () => {
		let calls = 0;
		const cache = new TokenCache(async () => {
			calls++;
			await new Promise((resolve) => setImmediate(resolve));
			throw new GstCredentialError('unreachable', 'down');
		});
		const results = await Promise.allSettled(
			Array.from({ length: 10 }, async () => await cache.getToken(credentials('a'))),
		);
		expect(results.every((r) => r.status === 'rejected')).toBe(true);
		expect(calls).toBe(1);
		await expect(cache.getToken(credentials('a'))).rejects.toThrow('down');
		expect(calls).toBe(2);
	});
});

describe('token cache against the emulator (manual clock)', () => {
	const outbound = recordOutboundRequests();
	beforeEach(() => outbound.reset());
	const emulator = useEmulatorForPackage({ clock: 'manual' });
	let client: ClientInfo;
	let einvoiceId: string;

	beforeEach(() => {
		const { control } = emulator();
		client = control.createClient({ environment: 'sandbox' });
		einvoiceId = control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		}).id;
	});

	const context = (data = credentialData(emulator(), client)) =>
		executeContext({ parameters: {}, credentials: { gstComplianceApi: data } }).context;
	const get = async (ctx = context()) =>
		await gstApiRequest.call(ctx, 'GET', `/v1/einvoices/${einvoiceId}`);

	it('mints exactly one token for 100 concurrent requests on a cold cache', async () => {
		const ctx = context();
		const results = await Promise.all(Array.from({ length: 100 }, async () => await get(ctx)));
		expect(results.every((result) => result.id === einvoiceId)).toBe(true);
		const counters = emulator().control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.tokenRequests[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(100);
	});

	it('mints ceil(3600/840) tokens over a simulated hour of steady calls, none failing as expired', async () => {
		const { control } = emulator();
		const ctx = context();
		const stepMs = 30_000;
		for (let elapsed = 0; elapsed < 3_600_000; elapsed += stepMs) {
			await get(ctx);
			await control.advance(stepMs);
		}
		// Token requests go through the same helper (n8n's outbound policy); count the API calls.
		const statuses = outbound.requests
			.filter((entry) => entry.method === 'GET')
			.map((entry) => entry.status);
		expect(statuses).toHaveLength(120);
		expect(statuses.every((status) => status === 200)).toBe(true);
		expect(control.counters().tokenMints[client.clientId]).toBe(Math.ceil(3600 / 840));
	});

	it('uses a token minted with the new secret right after rotation; the old secret keeps working for 24 h', async () => {
		const { control } = emulator();
		const oldData = credentialData(emulator(), client);
		await get(context(oldData));
		const oldToken = tokenCache.peek(parseCredentials(oldData))!.accessToken;

		const { clientSecret } = control.rotateClientSecret(client.clientId);
		const newData = { ...oldData, clientSecret };
		await get(context(newData));
		const newToken = tokenCache.peek(parseCredentials(newData))!.accessToken;
		expect(newToken).not.toBe(oldToken);
		expect(control.counters().tokenMints[client.clientId]).toBe(2);

		// Overlap: a cold cache with the old secret still mints and works.
		tokenCache.clear();
		await expect(get(context(oldData))).resolves.toMatchObject({ id: einvoiceId });
		expect(control.counters().tokenMints[client.clientId]).toBe(3);

		// After 24 h the old secret is revoked; the new one keeps working.
		await control.advance(24 * 3600_000 + 1000);
		tokenCache.clear();
		await expect(get(context(oldData))).rejects.toThrow(/rejected the client id or secret/);
		await expect(get(context(newData))).resolves.toMatchObject({ id: einvoiceId });
	});

	it.each([
		['sandbox', 'svc_live_0123'],
		['production', 'svc_test_0123'],
		['sandbox', 'acme_0123'],
	])(
		'fails a %s credential with client id %s before any network call',
		async (environment, clientId) => {
			const data = credentialData(emulator(), client, { environment, clientId });
			await expect(get(context(data))).rejects.toThrow(/Client ID (starts with|prefix)/);
			const counters = emulator().control.counters();
			expect(counters.tokenRequestsTotal).toBe(0);
			expect(counters.apiRequestsTotal).toBe(0);
		},
	);

	it('re-mints once and retries once when the API answers 401', async () => {
		const { control } = emulator();
		const ctx = context();
		await get(ctx);
		control.injectApiFaults([{ kind: 'status', status: 401 }]);
		await expect(get(ctx)).resolves.toMatchObject({ id: einvoiceId });
		expect(control.counters().tokenMints[client.clientId]).toBe(2);
	});

	it('re-mints only once for a storm of concurrent 401s', async () => {
		const { control } = emulator();
		const ctx = context();
		await get(ctx);
		control.injectApiFaults(
			Array.from({ length: 20 }, () => ({ kind: 'status' as const, status: 401 })),
		);
		const results = await Promise.all(Array.from({ length: 20 }, async () => await get(ctx)));
		expect(results).toHaveLength(20);
		expect(control.counters().tokenMints[client.clientId]).toBe(2);
	});

	it('gives a clear error on a second 401, pointing at environment or revoked secret', async () => {
		const { control } = emulator();
		const ctx = context();
		await get(ctx);
		control.injectApiFaults([
			{ kind: 'status', status: 401 },
			{ kind: 'status', status: 401 },
		]);
		const error = await get(ctx).catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(
			/rejected the token \(HTTP 401\) even after a new token was minted/,
		);
		expect((error as Error).message).toMatch(/other environment.*revoked/);
		expect(control.counters().tokenMints[client.clientId]).toBe(2);
	});
});

describe('the token request on the wire', () => {
	it('posts exactly grant_type, client_id and client_secret, form-encoded, without scope', async () => {
		const seen: Array<{ path?: string; type?: string; body: string }> = [];
		const server = createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				seen.push({ path: req.url, type: req.headers['content-type'], body });
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify({
						access_token: 'abc.def.ghi',
						expires_in: 900,
						token_type: 'Bearer',
						scope: 'service.api',
					}),
				);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;
			const credentials = parseCredentials({
				environment: 'sandbox',
				clientId: 'svc_test_wire',
				clientSecret: 'pa ss&word=1',
				authUrl: `http://127.0.0.1:${port}`,
				realm: 'gst',
				sandboxApiUrl: 'http://127.0.0.1:1',
			});
			tokenCache.clear();
			await tokenCache.getToken(credentials);
			expect(seen).toHaveLength(1);
			expect(seen[0].path).toBe('/realms/gst/protocol/openid-connect/token');
			expect(seen[0].type).toBe('application/x-www-form-urlencoded');
			const form = new URLSearchParams(seen[0].body);
			expect([...form.keys()].sort()).toEqual(['client_id', 'client_secret', 'grant_type']);
			expect(form.get('grant_type')).toBe('client_credentials');
			expect(form.get('client_id')).toBe('svc_test_wire');
			expect(form.get('client_secret')).toBe('pa ss&word=1');
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});
