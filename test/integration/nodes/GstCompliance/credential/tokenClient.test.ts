/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * What a caller of mintToken gets for each answer of the token endpoint: the form on the wire, the
 * lifetime of the token, and per failure the error kind, HTTP status and message, the retries and
 * their waits (through the injected sleep), and never the secret in a message; and a token request
 * that n8n's outbound request policy does not send. Over real HTTP from a scripted endpoint, through
 * both ways a token request is sent (`fetch` for the credential's `authenticate`, n8n's request
 * helper for the nodes); and through the node's transport against the emulator, where the error
 * reaches the user with its code. (How `expires_in` is read: jwtClaims.test.ts; the pause after a
 * 429: tokenCache.test.ts.)
 */
import { Container } from '@n8n/di';
import { createServer, type AddressInfo, type Server } from 'net';

import type { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';
import { parseCredentials } from '@/nodes/GstCompliance/credential/environment';
import {
	mintToken,
	n8nHttpRequestPost,
	type TokenPost,
} from '@/nodes/GstCompliance/credential/tokenClient';
import { gstApiRequest, type GstRequestContext } from '@/nodes/GstCompliance/transport/apiRequest';
import { configureSettings, resetSettings } from '@/test/integration/helpers/settings';
import type { ClientInfo, TokenFault } from '@/test/emulator';
import {
	closedPortUrl,
	apiContext,
	credentialData,
	FAST_RETRIES,
	recordingSleep,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { realN8nHelpers, TEST_NODE } from '@/test/integration/helpers/realN8nHelpers';
import {
	fakeJwt,
	startScriptedServer,
	tokenAnswer,
	type ScriptedAnswer,
	type ScriptedServer,
} from '@/test/integration/helpers/scriptedServer';

// Characters a form must encode, so a decoded field proves the encoding.
const SECRET = 'edge-secret-Qz8+Kp/Wm= &x';
const CLIENT_ID = 'svc_test_edges';
const ADVICE =
	'Tokens are cached per n8n process, so this usually means other n8n processes or tools ' +
	'request tokens with the same client. Try again later.';
const NOW = Date.UTC(2026, 0, 15, 12);
const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/;

// The emulator serves the tests through the node's transport; its beforeEach gives every test an
// empty token cache and fast retries. The scripted-endpoint tests replace its settings.
const emulator = useEmulatorForPackage();

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
	status,
	headers: { 'content-type': 'application/json', ...headers },
	body: typeof body === 'string' ? body : JSON.stringify(body),
});

let server: ScriptedServer;
let waits: number[];
let now: number;

/**
 * A scripted token endpoint (answering 500 until a test scripts it) and a clock the test moves;
 * each backoff is half the exponential step (the bottom of the jitter range), waits are recorded.
 */
function useScriptedEndpoint(): void {
	beforeEach(async () => {
		waits = [];
		now = NOW;
		resetSettings();
		configureSettings({
			now: () => now,
			sleep: async (ms) => void waits.push(ms),
			random: () => 0,
			tokenRetry: {
				maxAttempts: 3,
				baseDelayMs: 100,
				maxDelayMs: 1_000,
				maxRetryAfterMs: 10_000,
				maxTotalWaitMs: 60_000,
			},
		});
		server = await startScriptedServer(() => ({ status: 500 }));
	});
	afterEach(async () => {
		resetSettings();
		await server.close();
	});
}

const credentials = (authUrl = server.origin, clientSecret = SECRET) =>
	parseCredentials({
		environment: 'sandbox',
		clientId: CLIENT_ID,
		clientSecret,
		authUrl,
		realm: 'gst',
		sandboxApiUrl: authUrl,
	});
const host = () => new URL(server.origin).host;
const failure = async (post?: TokenPost, authUrl?: string, secret?: string) =>
	await mintToken(credentials(authUrl, secret), post).then(
		() => {
			throw new Error('expected the token request to fail');
		},
		(error: GstCredentialError) => error,
	);
const expectNoSecret = (error: Error) => {
	expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(SECRET);
};

const transports: Array<[string, () => TokenPost | undefined]> = [
	['fetch', () => undefined],
	["n8n's request helper", () => n8nHttpRequestPost(realN8nHelpers().httpRequest)],
];

