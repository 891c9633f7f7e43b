/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * What a caller of mintToken gets for each answer of the token endpoint, over real HTTP and through
 * both ways a token request is sent (`fetch` for the credential's `authenticate`, n8n's request
 * helper for the nodes): the form and headers on the wire, the error kind, HTTP status and message
 * per failure, the retries and their waits (through the injected sleep), and no secret in a message.
 */
import { createServer, type AddressInfo, type Server } from 'net';

import type { GstCredentialError } from '../../../../credentials/GstComplianceApi/credentialError';
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import {
	mintToken,
	n8nHttpRequestPost,
	type TokenPost,
} from '../../../../credentials/GstComplianceApi/tokenClient';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import { realN8nHelpers } from '../../helpers/realN8nHelpers';
import {
	fakeJwt,
	startScriptedServer,
	tokenAnswer,
	type ScriptedAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

// Characters a form must encode, so a decoded field proves the encoding.
const SECRET = 'edge-secret-Qz8+Kp/Wm= &x';
const CLIENT_ID = 'svc_test_edges';
const ADVICE =
	'Tokens are cached per n8n process, so this usually means other processes or tools mint ' +
	'tokens with the same client. Try again later.';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
	status,
	headers: { 'content-type': 'application/json', ...headers },
	body: typeof body === 'string' ? body : JSON.stringify(body),
});

let server: ScriptedServer;
let waits: number[];

