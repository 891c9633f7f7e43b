/**
 * The token cache at its edges: what callers are told while token requests are paused after a 429,
 * exactly when the pause ends, which failures pause at all, how long a short-lived token is reused,
 * and credentials the cache no longer holds.
 */
import { GstCredentialError } from '../../../../credentials/GstComplianceApi/credentialError';
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import { TokenCache } from '../../../../credentials/GstComplianceApi/tokenCache';
import type { IssuedToken } from '../../../../credentials/GstComplianceApi/tokenClient';
import { mintToken } from '../../../../credentials/GstComplianceApi/tokenClient';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const TOKEN_ENDPOINT_ADVICE =
	'Tokens are cached per n8n process, so this usually means other processes or tools mint ' +
	'tokens with the same client. Try again later.';

let now: number;
beforeEach(() => {
	now = START;
	configureSettings({ now: () => now, sleep: async () => {}, random: () => 0 });
});
afterEach(() => resetSettings());

const failureOf = async (promise: Promise<unknown>): Promise<GstCredentialError> =>
	await promise.then(
		() => {
			throw new Error('expected a failure');
		},
		(error: unknown) => {
			expect(error).toBeInstanceOf(GstCredentialError);
			return error as GstCredentialError;
		},
	);

describe('token requests paused after a 429 (token endpoint over HTTP)', () => {
	let server: ScriptedServer;
	beforeEach(async () => {
		server = await startScriptedServer(() => tokenAnswer());
	});
	afterEach(async () => await server.close());

	const credentials = () =>
		parseCredentials({
			environment: 'sandbox',
			clientId: 'svc_test_edges',
			clientSecret: 'edges-secret-value',
			authUrl: server.origin,
			realm: 'gst',
			sandboxApiUrl: server.origin,
		});
	/** The endpoint answers 429 with a Retry-After longer than the token client waits (30 s). */
	const rateLimitedFor = async (cache: TokenCache, retryAfterSeconds: number) => {
		server.answer(() => ({
			status: 429,
			headers: { 'retry-after': String(retryAfterSeconds) },
			body: '{}',
		}));
		const first = await failureOf(cache.getToken(credentials()));
		expect(first.kind).toBe('rateLimited');
		expect(server.requests).toHaveLength(1);
	};

	it('a caller at the moment of the 429 fails fast with the whole pause, status 429 and the advice', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, 120);

		const error = await failureOf(cache.getToken(credentials()));
		expect(error.kind).toBe('rateLimited');
		expect(error.tokenEndpointStatus).toBe(429);
		expect(error.retryAfterMs).toBe(120_000);
		expect(error.message).toBe(
			'The token endpoint is rate-limiting this client (HTTP 429); new token requests with this ' +
				`credential are paused for 120 s. ${TOKEN_ENDPOINT_ADVICE}`,
		);
		expect(server.requests).toHaveLength(1);
	});

	it('later callers are told the pause that remains, down to the last millisecond', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, 120);

		now = START + 45_000;
		const midway = await failureOf(cache.getToken(credentials()));
		expect(midway.retryAfterMs).toBe(75_000);
		expect(midway.tokenEndpointStatus).toBe(429);
		expect(midway.message).toMatch(/paused for 75 s\./);

		now = START + 119_999;
		const last = await failureOf(cache.getToken(credentials()));
		expect(last.retryAfterMs).toBe(1);
		expect(server.requests).toHaveLength(1);
	});

	it('the pause is over exactly when it ends: the endpoint is asked again', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, 120);

		server.answer(() => tokenAnswer());
		now = START + 120_000;
		await expect(cache.getToken(credentials())).resolves.toMatchObject({ serial: 1 });
		expect(server.requests).toHaveLength(2);
	});

	it('a pause that ran out stays over when the clock then steps back into its window', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, 120);

		// The pause ends, the endpoint is asked and is down (not a rate limit: nothing pauses).
		server.answer(() => ({ status: 503, body: '{}' }));
		now = START + 120_000;
		const down = await failureOf(cache.getToken(credentials()));
		expect(down.kind).toBe('unreachable');
		const asked = server.requests.length;
		expect(asked).toBeGreaterThan(1);

		server.answer(() => tokenAnswer());
		now = START + 60_000;
		await expect(cache.getToken(credentials())).resolves.toMatchObject({ serial: 1 });
		expect(server.requests).toHaveLength(asked + 1);
	});
});

describe('token cache with a scripted mint', () => {
	const credentials = (secret: string) =>
		parseCredentials({
			environment: 'sandbox',
			clientId: 'svc_test_edges',
			clientSecret: secret,
			authUrl: 'https://auth.example.com/',
			realm: 'gst',
			sandboxApiUrl: 'https://sandbox.example.com/',
		});
	/** A mint that answers from `outcomes` in order, then with 15-minute tokens. */
	const scriptedMint = (outcomes: Array<{ lifetimeMs: number } | { error: Error }> = []) => {
		let calls = 0;
		const cache = new TokenCache(async (): Promise<IssuedToken> => {
			calls++;
			const outcome = outcomes.shift() ?? { lifetimeMs: 900_000 };
			if ('error' in outcome) throw outcome.error;
			return { accessToken: `token-${calls}`, requestedAt: now, lifetimeMs: outcome.lifetimeMs };
		});
		return { cache, mints: () => calls };
	};

	it('a token that lives no longer than the refresh margin is reused for half its lifetime', async () => {
		// 60 s tokens against the default 60 s margin: re-minting on every call would flood the endpoint.
		const { cache, mints } = scriptedMint([{ lifetimeMs: 60_000 }, { lifetimeMs: 60_000 }]);
		const first = await cache.getToken(credentials('a'));
		now = START + 29_999;
		await expect(cache.getToken(credentials('a'))).resolves.toBe(first);
		expect(mints()).toBe(1);

		now = START + 30_000;
		const second = await cache.getToken(credentials('a'));
		expect(second.accessToken).toBe('token-2');
		expect(mints()).toBe(2);
	});

	it('a failure other than a rate limit does not pause token requests, even with a Retry-After', async () => {
		const unavailable = new GstCredentialError('unreachable', 'The token endpoint answered 503', {
			tokenEndpointStatus: 503,
			retryAfterMs: 120_000,
		});
		const { cache, mints } = scriptedMint([{ error: unavailable }]);
		await expect(cache.getToken(credentials('a'))).rejects.toBe(unavailable);

		await expect(cache.getToken(credentials('a'))).resolves.toMatchObject({
			accessToken: 'token-2',
		});
		expect(mints()).toBe(2);
	});

	it('a 401 for a credential whose token was evicted meanwhile drops nothing', async () => {
		configureSettings({ tokenCacheSize: 1 });
		const { cache, mints } = scriptedMint();
		await cache.getToken(credentials('a'));
		const serialAtStart = cache.lastSerial;
		await cache.getToken(credentials('b'));
		expect(cache.size).toBe(1);

		expect(cache.peek(credentials('a'))).toBeUndefined();
		expect(cache.invalidate(credentials('a'), serialAtStart)).toBe(false);
		await expect(cache.getToken(credentials('b'))).resolves.toMatchObject({ serial: 2 });
		expect(mints()).toBe(2);
	});
});