/** One failing answer: the error kind, message, requests sent and backoff waits it comes to. */
type FailureCase = [string, ScriptedAnswer, GstCredentialError['kind'], RegExp, number, number[]];
const expectFailure = async (
	post: TokenPost | undefined,
	[, answer, kind, message, attempts, backoff]: FailureCase,
) => {
	server.answer(() => answer);
	const error = await failure(post);
	expect(error.kind).toBe(kind);
	expect(error.tokenEndpointStatus).toBe(answer.status);
	expect(error.message).toMatch(message);
	expectNoSecret(error);
	expect(server.requests).toHaveLength(attempts);
	expect(waits).toEqual(backoff);
};

let client: ClientInfo;

/** A sandbox client of the emulator, for the tests through the node's transport. */
function useEmulatorClient(): void {
	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});
}
const context = (overrides = {}) => apiContext(emulator(), client, overrides);
/** The error a GET through the node's transport ends in. */
const transportFailure = async (ctx = context()) => {
	const error = await gstApiRequest.call(ctx, 'GET', '/v1/einvoices/einv_x').then(
		() => undefined,
		(caught: Error) => caught,
	);
	expect(error).toBeInstanceOf(Error);
	return error as Error & { description?: string; context: Record<string, unknown> };
};
const tokenRequests = () => emulator().control.counters().tokenRequests[client.clientId] ?? 0;
const expectNothingLeaked = (error: Error & { description?: string }) => {
	const text = `${error.message} ${error.description ?? ''} ${JSON.stringify(error)}`;
	expect(text).not.toContain(client.clientSecret);
	expect(text).not.toMatch(JWT_LIKE);
};

describe('sends one form POST of grant_type, client_id and client_secret, without scope', () => {
	useScriptedEndpoint();

	it.each(transports)(
		'mintToken through %s → one form POST of the three fields, asking for JSON',
		async (_name, post) => {
			server.answer(() => tokenAnswer());
			await mintToken(credentials(), post());
			expect(server.requests).toHaveLength(1);
			const [request] = server.requests;
			expect(request.method).toBe('POST');
			expect(request.url).toBe('/realms/gst/protocol/openid-connect/token');
			expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
			expect(request.headers.accept).toBe('application/json');
			expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
				grant_type: 'client_credentials',
				client_id: CLIENT_ID,
				client_secret: SECRET,
			});
		},
	);
});

describe('never follows a redirect: the form with the secret goes nowhere else', () => {
	// The shipped timeout: on a loaded machine a short token timeout would add a retry.
	beforeEach(() => configureSettings({ tokenRequestTimeoutMs: 10_000 }));

	it.each([302, 307] as const)(
		'mintToken answered %i to another origin → "Check Auth URL and Realm", nothing sent there',
		async (status) => {
			const { control } = emulator();
			const redirected = control.createClient({ environment: 'sandbox' });
			// Switching the redirect on clears the record of what reached elsewhereUrl.
			control.setRedirect(true);
			control.setRedirect(false);
			control.injectTokenFaults([{ kind: 'redirect', status }]);
			const error = await mintToken(parseCredentials(credentialData(emulator(), redirected))).then(
				() => undefined,
				(caught: Error) => caught,
			);
			expect(error?.message).toMatch(
				new RegExp(
					`The answer was HTTP ${status}\\. Check Auth URL and Realm in the credential\\.$`,
				),
			);
			expect(control.elsewhereRequests()).toEqual([]);
			expect(control.counters().tokenRequests[redirected.clientId]).toBe(1);
		},
	);
});

