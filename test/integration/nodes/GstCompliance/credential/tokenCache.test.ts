/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n; imports the package through the @/ alias */
/**
 * The token cache: its key, when a token is reused and when renewed, single flight, its bound, what
 * a 401 drops, and the pause of token requests after a 429. Each on its own with a scripted mint or
 * a scripted token endpoint (a clock the test moves), and through the node's transport against the
 * emulator over real HTTP (its manual clock). Last, a fast-check property of the whole contract
 * with the real token client behind it (run settings in test/properties/fcConfig.ts:
 * FC_NUM_RUNS, FC_SEED).
 */
import fc from 'fast-check';

import { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';
import { parseCredentials } from '@/nodes/GstCompliance/credential/environment';
import { cacheKey, TokenCache, tokenCache } from '@/nodes/GstCompliance/credential/tokenCache';
import {
	mintToken,
	type IssuedToken,
	type TokenHttpRequest,
	type TokenHttpResponse,
} from '@/nodes/GstCompliance/credential/tokenClient';
import { gstApiRequest } from '@/nodes/GstCompliance/transport/apiRequest';
import type { GstSettings } from '@/nodes/GstCompliance/settings';
import { configureSettings, resetSettings } from '@/test/integration/helpers/settings';
import type { ClientInfo } from '@/test/emulator';
import {
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { executeContext } from '@/test/integration/helpers/executeNode';
import { recordOutboundRequests } from '@/test/integration/helpers/outboundRequests';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '@/test/integration/helpers/scriptedServer';
import { fcParameters, timeoutFor } from '@/test/properties/fcConfig';

const TOKEN_ENDPOINT_ADVICE =
	'Tokens are cached per n8n process, so this usually means other n8n processes or tools ' +
	'request tokens with the same client. Try again later.';
const PAUSE_BOUND_MS = 5 * 60_000;

// The emulator serves the tests that go through the node's transport; its beforeEach also gives
// every test an empty shared cache. The other tests replace its settings with useTestClock.
const emulator = useEmulatorForPackage({ clock: 'manual' });
const outbound = recordOutboundRequests();

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
let now: number;

/** The shipped settings with a clock the test moves (from START) and no real waits. */
function useTestClock(overrides: Partial<GstSettings> = {}): void {
	beforeEach(() => {
		now = START;
		resetSettings();
		configureSettings({ now: () => now, sleep: async () => {}, random: () => 0, ...overrides });
	});
	afterEach(() => resetSettings());
}

const credentials = (secret: string) =>
	parseCredentials({
		environment: 'sandbox',
		clientId: 'svc_test_abc',
		clientSecret: secret,
		authUrl: 'https://auth.example.com/',
		realm: 'gst',
		productionApiUrl: 'https://api.example.com',
		sandboxApiUrl: 'https://sandbox.example.com/',
	});

/**
 * A cache over a mint that answers from `outcomes` in order, then with 15-minute tokens, one event
 * loop turn later (so concurrent callers overlap); records the secret of each mint.
 */
function scriptedMint(outcomes: Array<{ lifetimeMs: number } | { error: Error }> = []) {
	const mints: string[] = [];
	const cache = new TokenCache(async (c): Promise<IssuedToken> => {
		mints.push(c.clientSecret);
		await new Promise((resolve) => setImmediate(resolve));
		const outcome = outcomes.shift() ?? { lifetimeMs: 900_000 };
		if ('error' in outcome) throw outcome.error;
		return {
			accessToken: `token-${mints.length}`,
			requestedAt: now,
			lifetimeMs: outcome.lifetimeMs,
		};
	});
	return { cache, mints };
}

/**
 * A cache over a mint that holds the mints of `heldSecrets` until `release()` and answers the others
 * one event loop turn later, all with 15-minute tokens; records the secret of each mint.
 */
function heldMint(...heldSecrets: string[]) {
	let release!: () => void;
	const gate = new Promise<void>((resolve) => (release = resolve));
	const mints: string[] = [];
	const cache = new TokenCache(async (c): Promise<IssuedToken> => {
		mints.push(c.clientSecret);
		await (heldSecrets.includes(c.clientSecret)
			? gate
			: new Promise((resolve) => setImmediate(resolve)));
		return { accessToken: `token-${mints.length}`, requestedAt: now, lifetimeMs: 900_000 };
	});
	return { cache, mints, release };
}

let client: ClientInfo;
let einvoiceId: string;

/** A sandbox client of the emulator with one e-invoice, for the tests through the transport. */
function useEmulatorClient(): void {
	beforeEach(() => {
		outbound.reset();
		const { control } = emulator();
		client = control.createClient({ environment: 'sandbox' });
		einvoiceId = control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		}).id;
	});
}
const context = (data = credentialData(emulator(), client)) =>
	executeContext({ parameters: {}, credentials: { gstComplianceApi: data } }).context;
