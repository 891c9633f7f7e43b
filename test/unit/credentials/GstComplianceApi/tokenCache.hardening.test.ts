/**
 * A long or absurd Retry-After from the token endpoint: the call fails with a clear message, later
 * calls pause for a bounded time only (settings.maxTokenPauseMs), and the credential Test says so.
 */
import { CredentialTestContext } from 'n8n-core';

import { testGstComplianceCredentials } from '../../../../credentials/GstComplianceApi/credentialTest';
import { GstCredentialError } from '../../../../credentials/GstComplianceApi/credentialError';
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import { TokenCache, tokenCache } from '../../../../credentials/GstComplianceApi/tokenCache';
import { mintToken } from '../../../../credentials/GstComplianceApi/tokenClient';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

const PAUSE_BOUND_MS = 5 * 60_000;

describe('token endpoint Retry-After is bounded', () => {
	let server: ScriptedServer;
	let now: number;

	beforeEach(async () => {
		now = Date.UTC(2026, 0, 15, 12, 0, 0);
		configureSettings({ now: () => now, sleep: async () => {}, random: () => 0 });
		server = await startScriptedServer(() => tokenAnswer());
	});
	afterEach(async () => {
		resetSettings();
		tokenCache.clear();
		await server.close();
	});

	const data = () => ({
		environment: 'sandbox',
		clientId: 'svc_test_ratelimit',
		clientSecret: 'rate-limit-secret-value',
		authUrl: server.origin,
		realm: 'gst',
		sandboxApiUrl: server.origin,
	});
	const answer429 = (retryAfter: string) =>
		server.answer(() => ({ status: 429, headers: { 'retry-after': retryAfter }, body: '{}' }));
	const failure = async (cache: TokenCache) =>
		await cache.getToken(parseCredentials(data())).then(
			() => {
				throw new Error('expected a failure');
			},
			(error: unknown) => error as Error,
		);

	it('a Retry-After of a day fails this call clearly and pauses later calls for at most 5 minutes', async () => {
		const cache = new TokenCache(mintToken);
		answer429('86400');
		const first = await failure(cache);
		expect(first).toBeInstanceOf(GstCredentialError);
		expect((first as GstCredentialError).kind).toBe('rateLimited');
		expect(first.message).toMatch(/HTTP 429/);
		expect(first.message).toMatch(/longer than/);
		expect(server.requests).toHaveLength(1);

		now += 60_000;
		const paused = await failure(cache);
		expect((paused as GstCredentialError).kind).toBe('rateLimited');
		expect(server.requests).toHaveLength(1);

		server.answer(() => tokenAnswer());
		now += PAUSE_BOUND_MS;
		await expect(cache.getToken(parseCredentials(data()))).resolves.toBeDefined();
		expect(server.requests).toHaveLength(2);
	});

	it.each(['99999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT', '1e400'])(
		'Retry-After %s never becomes "Invalid time value" and ends within the bound',
		async (retryAfter) => {
			const cache = new TokenCache(mintToken);
			answer429(retryAfter);
			for (const step of [0, 1_000, 60_000]) {
				now += step;
				const error = await failure(cache);
				expect(error).toBeInstanceOf(GstCredentialError);
				expect(error.message).not.toMatch(/Invalid time value/i);
				expect(error.message).toMatch(/rate-limiting/);
			}
			server.answer(() => tokenAnswer());
			now += PAUSE_BOUND_MS;
			await expect(cache.getToken(parseCredentials(data()))).resolves.toBeDefined();
		},
	);

	it('a clock step back never extends the pause', async () => {
		const cache = new TokenCache(mintToken);
		answer429('86400');
		await failure(cache);
		server.answer(() => tokenAnswer());
		now -= 3600_000;
		await expect(cache.getToken(parseCredentials(data()))).resolves.toBeDefined();
	});

	it('the credential Test reports the rate limit, on the first click and while paused', async () => {
		answer429('99999999999999999999');
		const context = new CredentialTestContext({} as never);
		const credential = { id: '1', name: 'gst', type: 'gstComplianceApi', data: data() };
		for (let click = 0; click < 2; click++) {
			const result = await testGstComplianceCredentials.call(context, credential);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/rate-limiting this client \(HTTP 429\)/);
			expect(result.message).not.toMatch(/could not be checked|Invalid time value/i);
			now += 10_000;
		}
	});
});