beforeEach(async () => {
	waits = [];
	configureSettings({
		now: () => Date.UTC(2026, 0, 15, 12),
		sleep: async (ms) => void waits.push(ms),
		// The bottom of the jitter range: each backoff is half the exponential step.
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

const credentials = (authUrl = server.origin) =>
	parseCredentials({
		environment: 'sandbox',
		clientId: CLIENT_ID,
		clientSecret: SECRET,
		authUrl,
		realm: 'gst',
		sandboxApiUrl: authUrl,
	});
const host = () => new URL(server.origin).host;
const failure = async (post?: TokenPost, authUrl?: string) =>
	await mintToken(credentials(authUrl), post).then(
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

describe.each(transports)('a token request sent through %s', (_name, post) => {
	it('is one form POST of grant_type, client_id and client_secret (no scope), asking for JSON', async () => {
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
	});

	it.each<[string, ScriptedAnswer, GstCredentialError['kind'], RegExp, number, number[]]>([
		[
			'400 is a rejected client, not retried',
			json(400, { error: 'invalid_request', error_description: 'bad grant' }),
			'rejected',
			/^The token endpoint rejected the client id or secret \(HTTP 400: invalid_request - bad grant\)\. Check Client ID and Client Secret/,
			1,
			[],
		],
		[
			'401 is a rejected client, not retried',
			json(401, { error: 'invalid_client' }),
			'rejected',
			/^The token endpoint rejected the client id or secret \(HTTP 401: invalid_client\)\./,
			1,
			[],
		],
		[
			'403 points at Auth URL and Realm, not retried',
			json(403, { error: 'forbidden' }),
			'configuration',
			/^The token endpoint URL http:\/\/.*\/token answered HTTP 403: forbidden\. Check Auth URL and Realm in the credential\.$/,
			1,
			[],
		],
		[
			'404 points at Auth URL and Realm, not retried',
			json(404, 'no such realm'),
			'configuration',
			/^The token endpoint URL http:\/\/.*\/token answered HTTP 404\. Check Auth URL and Realm/,
			1,
			[],
		],
		[
			'503 is an unreachable endpoint, retried with backoff',
			json(503, { error: 'temporarily_unavailable' }),
			'unreachable',
			/^The token endpoint at .* failed with HTTP 503: temporarily_unavailable \(gave up after 3 attempts\)$/,
			3,
			[50, 100],
		],
		[
			'200 without a token is a bad response, retried with backoff',
			json(200, { token_type: 'Bearer' }),
			'badResponse',
			/^The token endpoint at .* answered HTTP 200 without a usable access token \(body: "\{"token_type":"Bearer"\}"\)\. Check the Auth URL and Realm\. \(gave up after 3 attempts\)$/,
			3,
			[50, 100],
		],
	])('%s', async (_case, answer, kind, message, attempts, backoff) => {
		server.answer(() => answer);
		const error = await failure(post());
		expect(error.kind).toBe(kind);
		expect(error.tokenEndpointStatus).toBe(answer.status);
		expect(error.message).toMatch(message);
		expectNoSecret(error);
		expect(server.requests).toHaveLength(attempts);
		expect(waits).toEqual(backoff);
	});

	it('waits out a Retry-After on 429 and then gets the token', async () => {
		server.answer((_request, index) =>
			index === 0 ? json(429, {}, { 'retry-after': '2' }) : tokenAnswer(),
		);
		await expect(mintToken(credentials(), post())).resolves.toHaveProperty('accessToken');
		expect(waits).toEqual([2_000]);
		expect(server.requests).toHaveLength(2);
	});

	it('429 on every attempt: rate-limited, with the wait asked for and the pause it causes', async () => {
		server.answer(() => json(429, {}, { 'retry-after': '1' }));
		const error = await failure(post());
		expect(error.kind).toBe('rateLimited');
		expect(error.tokenEndpointStatus).toBe(429);
		expect(error.retryAfterMs).toBe(1_000);
		expect(error.message).toBe(
			`The token endpoint at ${host()} is rate-limiting this client (HTTP 429) and asks to wait ` +
				`1 s; gave up after 3 attempts; new token requests with this credential are paused for ` +
				`1 s. ${ADVICE}`,
		);
		expect(waits).toEqual([1_000, 1_000]);
	});
});

describe('429 from the token endpoint', () => {
	it('without Retry-After: backs off, and gives up without announcing a pause', async () => {
		server.answer(() => json(429, { error: 'slow_down' }));
		const error = await failure();
		expect(error.kind).toBe('rateLimited');
		expect(error.tokenEndpointStatus).toBe(429);
		expect(error.retryAfterMs).toBeUndefined();
		expect(error.message).toBe(
			`The token endpoint at ${host()} is rate-limiting this client (HTTP 429); gave up after ` +
				`3 attempts. ${ADVICE}`,
		);
		expect(waits).toEqual([50, 100]);
	});

	it.each([
		['120 s: new token requests pause for as long', '120', 120_000, '120 s', '120 s'],
		['an hour: the pause is capped at 5 minutes', '3600', 3_600_000, '3600 s', '300 s'],
	])(
		'a Retry-After longer than the client waits (%s), gives up at once',
		async (_case, header, retryAfterMs, asked, paused) => {
			server.answer(() => json(429, {}, { 'retry-after': header }));
			const error = await failure();
			expect(error.kind).toBe('rateLimited');
			expect(error.retryAfterMs).toBe(retryAfterMs);
			expect(error.message).toBe(
				`The token endpoint at ${host()} is rate-limiting this client (HTTP 429) and asks to ` +
					`wait ${asked}, longer than this node waits; gave up after 1 attempt; new token ` +
					`requests with this credential are paused for ${paused}. ${ADVICE}`,
			);
			expect(server.requests).toHaveLength(1);
			expect(waits).toEqual([]);
		},
	);
});

describe("the server's OAuth error in a rejection", () => {
	const rejection = async (body: unknown) => {
		server.answer(() => json(401, body));
		const error = await failure();
		expect(error.kind).toBe('rejected');
		expectNoSecret(error);
		return error.message.slice(0, error.message.indexOf('. Check'));
	};
	const lead = 'The token endpoint rejected the client id or secret';

	it.each([
		['an empty JSON object', {}],
		['JSON null', 'null'],
		['a JSON array', '["invalid_client"]'],
		['plain text', 'Unauthorized'],
		['an empty body', ''],
		['error fields that are empty or not text', { error: '', error_description: 42 }],
	])('is left out when there is none (%s)', async (_case, body) => {
		expect(await rejection(body)).toBe(`${lead} (HTTP 401)`);
	});

	it('shows only the fields that are text', async () => {
		expect(await rejection({ error: 'invalid_client', error_description: '' })).toBe(
			`${lead} (HTTP 401: invalid_client)`,
		);
		expect(await rejection({ error: { code: 7 }, error_description: 'unknown client' })).toBe(
			`${lead} (HTTP 401: unknown client)`,
		);
	});

	it('joins error and description, with the secret redacted', async () => {
		expect(
			await rejection({ error: 'invalid_client', error_description: `secret ${SECRET} is old` }),
		).toBe(`${lead} (HTTP 401: invalid_client - secret [redacted] is old)`);
	});
});

describe('what counts as an issued token', () => {
	it.each([
		['JSON null', 'null'],
		['a JSON string', '"opaque-token"'],
		['an empty access_token', '{"access_token":""}'],
		['a numeric access_token', '{"access_token":42}'],
		['an empty body', ''],
		['HTML', '<html>login</html>'],
	])('not %s: a bad response, with the body shown', async (_case, body) => {
		server.answer(() => json(200, body));
		const error = await failure();
		expect(error.kind).toBe('badResponse');
		expect(error.message).toContain(`without a usable access token (body: "${body}")`);
		expect(server.requests).toHaveLength(3);
	});

	it('reads organization_id only when it is text', async () => {
		server.answer(() => json(200, { access_token: fakeJwt({ organization_id: 'org_7' }) }));
		await expect(mintToken(credentials())).resolves.toMatchObject({ organizationId: 'org_7' });
		server.answer(() => json(200, { access_token: fakeJwt({ organization_id: 7 }) }));
		const token = await mintToken(credentials());
		expect(token.organizationId).toBeUndefined();
	});
});

describe('an answer that is not HTTP', () => {
	let raw: Server;
	let origin: string;
	beforeEach(async () => {
		raw = createServer((socket) => {
			socket.on('data', () => socket.end('garbage\r\n\r\n'));
		});
		await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
	});
	afterEach(async () => await new Promise<void>((resolve) => raw.close(() => resolve())));

	it.each(transports)(
		'through %s: an unreachable endpoint, retried, said plainly (the request was sent, so n8n is not blamed)',
		async (_name, post) => {
			const error = await failure(post(), origin);
			expect(error.kind).toBe('unreachable');
			expect(error.tokenEndpointStatus).toBeUndefined();
			expect(error.message).toBe(
				`Could not reach the token endpoint at ${new URL(origin).host}: the answer was not ` +
					'valid HTTP. Check the Auth URL and that n8n can reach it. (gave up after 3 attempts)',
			);
			expect(waits).toEqual([50, 100]);
		},
	);
});

describe('an answer that cannot be read', () => {
	let raw: Server;
	let origin: string;
	const listen = async (answer: string) => {
		raw = createServer((socket) => {
			// The client may hang up mid-answer (the oversized headers).
			socket.on('error', () => {});
			socket.on('data', () => socket.end(answer));
		});
		await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
	};
	afterEach(async () => await new Promise<void>((resolve) => raw.close(() => resolve())));

	const unreadable = (headers: string, body: string) =>
		`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}` +
		`Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
	const notGzip = unreadable('Content-Encoding: gzip\r\n', 'not gzip at all');
	const hugeHeader = unreadable(`X-Padding: ${'a'.repeat(64 * 1024)}\r\n`, '{}');

	// Either way the request was sent, so the failure is the endpoint's, retried, never n8n's.
	it.each([
		['a body declared gzip that is not', 'fetch', notGzip, 'the answer could not be decompressed'],
		[
			'a body declared gzip that is not',
			"n8n's request helper",
			notGzip,
			'the answer could not be decompressed',
		],
		['headers over 64 KiB', 'fetch', hugeHeader, 'a network error occurred'],
		['headers over 64 KiB', "n8n's request helper", hugeHeader, 'the answer was not valid HTTP'],
	])('%s, through %s: unreachable, retried', async (_case, transport, answer, words) => {
		await listen(answer);
		const post = transports.find(([name]) => name === transport)![1];
		const error = await failure(post(), origin);
		expect(error.kind).toBe('unreachable');
		expect(error.message).toBe(
			`Could not reach the token endpoint at ${new URL(origin).host}: ${words}. ` +
				'Check the Auth URL and that n8n can reach it. (gave up after 3 attempts)',
		);
		expect(waits).toEqual([50, 100]);
	});
});

describe("n8n's request helper, whatever form it hands the answer over in", () => {
	/** n8n's real helper over real HTTP, with the response reshaped as another n8n version might. */
	const reshaped = (reshape: (response: Record<string, unknown>) => Record<string, unknown>) =>
		n8nHttpRequestPost(async (options) => {
			const response = (await realN8nHelpers().httpRequest(options)) as Record<string, unknown>;
			return reshape(response);
		});

	it.each([
		['a Buffer', (body: string) => Buffer.from(body)],
		['parsed JSON', (body: string) => JSON.parse(body) as unknown],
	])('a token body as %s is read', async (_case, toBody) => {
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
	])('no body (%s) is an empty one', async (_case, body) => {
		server.answer(() => json(200, { token_type: 'Bearer' }));
		const error = await failure(reshaped((response) => ({ ...response, body })));
		expect(error.kind).toBe('badResponse');
		expect(error.message).toContain('without a usable access token (body: "")');
	});

	it.each([
		['in any letter case', (value: unknown) => ({ 'Retry-After': value })],
		['as a list', (value: unknown) => ({ 'retry-after': [value, '30'] })],
	])('reads Retry-After %s', async (_case, headers) => {
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

	it('no headers at all: no Retry-After, so it backs off', async () => {
		server.answer((_request, index) => (index === 0 ? json(429, {}) : tokenAnswer()));
		await mintToken(
			credentials(),
			reshaped((response) => ({ ...response, headers: undefined })),
		);
		expect(waits).toEqual([50]);
	});
});