describe("derives the lifetime from expires_in, capped by the token's exp, counted from the request", () => {
	useScriptedEndpoint();

	/** `rawExpiresIn` is JSON text; undefined leaves the field out. */
	const lifetimeFor = async (
		rawExpiresIn: string | undefined,
		claims: Record<string, unknown> = {},
	) => {
		const expiresIn = rawExpiresIn === undefined ? '' : `,"expires_in":${rawExpiresIn}`;
		server.answer(() => ({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: `{"access_token":"${fakeJwt(claims)}","token_type":"Bearer"${expiresIn}}`,
		}));
		return (await mintToken(credentials())).lifetimeMs;
	};

	it.each<[string, string | undefined, number]>([
		['a JSON number', '600', 600_000],
		['a numeric string', '"600"', 600_000],
		['a whole number written with a fraction (900.0)', '900.0', 900_000],
		['not a number (true): the documented 900 s', 'true', 900_000],
		['missing: the documented 900 s', undefined, 900_000],
	])('mintToken of a token whose expires_in is %s → that lifetime', async (_name, raw, ms) => {
		expect(await lifetimeFor(raw)).toBe(ms);
	});

	it('mintToken of a token whose exp - iat is shorter than expires_in → exp - iat; longer → expires_in', async () => {
		expect(await lifetimeFor('3600', { iat: 1000, exp: 1300 })).toBe(300_000);
		expect(await lifetimeFor('900', { iat: 1000, exp: 4600 })).toBe(900_000);
	});

	it('mintToken of a token whose expires_in fell back → still capped by exp, also by exp alone against our clock', async () => {
		expect(await lifetimeFor('true', { iat: 1000, exp: 1300 })).toBe(300_000);
		expect(await lifetimeFor('1e308', { exp: NOW / 1000 + 120 })).toBe(120_000);
	});

	it('mintToken → requestedAt is when the request was sent, not when the answer came', async () => {
		server.answer(() => {
			now += 5_000;
			return tokenAnswer();
		});
		const token = await mintToken(credentials());
		expect(token.requestedAt).toBe(NOW);
		expect(now).toBe(NOW + 5_000);
	});

	it('mintToken → organization_id read from the token only when it is text', async () => {
		server.answer(() => json(200, { access_token: fakeJwt({ organization_id: 'org_7' }) }));
		await expect(mintToken(credentials())).resolves.toMatchObject({ organizationId: 'org_7' });
		server.answer(() => json(200, { access_token: fakeJwt({ organization_id: 7 }) }));
		expect((await mintToken(credentials())).organizationId).toBeUndefined();
	});

	it('mintToken of an opaque token (not a JWT) → taken as given, no organization, lifetime from expires_in', async () => {
		server.answer(() => json(200, { access_token: 'opaque', expires_in: '60' }));
		await expect(mintToken(credentials())).resolves.toMatchObject({
			accessToken: 'opaque',
			lifetimeMs: 60_000,
			organizationId: undefined,
		});
	});
});

describe('rejects a bad client id or secret (400, 401) at once, with the OAuth error', () => {
	describe('over a scripted endpoint', () => {
		useScriptedEndpoint();

		describe.each(transports)('through %s', (_name, post) => {
			it.each<FailureCase>([
				[
					'400',
					json(400, { error: 'invalid_request', error_description: 'bad grant' }),
					'rejected',
					/^The token service rejected the client id or secret\. The answer was HTTP 400: invalid_request - bad grant\. Check Client ID and Client Secret/,
					1,
					[],
				],
				[
					'401',
					json(401, { error: 'invalid_client' }),
					'rejected',
					/^The token service rejected the client id or secret\. The answer was HTTP 401: invalid_client\./,
					1,
					[],
				],
			])('mintToken answered %s → rejected after one request', async (...row) => {
				await expectFailure(post(), row);
			});
		});

		const rejection = async (body: unknown) => {
			server.answer(() => json(401, body));
			const error = await failure();
			expect(error.kind).toBe('rejected');
			expectNoSecret(error);
			return error.message.slice(0, error.message.indexOf('. Check'));
		};
		const lead = 'The token service rejected the client id or secret. The answer was';

		it.each([
			['an empty JSON object', {}],
			['JSON null', 'null'],
			['a JSON array', '["invalid_client"]'],
			['an empty body', ''],
			['error fields that are empty or not text', { error: '', error_description: 42 }],
		])('mintToken answered 401 with %s → no server text in the message', async (_case, body) => {
			expect(await rejection(body)).toBe(`${lead} HTTP 401`);
		});

		it('mintToken answered 401 with plain text → the text shown', async () => {
			expect(await rejection('Unauthorized')).toBe(`${lead} HTTP 401: Unauthorized`);
		});

		it('mintToken answered 401 with one error field that is not text → only the text field shown', async () => {
			expect(await rejection({ error: 'invalid_client', error_description: '' })).toBe(
				`${lead} HTTP 401: invalid_client`,
			);
			expect(await rejection({ error: { code: 7 }, error_description: 'unknown client' })).toBe(
				`${lead} HTTP 401: unknown client`,
			);
		});
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('a request with a wrong secret → CREDENTIALS_REJECTED after one token request, the secret not echoed', async () => {
			const error = await transportFailure(context({ clientSecret: 'wrong-secret-value' }));
			expect(error.message).toBe('The token service rejected the client id or secret.');
			expect(error.description).toMatch(/^The answer was HTTP 401: invalid_client/);
			expect(error.message).not.toContain('wrong-secret-value');
			expect(error.context.gstCode).toBe('CREDENTIALS_REJECTED');
			expect(tokenRequests()).toBe(1);
			expectNothingLeaked(error);
		});
	});
});

