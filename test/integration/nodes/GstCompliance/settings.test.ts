/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The shipped defaults users rely on (docs/guarantees.md, and the assumptions in docs/service-api.md),
 * read from `resetSettings()` and exercised against the emulator over real HTTP. Only the clock,
 * the sleep (recorded, not waited) and the jitter are replaced; every limit is the shipped one.
 */
import { TokenCache } from '@/nodes/GstCompliance/credential/tokenCache';
import { parseCredentials } from '@/nodes/GstCompliance/credential/environment';
import { gstApiRequest } from '@/nodes/GstCompliance/transport/apiRequest';
import { backoffDelay } from '@/nodes/GstCompliance/http/retry';
import { settings } from '@/nodes/GstCompliance/settings';
import { configureSettings, resetSettings } from '@/test/integration/helpers/settings';
import type { ClientInfo } from '@/test/emulator';
import {
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { executeContext } from '@/test/integration/helpers/executeNode';

describe('shipped retry defaults, against the emulator', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;
	let waits: number[];

	beforeEach(() => {
		resetSettings();
		waits = [];
		configureSettings({
			now: () => emulator().control.now(),
			sleep: async (ms) => void waits.push(ms),
			// The top of the jitter range: each wait is the full exponential step.
			random: () => 1,
		});
		client = emulator().control.createClient({ environment: 'sandbox' });
	});

	const get = async () =>
		await gstApiRequest.call(
			executeContext({
				parameters: {},
				credentials: { gstComplianceApi: credentialData(emulator(), client) },
			}).context,
			'GET',
			`/v1/einvoices/${
				emulator().control.createEinvoice({
					organizationId: client.organizationId,
					environment: 'sandbox',
				}).id
			}`,
		);
	const failure = async () =>
		await get().then(
			() => {
				throw new Error('expected the request to fail');
			},
			(error: Error) => error,
		);
	const counters = () => emulator().control.counters();

	// Exactly as many faults as attempts: a leftover fault would reach the next test.
	it('tries the API 5 times on 5xx, backing off 0.5 s, 1 s, 2 s, 4 s', async () => {
		emulator().control.injectApiFaults(
			Array.from({ length: 5 }, () => ({ kind: 'status', status: 500 }) as const),
		);
		const error = await failure();
		expect(error.message).toMatch(/has a problem on its side: each of 5 attempts failed\.$/);
		expect(counters().apiRequestsTotal).toBe(5);
		expect(waits).toEqual([500, 1_000, 2_000, 4_000]);
	});

	it('caps one API backoff wait at 10 s and one token backoff wait at 8 s', () => {
		expect(backoffDelay(settings.apiRetry, 5, () => 1)).toBe(8_000);
		expect(backoffDelay(settings.apiRetry, 6, () => 1)).toBe(10_000);
		expect(backoffDelay(settings.apiRetry, 30, () => 1)).toBe(10_000);
		expect(backoffDelay(settings.tokenRetry, 4, () => 1)).toBe(4_000);
		expect(backoffDelay(settings.tokenRetry, 5, () => 1)).toBe(8_000);
		expect(backoffDelay(settings.tokenRetry, 30, () => 1)).toBe(8_000);
	});

	it('tries the token endpoint 4 times on 5xx, backing off 0.5 s, 1 s, 2 s', async () => {
		emulator().control.injectTokenFaults(
			Array.from({ length: 4 }, () => ({ kind: 'status', status: 500 }) as const),
		);
		const error = await failure();
		expect(error.message).toMatch(
			/token service .* has a problem on its side \(gave up after 4 attempts\)/,
		);
		expect(counters().tokenRequests[client.clientId]).toBe(4);
		expect(counters().apiRequestsTotal).toBe(0);
		expect(waits).toEqual([500, 1_000, 2_000]);
	});

	it('waits out a token-endpoint Retry-After of 30 s', async () => {
		emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 30 }]);
		await expect(get()).resolves.toHaveProperty('id');
		expect(waits).toEqual([30_000]);
		expect(counters().tokenRequests[client.clientId]).toBe(2);
	});

	it('gives up at once on a token-endpoint Retry-After of 31 s', async () => {
		emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 31 }]);
		const error = await failure();
		expect(error.message).toMatch(/token service .* is rate-limiting this client/);
		expect(waits).toEqual([]);
		expect(counters().tokenRequests[client.clientId]).toBe(1);
	});

	it('waits out an API Retry-After of 60 s', async () => {
		emulator().control.injectApiFaults([{ kind: 'status', status: 429, retryAfterSeconds: 60 }]);
		await expect(get()).resolves.toHaveProperty('id');
		expect(waits).toEqual([60_000]);
		expect(counters().apiRequestsTotal).toBe(2);
	});

	it('gives up at once on an API Retry-After of 61 s', async () => {
		emulator().control.injectApiFaults([{ kind: 'status', status: 429, retryAfterSeconds: 61 }]);
		const error = await failure();
		expect(error.message).toMatch(/asks to wait 61 s, longer than this node waits/);
		expect(waits).toEqual([]);
		expect(counters().apiRequestsTotal).toBe(1);
	});
});

describe('shipped token cache defaults', () => {
	let now = 0;
	beforeEach(() => {
		resetSettings();
		now = 0;
		configureSettings({ now: () => now });
	});
	afterEach(() => resetSettings());

	const credentials = (n: number) =>
		parseCredentials({
			environment: 'sandbox',
			clientId: 'svc_test_abc',
			clientSecret: `secret-${n}`,
			authUrl: 'https://auth.example.com',
			realm: 'gst',
			sandboxApiUrl: 'https://sandbox.example.com',
		});
	const minting = () => {
		const mints: number[] = [];
		const cache = new TokenCache(async (c) => {
			mints.push(Number(c.clientSecret.slice('secret-'.length)));
			return { accessToken: `token-${mints.length}`, requestedAt: now, lifetimeMs: 900_000 };
		});
		return { cache, mints };
	};

	it('keeps the tokens of 10,000 credentials; the 10,001st pushes out the least recently used', async () => {
		const { cache, mints } = minting();
		for (let n = 1; n <= 10_000; n++) await cache.getToken(credentials(n));
		await cache.getToken(credentials(1));
		expect(mints).toHaveLength(10_000);
		await cache.getToken(credentials(10_001));
		expect(cache.size).toBe(10_000);
		await cache.getToken(credentials(1));
		expect(mints).toHaveLength(10_001);
		await cache.getToken(credentials(2));
		expect(mints.slice(-1)).toEqual([2]);
	});

	it('re-mints a 15-minute token once fewer than 60 s of it remain', async () => {
		const { cache, mints } = minting();
		await cache.getToken(credentials(1));
		now = 900_000 - 60_001;
		await cache.getToken(credentials(1));
		expect(mints).toHaveLength(1);
		now = 900_000 - 60_000;
		await cache.getToken(credentials(1));
		expect(mints).toHaveLength(2);
	});

	it('gives a token request 10 s and an API request 30 s before it counts as timed out', () => {
		expect(settings.tokenRequestTimeoutMs).toBe(10_000);
		expect(settings.apiRequestTimeoutMs).toBe(30_000);
	});
});