const get = async (ctx = context()) =>
	await gstApiRequest.call(ctx, 'GET', `/v1/einvoices/${einvoiceId}`);

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

describe('keys a token by token URL, client id and secret, holding no plaintext secret', () => {
	it('cacheKey → 64 hex digits without the secret, another for another secret', () => {
		const key = cacheKey(credentials('s3cret-value'));
		expect(key).toMatch(/^[0-9a-f]{64}$/);
		expect(key).not.toContain('s3cret');
		expect(cacheKey(credentials('other'))).not.toBe(key);
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('a request after the secret was rotated → a token minted with the new secret; the old one works for 24 h', async () => {
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
	});
});

describe('renews the token when fewer than 60 s remain', () => {
	describe('with a scripted mint', () => {
		useTestClock();

		it('getToken of a 15-minute token at 839.999 s → the cached one; at 840 s → a new mint', async () => {
			const { cache, mints } = scriptedMint();
			await cache.getToken(credentials('a'));
			now = START + 839_999;
			await cache.getToken(credentials('a'));
			expect(mints).toHaveLength(1);
			now = START + 840_000;
			await cache.getToken(credentials('a'));
			expect(mints).toHaveLength(2);
		});

		it('getToken of a token no longer-lived than the margin → reused for half its lifetime', async () => {
			// 60 s tokens against the default 60 s margin: re-minting on every call would flood the endpoint.
			const { cache, mints } = scriptedMint([{ lifetimeMs: 60_000 }, { lifetimeMs: 60_000 }]);
			const first = await cache.getToken(credentials('a'));
			now = START + 29_999;
			await expect(cache.getToken(credentials('a'))).resolves.toBe(first);
			expect(mints).toHaveLength(1);

			now = START + 30_000;
			const second = await cache.getToken(credentials('a'));
			expect(second.accessToken).toBe('token-2');
			expect(mints).toHaveLength(2);
		});
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('a request every 30 s for a simulated hour → ceil(3600/840) tokens, no call failing as expired', async () => {
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
	});
});

describe("counts a token's lifetime from when it was requested, not from when the answer came", () => {
	useTestClock();

	it('getToken of a 15-minute token answered 5 s after the request → expires 900 s after the request, renewed from 840 s', async () => {
		let mints = 0;
		const cache = new TokenCache(async (): Promise<IssuedToken> => {
			const requestedAt = now;
			now += 5_000;
			mints++;
			return { accessToken: `token-${mints}`, requestedAt, lifetimeMs: 900_000 };
		});
		const token = await cache.getToken(credentials('a'));
		expect(token.expiresAt).toBe(START + 900_000);
		now = START + 839_999;
		await cache.getToken(credentials('a'));
		expect(mints).toBe(1);
		now = START + 840_000;
		await cache.getToken(credentials('a'));
		expect(mints).toBe(2);
	});
});

/** A token server of the tests' own, started for each test, and sandbox credentials that use it. */
function useTokenServer() {
	const held = {
		server: undefined as unknown as ScriptedServer,
		credentials: (clientId: string, clientSecret: string) =>
			parseCredentials({
				environment: 'sandbox',
				clientId,
				clientSecret,
				authUrl: held.server.origin,
				realm: 'gst',
				sandboxApiUrl: held.server.origin,
			}),
	};
	beforeEach(async () => {
		held.server = await startScriptedServer(() => tokenAnswer());
	});
	afterEach(async () => {
		await held.server.close();
	});
	return held;
}

describe("mints at most twice a minute whatever the skew between n8n's clock and the token server's", () => {
	useTestClock();
	const token = useTokenServer();

	// The documented token carries exp and no iat, so exp is read against n8n's clock.
	it.each<[string, number]>([
		['in step with', 0],
		['13 min behind', 13 * 60],
		['14 min behind', 14 * 60],
		['14 min 30 s behind', 14 * 60 + 30],
		['14 min 57 s behind', 14 * 60 + 57],
		['15 min 3 s behind', 15 * 60 + 3],
		['an hour ahead of', -3600],
	])(
		'getToken every second for a minute, the token server %s n8n → at most 2 token requests',
		async (_name, behindSeconds) => {
			token.server.answer(() =>
				tokenAnswer(900, { exp: Math.floor(now / 1000) - behindSeconds + 900 }),
			);
			const cache = new TokenCache(mintToken);
			const c = token.credentials('svc_test_skew', 'skew-secret-value');
			for (let second = 0; second < 60; second++) {
				await cache.getToken(c);
				now += 1_000;
			}
			expect(token.server.requests.length).toBeLessThanOrEqual(2);
		},
	);
});

describe('honours a token whose own claims give it less than the refresh margin', () => {
	useTestClock();
	const token = useTokenServer();

	it('expires_in 1e308 and a JWT whose exp is 3 s after its iat, asked every 250 ms for 6 s → renewed at half its life: never held past its exp, one mint per 1.5 s', async () => {
		token.server.answer(() => {
			const iat = Math.floor(now / 1000);
			return tokenAnswer(1e308, { iat, exp: iat + 3 });
		});
		const cache = new TokenCache(mintToken);
		const c = token.credentials('svc_test_short', 'short-lived-secret');
		now = Math.ceil(now / 1000) * 1000; // iat is whole seconds: start on one
		const issuedAt = new Map<string, number>();
		for (let step = 0; step < 24; step++) {
			const token = await cache.getToken(c);
			if (!issuedAt.has(token.accessToken)) issuedAt.set(token.accessToken, now);
			expect(now - issuedAt.get(token.accessToken)!).toBeLessThan(3_000);
			now += 250;
		}
		expect(token.server.requests).toHaveLength(4);
	});
});

describe('mints once for any number of concurrent callers (single flight)', () => {
	describe('with a scripted mint', () => {
		useTestClock();

		it('10 concurrent getToken of a failing mint → one mint, all rejected; the next caller → a new mint', async () => {
			const { cache, mints } = scriptedMint(
				Array.from({ length: 2 }, () => ({ error: new GstCredentialError('unreachable', 'down') })),
			);
			const results = await Promise.allSettled(
				Array.from({ length: 10 }, async () => await cache.getToken(credentials('a'))),
			);
			expect(results.every((r) => r.status === 'rejected')).toBe(true);
			expect(mints).toHaveLength(1);
			await expect(cache.getToken(credentials('a'))).rejects.toThrow('down');
			expect(mints).toHaveLength(2);
		});
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('100 concurrent requests on a cold cache → one token request, one mint, 100 API calls', async () => {
			const ctx = context();
			const results = await Promise.all(Array.from({ length: 100 }, async () => await get(ctx)));
			expect(results.every((result) => result.id === einvoiceId)).toBe(true);
			const counters = emulator().control.counters();
			expect(counters.tokenMints[client.clientId]).toBe(1);
			expect(counters.tokenRequests[client.clientId]).toBe(1);
			expect(counters.apiCalls[client.clientId]).toBe(100);
		});
	});
});

describe('keeps at most tokenCacheSize credentials, evicting a stale token first, then the least recently used', () => {
	useTestClock({ tokenCacheSize: 3 });

	it('getToken of a 4th credential → size 3, the least recently used re-minted on its next use', async () => {
		const { cache, mints } = scriptedMint();
		for (const secret of ['a', 'b', 'c', 'd']) await cache.getToken(credentials(secret));
		expect(cache.size).toBe(3);
		await cache.getToken(credentials('d'));
		await cache.getToken(credentials('a'));
		expect(mints).toEqual(['a', 'b', 'c', 'd', 'a']);
	});

	it('getToken of a 4th credential while a more recently used token is stale → the stale one evicted', async () => {
		const { cache, mints } = scriptedMint([
			{ lifetimeMs: 900_000 },
			{ lifetimeMs: 120_000 },
			{ lifetimeMs: 900_000 },
		]);
		for (const secret of ['a', 'b', 'c']) await cache.getToken(credentials(secret));
		now = START + 60_000; // b has 60 s left: its next use mints anyway
		await cache.getToken(credentials('d'));
		expect(cache.size).toBe(3);
		await cache.getToken(credentials('a'));
		await cache.getToken(credentials('b'));
		expect(mints).toEqual(['a', 'b', 'c', 'd', 'b']);
	});
});

describe('never evicts a credential with a mint in flight or a 429 pause running', () => {
	// The bound of the issue: a practice with one client per GSTIN passes it.
	useTestClock({ tokenCacheSize: 100 });
	const others = async (cache: TokenCache) => {
		for (let n = 2; n <= 102; n++) await cache.getToken(credentials(`other-${n}`));
	};

	it('getToken of credential 1 twice, 101 others used while its mint is in flight → one mint, shared', async () => {
		const { cache, mints, release } = heldMint('one');
		const first = cache.getToken(credentials('one'));
		await others(cache);
		const second = cache.getToken(credentials('one'));
		release();
		const [a, b] = await Promise.all([first, second]);
		expect(mints.filter((secret) => secret === 'one')).toHaveLength(1);
		expect(b).toBe(a);
	});

	it('getToken of credential 1 paused after a 429, 101 others used meanwhile → still fails fast, no token request', async () => {
		const rateLimited = new GstCredentialError('rateLimited', 'HTTP 429', {
			tokenEndpointStatus: 429,
			retryAfterMs: 120_000,
		});
		const { cache, mints } = scriptedMint([{ error: rateLimited }]);
		await expect(cache.getToken(credentials('one'))).rejects.toBe(rateLimited);
		now = START + 60_000;
		await others(cache);
		const error = await failureOf(cache.getToken(credentials('one')));
		expect(error.kind).toBe('rateLimited');
		expect(error.retryAfterMs).toBe(60_000);
		expect(mints.filter((secret) => secret === 'one')).toHaveLength(1);
	});

	it('getToken of 3 credentials at once with room for 2 → all 3 kept while minting, back to 2 on the next use', async () => {
		configureSettings({ tokenCacheSize: 2 });
		const { cache, mints, release } = heldMint('a', 'b', 'c');
		const pending = ['a', 'b', 'c'].map(
			async (secret) => await cache.getToken(credentials(secret)),
		);
		expect(cache.size).toBe(3);
		release();
		await Promise.all(pending);
		await cache.getToken(credentials('a'));
		expect(cache.size).toBe(2);
		expect(mints).toEqual(['a', 'b', 'c']);
	});
});

describe('keeps the token of every credential a practice with one client per GSTIN uses in turn', () => {
	useTestClock();

	it('getToken of 101 credentials in turn, 3 rounds → 101 mints, not 303', async () => {
		const { cache, mints } = scriptedMint();
		for (let round = 0; round < 3; round++) {
			for (let n = 1; n <= 101; n++) await cache.getToken(credentials(`gstin-${n}`));
		}
		expect(mints).toHaveLength(101);
	});
});

describe('drops a token after a 401 only when it was minted before that request started', () => {
	describe('with a scripted mint', () => {
		useTestClock();

		it('invalidate with the serial at the request start → true and the token gone; with an older serial → false', async () => {
			const { cache } = scriptedMint();
			await cache.getToken(credentials('a'));
			const serialAtStart = cache.lastSerial;
			expect(cache.invalidate(credentials('a'), serialAtStart - 1)).toBe(false);
			expect(cache.invalidate(credentials('a'), serialAtStart)).toBe(true);
			expect(cache.peek(credentials('a'))).toBeUndefined();
		});

		it('invalidate of a credential whose token was evicted meanwhile → false, the other token kept', async () => {
			configureSettings({ tokenCacheSize: 1 });
			const { cache, mints } = scriptedMint();
			await cache.getToken(credentials('a'));
			const serialAtStart = cache.lastSerial;
			await cache.getToken(credentials('b'));
			expect(cache.size).toBe(1);

			expect(cache.peek(credentials('a'))).toBeUndefined();
			expect(cache.invalidate(credentials('a'), serialAtStart)).toBe(false);
			await expect(cache.getToken(credentials('b'))).resolves.toMatchObject({ serial: 2 });
			expect(mints).toHaveLength(2);
		});
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('a request the API answers 401 → one new token and one retry, which succeeds', async () => {
			const { control } = emulator();
			const ctx = context();
			await get(ctx);
			control.injectApiFaults([{ kind: 'status', status: 401 }]);
			await expect(get(ctx)).resolves.toMatchObject({ id: einvoiceId });
			expect(control.counters().tokenMints[client.clientId]).toBe(2);
		});

		it('20 concurrent requests the API answers 401 → one new token for all', async () => {
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

		it('a 401 again with the new token → a clear error pointing at the other environment or a revoked secret', async () => {
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
				/rejected the credential's token, and a new one as well/,
			);
			expect((error as { description?: string }).description).toMatch(/other environment.*revoked/);
			expect(control.counters().tokenMints[client.clientId]).toBe(2);
		});
	});
});

describe('pauses token requests after a 429 for its Retry-After, at most 5 minutes', () => {
	useTestClock();
	let server: ScriptedServer;
	beforeEach(async () => {
		server = await startScriptedServer(() => tokenAnswer());
	});
	afterEach(async () => {
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
	const getToken = async (cache: TokenCache) => await cache.getToken(parseCredentials(data()));
	const answer429 = (retryAfter: string) =>
		server.answer(() => ({ status: 429, headers: { 'retry-after': retryAfter }, body: '{}' }));
	/** The endpoint answers 429 with a Retry-After longer than the token client waits (30 s). */
	const rateLimitedFor = async (cache: TokenCache, retryAfter: string) => {
		answer429(retryAfter);
		const first = await failureOf(getToken(cache));
		expect(first.kind).toBe('rateLimited');
		expect(server.requests).toHaveLength(1);
	};

	it('getToken at the moment of the 429 → fails fast with the whole pause, status 429 and the advice', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, '120');

		const error = await failureOf(getToken(cache));
		expect(error.kind).toBe('rateLimited');
		expect(error.tokenEndpointStatus).toBe(429);
		expect(error.retryAfterMs).toBe(120_000);
		expect(error.message).toBe(
			'The token service is rate-limiting this client; new token requests with this ' +
				`credential are paused for 120 s. The answer was HTTP 429. ${TOKEN_ENDPOINT_ADVICE}`,
		);
		expect(server.requests).toHaveLength(1);
	});

	it('getToken later in the pause → the pause that remains, down to the last millisecond', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, '120');

		now = START + 45_000;
		const midway = await failureOf(getToken(cache));
		expect(midway.retryAfterMs).toBe(75_000);
		expect(midway.tokenEndpointStatus).toBe(429);
		expect(midway.message).toMatch(/paused for 75 s\./);

		now = START + 119_999;
		const last = await failureOf(getToken(cache));
		expect(last.retryAfterMs).toBe(1);
		expect(server.requests).toHaveLength(1);
	});

	it('getToken exactly when the pause ends → the endpoint is asked again', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, '120');

		server.answer(() => tokenAnswer());
		now = START + 120_000;
		await expect(getToken(cache)).resolves.toMatchObject({ serial: 1 });
		expect(server.requests).toHaveLength(2);
	});

	it('getToken after a Retry-After of a day → the call fails clearly; later calls pause for at most 5 minutes', async () => {
		const cache = new TokenCache(mintToken);
		answer429('86400');
		const first = await failureOf(getToken(cache));
		expect(first.kind).toBe('rateLimited');
		expect(first.message).toMatch(/HTTP 429/);
		expect(first.message).toMatch(/longer than/);
		expect(server.requests).toHaveLength(1);

		now += 60_000;
		const paused = await failureOf(getToken(cache));
		expect(paused.kind).toBe('rateLimited');
		expect(server.requests).toHaveLength(1);

		server.answer(() => tokenAnswer());
		now += PAUSE_BOUND_MS;
		await expect(getToken(cache)).resolves.toBeDefined();
		expect(server.requests).toHaveLength(2);
	});

	it.each(['99999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT', '1e400'])(
		'getToken after a Retry-After of %s → a rate-limit message (never "Invalid time value"), over within the bound',
		async (retryAfter) => {
			const cache = new TokenCache(mintToken);
			answer429(retryAfter);
			for (const step of [0, 1_000, 60_000]) {
				now += step;
				const error = await failureOf(getToken(cache));
				expect(error.message).not.toMatch(/Invalid time value/i);
				expect(error.message).toMatch(/rate-limiting/);
			}
			server.answer(() => tokenAnswer());
			now += PAUSE_BOUND_MS;
			await expect(getToken(cache)).resolves.toBeDefined();
		},
	);

	it('getToken after the clock stepped back during the pause → the endpoint is asked (the pause never grows)', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, '86400');
		server.answer(() => tokenAnswer());
		now -= 3600_000;
		await expect(getToken(cache)).resolves.toBeDefined();
	});

	it('getToken after the pause ran out and the clock stepped back into its window → the endpoint is asked', async () => {
		const cache = new TokenCache(mintToken);
		await rateLimitedFor(cache, '120');

		// The pause ends, the endpoint is asked and is down (not a rate limit: nothing pauses).
		server.answer(() => ({ status: 503, body: '{}' }));
		now = START + 120_000;
		const down = await failureOf(getToken(cache));
		expect(down.kind).toBe('unreachable');
		const asked = server.requests.length;
		expect(asked).toBeGreaterThan(1);

		server.answer(() => tokenAnswer());
		now = START + 60_000;
		await expect(getToken(cache)).resolves.toMatchObject({ serial: 1 });
		expect(server.requests).toHaveLength(asked + 1);
	});

	it('getToken after a failure other than a rate limit, even with a Retry-After → no pause', async () => {
		const unavailable = new GstCredentialError('unreachable', 'The token endpoint answered 503', {
			tokenEndpointStatus: 503,
			retryAfterMs: 120_000,
		});
		const { cache, mints } = scriptedMint([{ error: unavailable }]);
		await expect(cache.getToken(credentials('a'))).rejects.toBe(unavailable);

		await expect(cache.getToken(credentials('a'))).resolves.toMatchObject({
			accessToken: 'token-2',
		});
		expect(mints).toHaveLength(2);
	});
});