describe('points at Auth URL and Realm for any other 4xx, not retried', () => {
	useScriptedEndpoint();

	describe.each(transports)('through %s', (_name, post) => {
		it.each<FailureCase>([
			[
				'403',
				json(403, { error: 'forbidden' }),
				'configuration',
				/^The token URL http:\/\/.*\/token did not give a token\. The answer was HTTP 403: forbidden\. Check Auth URL and Realm in the credential\.$/,
				1,
				[],
			],
			[
				'404',
				json(404, 'no such realm'),
				'configuration',
				/^The token URL http:\/\/.*\/token did not give a token\. The answer was HTTP 404: no such realm\. Check Auth URL and Realm/,
				1,
				[],
			],
		])('mintToken answered %s → a configuration error after one request', async (...row) => {
			await expectFailure(post(), row);
		});
	});
});

describe('retries a 5xx, a network failure and a 200 without a token with backoff, then gives up', () => {
	describe('over a scripted endpoint', () => {
		useScriptedEndpoint();

		describe.each(transports)('through %s', (_name, post) => {
			it.each<FailureCase>([
				[
					'503',
					json(503, { error: 'temporarily_unavailable' }),
					'unreachable',
					/^The token service at .* has a problem on its side \(gave up after 3 attempts\)\. The answer was HTTP 503: temporarily_unavailable\. Try again in a few minutes/,
					3,
					[50, 100],
				],
				[
					'200 without a token',
					json(200, { token_type: 'Bearer' }),
					'badResponse',
					/^The token service at .* gave no usable access token \(gave up after 3 attempts\)\. The answer was HTTP 200 \(body: "\{"token_type":"Bearer"\}"\)\. Check the Auth URL and Realm\.$/,
					3,
					[50, 100],
				],
			])('mintToken answered %s → 3 attempts, then the error', async (...row) => {
				await expectFailure(post(), row);
			});
		});

		it.each([
			['JSON null', 'null'],
			['a JSON string', '"opaque-token"'],
			['an empty access_token', '{"access_token":""}'],
			['a numeric access_token', '{"access_token":42}'],
			['an empty body', ''],
			['HTML', '<html>login</html>'],
		])(
			'mintToken answered 200 with %s → a bad response, with the body shown',
			async (_case, body) => {
				server.answer(() => json(200, body));
				const error = await failure();
				expect(error.kind).toBe('badResponse');
				expect(error.message).toContain(`no usable access token`);
				expect(error.message).toContain(`(body: "${body}")`);
				expect(server.requests).toHaveLength(3);
			},
		);
	});

	describe('over a TCP server that does not answer in readable HTTP', () => {
		useScriptedEndpoint();
		let raw: Server | undefined;
		/** Starts a server that answers any request with `answer` and hangs up; its origin. */
		const listen = async (answer: string) => {
			const started = createServer((socket) => {
				// The client may hang up mid-answer (the oversized headers).
				socket.on('error', () => {});
				socket.on('data', () => socket.end(answer));
			});
			raw = started;
			await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
			return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
		};
		afterEach(async () => {
			const started = raw;
			raw = undefined;
			if (started) await new Promise<void>((resolve) => started.close(() => resolve()));
		});

		const unreadable = (headers: string, body: string) =>
			`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}` +
			`Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
		const notHttp = 'garbage\r\n\r\n';
		const notGzip = unreadable('Content-Encoding: gzip\r\n', 'not gzip at all');
		const hugeHeader = unreadable(`X-Padding: ${'a'.repeat(64 * 1024)}\r\n`, '{}');

		// The request was sent, so the failure is the endpoint's, retried, said plainly, never n8n's.
		it.each([
			['an answer that is not HTTP', 'fetch', notHttp, 'the answer was not valid HTTP'],
			[
				'an answer that is not HTTP',
				"n8n's request helper",
				notHttp,
				'the answer was not valid HTTP',
			],
			[
				'a body declared gzip that is not',
				'fetch',
				notGzip,
				'the answer could not be decompressed',
			],
			[
				'a body declared gzip that is not',
				"n8n's request helper",
				notGzip,
				'the answer could not be decompressed',
			],
			['headers over 64 KiB', 'fetch', hugeHeader, 'a network error occurred'],
			['headers over 64 KiB', "n8n's request helper", hugeHeader, 'the answer was not valid HTTP'],
		])(
			'mintToken answered %s, through %s → unreachable, retried, no HTTP status',
			async (_case, transport, answer, words) => {
				const origin = await listen(answer);
				const post = transports.find(([name]) => name === transport)![1];
				const error = await failure(post(), origin);
				expect(error.kind).toBe('unreachable');
				expect(error.tokenEndpointStatus).toBeUndefined();
				expect(error.message).toBe(
					`Could not reach the token service at ${new URL(origin).host}: ${words} (gave up after 3 attempts). ` +
						'Check the Auth URL and that n8n can reach it.',
				);
				expect(waits).toEqual([50, 100]);
			},
		);
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();
		const maxAttempts = FAST_RETRIES.tokenRetry!.maxAttempts;

		it.each<[string, TokenFault, RegExp]>([
			[
				'500',
				{ kind: 'status', status: 500 },
				/token service at .* has a problem on its side \(gave up after 3 attempts\)\.$/,
			],
			[
				'timeout',
				{ kind: 'timeout' },
				/Could not reach the token service at .*: no answer within the time limit.*gave up after 3 attempts/,
			],
			['non-JSON', { kind: 'garbage' }, /no usable access token.*gave up after 3 attempts/],
		])(
			'a request while the token endpoint answers %s every time → a clear error after exactly maxAttempts token requests, no API request',
			async (_name, fault, message) => {
				// The count of attempts is the point, not the time limit: a short one keeps this test fast.
				configureSettings({ tokenRequestTimeoutMs: 300 });
				emulator().control.injectTokenFaults(Array.from({ length: maxAttempts }, () => fault));
				const error = await transportFailure();
				expect(error.message).toMatch(message);
				expect(tokenRequests()).toBe(maxAttempts);
				expect(emulator().control.counters().apiRequestsTotal).toBe(0);
				expectNothingLeaked(error);
			},
		);

		it('a request while the token endpoint fails once with 500 → the e-invoice, after a second token request', async () => {
			emulator().control.injectTokenFaults([{ kind: 'status', status: 500 }]);
			const einvoice = emulator().control.createEinvoice({
				organizationId: client.organizationId,
				environment: 'sandbox',
			});
			await expect(
				gstApiRequest.call(context(), 'GET', `/v1/einvoices/${einvoice.id}`),
			).resolves.toMatchObject({ id: einvoice.id });
			expect(tokenRequests()).toBe(2);
		});

		it('a request to a token host nobody listens on → TOKEN_ENDPOINT_UNREACHABLE naming the host, after 3 attempts', async () => {
			const authUrl = await closedPortUrl();
			const error = await transportFailure(context({ authUrl }));
			expect(error.message).toContain(
				`Could not reach the token service at ${new URL(authUrl).host}: the connection was refused`,
			);
			expect(error.message).toContain('gave up after 3 attempts');
			expect(error.context.gstCode).toBe('TOKEN_ENDPOINT_UNREACHABLE');
		});
	});
});

describe('retries a 429 after its Retry-After', () => {
	describe('over a scripted endpoint', () => {
		useScriptedEndpoint();

		describe.each(transports)('through %s', (_name, post) => {
			it('mintToken answered 429 with Retry-After 2 s, then a token → waits 2 s, the token', async () => {
				server.answer((_request, index) =>
					index === 0 ? json(429, {}, { 'retry-after': '2' }) : tokenAnswer(),
				);
				await expect(mintToken(credentials(), post())).resolves.toHaveProperty('accessToken');
				expect(waits).toEqual([2_000]);
				expect(server.requests).toHaveLength(2);
			});

			it('mintToken answered 429 every time → rate-limited, with the wait asked for and the pause it causes', async () => {
				server.answer(() => json(429, {}, { 'retry-after': '1' }));
				const error = await failure(post());
				expect(error.kind).toBe('rateLimited');
				expect(error.tokenEndpointStatus).toBe(429);
				expect(error.retryAfterMs).toBe(1_000);
				expect(error.message).toBe(
					`The token service at ${host()} is rate-limiting this client and asks to wait ` +
						`1 s; gave up after 3 attempts; new token requests with this credential are paused for ` +
						`1 s. The answer was HTTP 429. ${ADVICE}`,
				);
				expect(waits).toEqual([1_000, 1_000]);
			});
		});

		it('mintToken answered 429 without Retry-After → backs off, and gives up without announcing a pause', async () => {
			server.answer(() => json(429, { error: 'slow_down' }));
			const error = await failure();
			expect(error.kind).toBe('rateLimited');
			expect(error.tokenEndpointStatus).toBe(429);
			expect(error.retryAfterMs).toBeUndefined();
			expect(error.message).toBe(
				`The token service at ${host()} is rate-limiting this client; gave up after ` +
					`3 attempts. The answer was HTTP 429. ${ADVICE}`,
			);
			expect(waits).toEqual([50, 100]);
		});

		it.each([
			['120 s: new token requests pause for as long', '120', 120_000, '120 s', '120 s'],
			['an hour: the pause is capped at 5 minutes', '3600', 3_600_000, '3600 s', '300 s'],
		])(
			'mintToken answered 429 with a Retry-After longer than the client waits (%s) → gives up at once',
			async (_case, header, retryAfterMs, asked, paused) => {
				server.answer(() => json(429, {}, { 'retry-after': header }));
				const error = await failure();
				expect(error.kind).toBe('rateLimited');
				expect(error.retryAfterMs).toBe(retryAfterMs);
				expect(error.message).toBe(
					`The token service at ${host()} is rate-limiting this client and asks to ` +
						`wait ${asked}, longer than this node waits; gave up after 1 attempt; new token ` +
						`requests with this credential are paused for ${paused}. The answer was HTTP 429. ${ADVICE}`,
				);
				expect(server.requests).toHaveLength(1);
				expect(waits).toEqual([]);
			},
		);
	});

	describe('through the transport (emulator)', () => {
		useEmulatorClient();

		it('20 concurrent requests answered one 429 with Retry-After 1 s → one wait of 1 s shared, two token requests', async () => {
			const recorder = recordingSleep();
			configureSettings({ sleep: recorder.sleep });
			const einvoice = emulator().control.createEinvoice({
				organizationId: client.organizationId,
				environment: 'sandbox',
			});
			emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 1 }]);
			const ctx = context();
			const results = await Promise.all(
				Array.from(
					{ length: 20 },
					async () => await gstApiRequest.call(ctx, 'GET', `/v1/einvoices/${einvoice.id}`),
				),
			);
			expect(results.every((result) => result.id === einvoice.id)).toBe(true);
			expect(recorder.waits).toEqual([1000]);
			expect(tokenRequests()).toBe(2);
		});

		it('a request answered 429 with a Retry-After over the bound → TOKEN_RATE_LIMITED at once, after one token request', async () => {
			emulator().control.injectTokenFaults([
				{ kind: 'status', status: 429, retryAfterSeconds: 120 },
			]);
			const error = await transportFailure();
			expect(error.message).toMatch(
				/rate-limiting this client and asks to wait 120 s, longer than this node waits; gave up after 1 attempt/,
			);
			expect(error.context.gstCode).toBe('TOKEN_RATE_LIMITED');
			expect(tokenRequests()).toBe(1);
			expectNothingLeaked(error);
		});
	});
});

describe("reads n8n's request helper's answer in whatever form it comes", () => {
	useScriptedEndpoint();

	/** n8n's real helper over real HTTP, with the response reshaped as another n8n version might. */
	const reshaped = (reshape: (response: Record<string, unknown>) => Record<string, unknown>) =>
		n8nHttpRequestPost(async (options) => {
			const response = (await realN8nHelpers().httpRequest(options)) as Record<string, unknown>;
			return reshape(response);
		});

	it.each([
		['a Buffer', (body: string) => Buffer.from(body)],
		['parsed JSON', (body: string) => JSON.parse(body) as unknown],
	])('mintToken with the token body as %s → the token read', async (_case, toBody) => {
		server.answer(() => tokenAnswer(600, { organization_id: 'org_1' }));
		const post = reshaped((response) => ({ ...response, body: toBody(response.body as string) }));
		await expect(mintToken(credentials(), post)).resolves.toMatchObject({
			lifetimeMs: 600_000,
			organizationId: 'org_1',
		});
	});

	it.each([
		['undefined', undefined],
		['null', null],
	])('mintToken with no body (%s) → read as an empty one', async (_case, body) => {
		server.answer(() => json(200, { token_type: 'Bearer' }));
		const error = await failure(reshaped((response) => ({ ...response, body })));
		expect(error.kind).toBe('badResponse');
		expect(error.message).toContain(
			'no usable access token (gave up after 3 attempts). The answer was HTTP 200 (body: "")',
		);
	});

	it.each([
		['in any letter case', (value: unknown) => ({ 'Retry-After': value })],
		['as a list', (value: unknown) => ({ 'retry-after': [value, '30'] })],
	])('mintToken with Retry-After %s → waited', async (_case, headers) => {
		server.answer((_request, index) =>
			index === 0 ? json(429, {}, { 'retry-after': '3' }) : tokenAnswer(),
		);
		const post = reshaped((response) => ({
			...response,
			headers: headers((response.headers as Record<string, unknown>)['retry-after']),
		}));
		await mintToken(credentials(), post);
		expect(waits).toEqual([3_000]);
	});

	it('mintToken with no headers at all → no Retry-After, so it backs off', async () => {
		server.answer((_request, index) => (index === 0 ? json(429, {}) : tokenAnswer()));
		await mintToken(
			credentials(),
			reshaped((response) => ({ ...response, headers: undefined })),
		);
		expect(waits).toEqual([50]);
	});
});

describe("refuses, as a configuration error, a token request n8n's outbound request policy does not send: nothing sent, not retried", () => {
	useScriptedEndpoint();
	// Protection on (loopback IPs are in its default blocked ranges), `localhost` allowed by name.
	// n8n-core reads the policy when it first builds its outbound client, so the client is dropped
	// on entry and on exit, and the next request builds it again.
	beforeAll(() => {
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
		process.env.N8N_SSRF_ALLOWED_HOSTNAMES = 'localhost';
		Container.reset();
	});
	afterAll(() => {
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
		delete process.env.N8N_SSRF_ALLOWED_HOSTNAMES;
		Container.reset();
	});

	/** A node's context whose credential points both URLs at `origin`, with n8n's real helpers. */
	const nodeContext = (origin: string): GstRequestContext => ({
		getNode: () => TEST_NODE,
		getCredentials: async <T extends object>() =>
			({
				environment: 'sandbox',
				clientId: CLIENT_ID,
				clientSecret: SECRET,
				authUrl: origin,
				realm: 'gst',
				sandboxApiUrl: origin,
			}) as T,
		helpers: realN8nHelpers(),
	});

	it("mintToken through n8n's request helper to a host the policy blocks → a configuration error naming the host, nothing sent, not retried", async () => {
		server.answer(() => tokenAnswer());
		const error = await failure(n8nHttpRequestPost(realN8nHelpers().httpRequest));
		expect(error.kind).toBe('configuration');
		expect(error.tokenEndpointStatus).toBeUndefined();
		expect(error.message).toMatch(
			new RegExp(
				`^n8n did not send the request to the token service at ${host()}: .+\\. ` +
					"If n8n's outbound request policy blocks this host",
			),
		);
		expect(error.message).not.toContain('gave up');
		expectNoSecret(error);
		expect(waits).toEqual([]);
		expect(server.requests).toHaveLength(0);
	});

	it('gstApiRequest with the token host blocked by the policy → that error, naming the N8N_SSRF settings, nothing sent', async () => {
		const error = await gstApiRequest
			.call(nodeContext(server.origin), 'GET', '/v1/einvoices/einv_1')
			.then(
				() => undefined,
				(caught: Error) => caught,
			);
		expect(error).toBeInstanceOf(Error);
		expect(error?.message).toMatch(/n8n did not send the request to the token service/);
		expect((error as { description?: string })?.description).toMatch(/N8N_SSRF/);
		expect(error?.message).not.toContain(SECRET);
		expect(server.requests).toHaveLength(0);
	});

	it("gstApiRequest with the token host allowed by name (localhost) → the token minted through n8n's helper, the API called with it", async () => {
		server.answer((request) => (request.method === 'POST' ? tokenAnswer() : json(404, {})));
		const origin = server.origin.replace('127.0.0.1', 'localhost');
		const error = await gstApiRequest
			.call(nodeContext(origin), 'GET', '/v1/einvoices/einv_1')
			.catch((caught: Error) => caught);
		expect((error as Error).message).toMatch(/was not found/); // the scripted API answers 404
		expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
		expect(server.requests[1].headers.authorization).toMatch(/^Bearer eyJ/);
	});
});

describe('keeps the client secret out of every message', () => {
	useScriptedEndpoint();

	const secretIn = (text: string) => `${text} ${SECRET}`;
	const expectRedacted = (error: Error) => {
		expectNoSecret(error);
		expect(error.message).toContain('[redacted]');
	};

	it('mintToken answered 401 whose description holds the secret → error and description joined, the secret [redacted]', async () => {
		server.answer(() =>
			json(401, { error: 'invalid_client', error_description: `secret ${SECRET} is old` }),
		);
		const error = await failure();
		expect(error.message).toMatch(
			/^The token service rejected the client id or secret\. The answer was HTTP 401: invalid_client - secret \[redacted\] is old\. Check/,
		);
		expectRedacted(error);
	});

	it('mintToken answered 404 with the secret in its text → "Check Auth URL and Realm", the text redacted', async () => {
		server.answer(() =>
			json(404, { error: 'not_found', error_description: secretIn('no realm for') }),
		);
		const error = await failure();
		expect(error.message).toMatch(
			/The answer was HTTP 404: not_found - no realm for \[redacted\]\. Check Auth URL and Realm in the credential\.$/,
		);
		expectRedacted(error);
	});

	it('mintToken answered 200 without a token, echoing the secret → the body excerpt redacted', async () => {
		server.answer(() => json(200, { note: secretIn('echo') }));
		const error = await failure();
		expect(error.message).toMatch(/no usable access token.*\(body: ".*\[redacted\].*"\)/);
		expectRedacted(error);
	});

	it('mintToken answered 503 with the secret in its text → the server text redacted', async () => {
		server.answer(() => json(503, { error: 'server_error', error_description: secretIn('down') }));
		const error = await failure();
		expect(error.message).toMatch(
			/has a problem on its side \(gave up after 3 attempts\)\. The answer was HTTP 503: server_error - down \[redacted\]\. Try again/,
		);
		expectRedacted(error);
	});

	describe('in whatever form the endpoint echoes the form body', () => {
		const SECRETS = [
			'Qz8+Kp/Wm=Xv Rt&Ly%Nb~!*()\'"\\<>',
			'abc+def/ghi=jklmnopqrstu',
			'pässwörd-ünïcode-€-😀-tail',
			'Zx9kQ2mP7rT4vW8yB3nH',
		];
		const form = (secret: string) => new URLSearchParams({ s: secret }).toString().slice(2);
		/** Any 8 consecutive characters of `needle` that survive in `haystack`. */
		const leakedPart = (haystack: string, needle: string) => {
			for (let at = 0; at + 8 <= needle.length; at++) {
				if (haystack.includes(needle.slice(at, at + 8))) return needle.slice(at, at + 8);
			}
			return undefined;
		};

		it.each(SECRETS)(
			'mintToken answered 401 whose description echoes the form body (secret %s) → no 8 characters of it, raw or encoded',
			async (secret) => {
				server.answer((request) =>
					json(401, { error: 'invalid_client', error_description: `bad body ${request.body}` }),
				);
				const error = await failure(undefined, undefined, secret);
				expect(error.message).toContain('invalid_client');
				expect(leakedPart(error.message, form(secret))).toBeUndefined();
				expect(leakedPart(error.message, secret)).toBeUndefined();
			},
		);

		it.each(SECRETS)(
			'mintToken answered 200 with a non-JSON echo of the form body (secret %s) → not even its first 4 characters',
			async (secret) => {
				server.answer((request) => ({ status: 200, body: `echo: ${request.body}` }));
				const error = await failure(undefined, undefined, secret);
				expect(error.kind).toBe('badResponse');
				// Not even the first characters the 80-character excerpt would reach.
				expect(error.message).not.toContain(form(secret).slice(0, 4));
				expect(leakedPart(error.message, secret)).toBeUndefined();
			},
		);
	});
});
