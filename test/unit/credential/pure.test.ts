/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
import { GstCredentialError } from '../../../credentials/GstComplianceApi/credentialError';
import {
	assertClientMatchesEnvironment,
	parseCredentials,
	tokenUrl,
} from '../../../credentials/GstComplianceApi/environment';
import { decodeJwtClaims, tokenLifetimeMs } from '../../../credentials/GstComplianceApi/jwtClaims';
import { redact } from '../../../transport/redact';
import {
	backoffDelay,
	parseRetryAfter,
	withRetry,
	type RetryPolicy,
} from '../../../transport/retry';
import { configureSettings, resetSettings } from '../../../transport/settings';
import { cacheKey, TokenCache } from '../../../credentials/GstComplianceApi/tokenCache';

const base = {
	environment: 'sandbox',
	clientId: 'svc_test_abc',
	clientSecret: 's3cret-value',
	authUrl: 'https://auth.example.com/',
	realm: 'gst',
	productionApiUrl: 'https://api.example.com',
	sandboxApiUrl: 'https://sandbox.example.com/',
};

const jwt = (claims: Record<string, unknown>) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('environment', () => {
	it('builds the token URL from auth URL and realm and trims trailing slashes', () => {
		const credentials = parseCredentials(base);
		expect(tokenUrl(credentials)).toBe(
			'https://auth.example.com/realms/gst/protocol/openid-connect/token',
		);
		expect(credentials.sandboxApiUrl).toBe('https://sandbox.example.com');
	});

	it('names missing fields, and asks only for the chosen environment API URL', () => {
		expect(() => parseCredentials({ ...base, clientSecret: '', sandboxApiUrl: '' })).toThrow(
			'missing: Client Secret, Sandbox API URL',
		);
		expect(() => parseCredentials({ ...base, productionApiUrl: '' })).not.toThrow();
	});

	it.each([
		[
			'production',
			'svc_test_1',
			/"svc_test_".*Sandbox client.*Environment is Production.*Set Environment to Sandbox/,
		],
		[
			'sandbox',
			'svc_live_1',
			/"svc_live_".*Production client.*Environment is Sandbox.*Set Environment to Production/,
		],
		['sandbox', 'abc_123456789', /prefix "abc_12345".*Sandbox clients start with "svc_test_"/],
	])(
		'rejects a %s credential with client id %s before any network call',
		(environment, clientId, message) => {
			const credentials = parseCredentials({ ...base, environment, clientId });
			expect(() => assertClientMatchesEnvironment(credentials)).toThrow(message);
		},
	);

	it('accepts matching prefixes', () => {
		expect(() => assertClientMatchesEnvironment(parseCredentials(base))).not.toThrow();
		expect(() =>
			assertClientMatchesEnvironment(
				parseCredentials({ ...base, environment: 'production', clientId: 'svc_live_1' }),
			),
		).not.toThrow();
	});
});

describe('retry', () => {
	const policy: RetryPolicy = {
		maxAttempts: 4,
		baseDelayMs: 100,
		maxDelayMs: 300,
		maxRetryAfterMs: 1000,
		maxTotalWaitMs: 1500,
	};
	const deps = (waits: number[]) => ({
		sleep: async (ms: number) => void waits.push(ms),
		random: () => 0.5,
	});
	const fail = (retryAfterMs?: number) => ({
		ok: false as const,
		retryable: true,
		error: new Error('x'),
		retryAfterMs,
	});

	it('parses Retry-After seconds and HTTP dates', () => {
		expect(parseRetryAfter('7', 0)).toBe(7000);
		expect(parseRetryAfter('1.5', 0)).toBe(1500);
		expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
		expect(parseRetryAfter('soon', 0)).toBeUndefined();
		expect(parseRetryAfter(undefined, 0)).toBeUndefined();
	});

	it('backs off exponentially within the cap, with bounded jitter', () => {
		expect(backoffDelay(policy, 1, () => 0)).toBe(50);
		expect(backoffDelay(policy, 1, () => 0.999)).toBeLessThanOrEqual(100);
		expect(backoffDelay(policy, 3, () => 0.999)).toBeLessThanOrEqual(300);
	});

	it('stops after maxAttempts and reports the count', async () => {
		const waits: number[] = [];
		let calls = 0;
		const result = withRetry(
			policy,
			deps(waits),
			async () => (calls++, fail()),
			(f) => new Error(`${f.reason} ${f.attempts}`),
		);
		await expect(result).rejects.toThrow('exhausted 4');
		expect(calls).toBe(4);
		expect(waits).toHaveLength(3);
	});

	it('waits exactly Retry-After, refuses one over the bound and respects the total budget', async () => {
		const waits: number[] = [];
		let calls = 0;
		const value = await withRetry(
			policy,
			deps(waits),
			async () => (++calls < 2 ? fail(800) : { ok: true as const, value: 1 }),
			() => new Error(),
		);
		expect(value).toBe(1);
		expect(waits).toEqual([800]);

		await expect(
			withRetry(
				policy,
				deps([]),
				async () => fail(5000),
				(f) => new Error(f.reason),
			),
		).rejects.toThrow('retryAfterTooLong');
		await expect(
			withRetry(
				policy,
				deps([]),
				async () => fail(900),
				(f) => new Error(`${f.reason} ${f.attempts}`),
			),
		).rejects.toThrow('budget 2');
	});

	it('does not retry a fatal result', async () => {
		let calls = 0;
		const result = withRetry(
			policy,
			deps([]),
			async () => (calls++, { ok: false as const, retryable: false, error: new Error('no') }),
			(f) => f.error,
		);
		await expect(result).rejects.toThrow('no');
		expect(calls).toBe(1);
	});
});

describe('token lifetime', () => {
	it('uses expires_in, capped by exp - iat', () => {
		expect(tokenLifetimeMs(900, undefined, 0)).toBe(900_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1600 }, 0)).toBe(600_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 5000 }, 0)).toBe(900_000);
	});

	it('reads exp without iat against our clock, and ignores an exp that looks already past (clock skew)', () => {
		expect(tokenLifetimeMs(900, { exp: 1300 }, 1_000_000)).toBe(300_000);
		expect(tokenLifetimeMs(900, { exp: 10 }, 1_000_000)).toBe(900_000);
	});

	it('decodes claims without verifying and tolerates garbage', () => {
		expect(decodeJwtClaims(jwt({ organization_id: 'org_1' }))).toEqual({
			organization_id: 'org_1',
		});
		expect(decodeJwtClaims('not-a-jwt')).toBeUndefined();
		expect(decodeJwtClaims('a.!!!.c')).toBeUndefined();
	});
});

describe('redact', () => {
	it('removes secrets and JWT-shaped strings', () => {
		const text = redact(`secret s3cret-value and token ${jwt({ a: 1 })}`, ['s3cret-value']);
		expect(text).toBe('secret [redacted] and token [redacted token]');
	});
});

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