describe('holds its guarantees under any interleaving of callers and answers (fast-check)', () => {
	beforeEach(() => resetSettings());
	afterEach(() => resetSettings());

	const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
	const CLIENTS = ['svc_test_alpha', 'svc_test_bravo'];

	type Answer =
		| { kind: 'token'; expiresIn: unknown }
		| { kind: 'status'; status: 400 | 401 | 404 | 500 | 503; echo: boolean }
		| { kind: 'rateLimited'; retryAfter: string }
		| { kind: 'notJson' }
		| { kind: 'network' }
		| { kind: 'refused' };

	const answer: fc.Arbitrary<Answer> = fc.oneof(
		{
			weight: 4,
			arbitrary: fc.record({
				kind: fc.constant('token' as const),
				expiresIn: fc.oneof(
					fc.constant(900),
					fc.integer({ min: 60, max: 86_400 }),
					fc.constantFrom(true, 0.001, 1e308, '600', -5, null),
				),
			}),
		},
		fc.record({
			kind: fc.constant('status' as const),
			status: fc.constantFrom(400 as const, 401 as const, 404 as const, 500 as const, 503 as const),
			echo: fc.boolean(),
		}),
		fc.record({
			kind: fc.constant('rateLimited' as const),
			retryAfter: fc.constantFrom('1', '20', '86400', '99999999999999999999', 'garbage', '-1'),
		}),
		fc.constant({ kind: 'notJson' as const }),
		fc.constant({ kind: 'network' as const }),
		fc.constant({ kind: 'refused' as const }),
	);

	type Step =
		| { kind: 'callers'; client: number; count: number; fresh: boolean }
		| { kind: 'clock'; deltaMs: number }
		| { kind: 'apiRejected'; client: number };

	const step: fc.Arbitrary<Step> = fc.oneof(
		{
			weight: 4,
			arbitrary: fc.record({
				kind: fc.constant('callers' as const),
				client: fc.nat(1),
				count: fc.integer({ min: 1, max: 6 }),
				fresh: fc.boolean(),
			}),
		},
		{
			weight: 2,
			arbitrary: fc.record({
				kind: fc.constant('clock' as const),
				deltaMs: fc.integer({ min: 0, max: 20 * 60_000 }),
			}),
		},
		fc.record({ kind: fc.constant('apiRejected' as const), client: fc.nat(1) }),
	);

	const secretChars = fc.constantFrom(
		...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=%&"\\<>~!*() é€😀'.match(
			/./gu,
		)!,
	);
	const secret = fc.string({ unit: secretChars, minLength: 12, maxLength: 40 });

	const jwt = (claims: Record<string, unknown>) =>
		`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

	/** Every encoding the secret travels in: what must never appear in an error. */
	function encodings(clientId: string, value: string): string[] {
		const form = new URLSearchParams({ s: value }).toString().slice(2);
		return [
			value,
			form,
			encodeURIComponent(value),
			Buffer.from(`${clientId}:${value}`).toString('base64'),
		];
	}

	// Callers interleaved by fast-check's scheduler; answers 401, 429 (any Retry-After), 5xx,
	// bodies that echo the request, network errors and refusals; clock moves and invalidations.
	it(
		'getToken under any interleaving → at most one token request in flight per credential, never an expired token, never the secret in an error',
		async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.scheduler(),
					secret,
					fc.array(answer, { maxLength: 30 }),
					fc.array(step, { minLength: 1, maxLength: 25 }),
					async (scheduler, clientSecret, answers, steps) => {
						let clock = T0;
						const restore = configureSettings({
							now: () => clock,
							sleep: async () => {},
							random: () => 0.5,
						});
						try {
							const inFlight = new Map<string, number>();
							let maxInFlight = 0;
							let next = 0;
							const post = async (request: TokenHttpRequest): Promise<TokenHttpResponse> => {
								const clientId = new URLSearchParams(request.body).get('client_id') ?? '';
								inFlight.set(clientId, (inFlight.get(clientId) ?? 0) + 1);
								maxInFlight = Math.max(maxInFlight, inFlight.get(clientId)!);
								try {
									await scheduler.schedule(Promise.resolve(), `post ${clientId}`);
									const echo = `${request.body} ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
									const a = answers[next++] ?? { kind: 'token', expiresIn: 900 };
									switch (a.kind) {
										case 'token':
											return {
												status: 200,
												body: JSON.stringify({
													access_token: jwt({ n: next }),
													token_type: 'Bearer',
													expires_in: a.expiresIn,
												}),
											};
										case 'status':
											return {
												status: a.status,
												body: a.echo
													? JSON.stringify({ error: 'invalid_client', error_description: echo })
													: '',
											};
										case 'rateLimited':
											return { status: 429, retryAfter: a.retryAfter, body: echo };
										case 'notJson':
											return { status: 200, body: `<html>${echo}</html>` };
										case 'network':
											throw Object.assign(new Error(`socket hang up ${echo}`), {
												code: 'ECONNRESET',
											});
										case 'refused':
											throw new Error(`blocked by policy: ${echo}`);
									}
								} finally {
									inFlight.set(clientId, inFlight.get(clientId)! - 1);
								}
							};
							const cache = new TokenCache(async (c) => await mintToken(c, post));
							const clients = CLIENTS.map((clientId) =>
								parseCredentials({
									environment: 'sandbox',
									clientId,
									clientSecret,
									authUrl: 'https://auth.example.com',
									realm: 'gst',
									sandboxApiUrl: 'https://sandbox.example.com',
								}),
							);
							for (const s of steps) {
								if (s.kind === 'clock') {
									clock += s.deltaMs;
									continue;
								}
								if (s.kind === 'apiRejected') {
									cache.invalidate(clients[s.client], cache.lastSerial);
									continue;
								}
								const calls = Array.from({ length: s.count }, async () =>
									cache.getToken(clients[s.client], { fresh: s.fresh }),
								);
								const settled = await scheduler.waitFor(Promise.allSettled(calls));
								for (const result of settled) {
									if (result.status === 'fulfilled') {
										if (!(result.value.expiresAt > clock)) return false;
									} else {
										const error = result.reason as Error;
										const text = `${error.message} ${JSON.stringify(error)}`;
										for (const encoded of encodings(CLIENTS[s.client], clientSecret)) {
											if (text.includes(encoded)) return false;
										}
									}
								}
							}
							return maxInFlight <= 1;
						} finally {
							restore();
						}
					},
				),
				fcParameters(60),
			);
		},
		timeoutFor(60, 500),
	);
});
