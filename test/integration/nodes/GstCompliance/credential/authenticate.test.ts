/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The credential's `authenticate`, as the package's nodes call it and as n8n's request helpers do
 * (the HTTP Request node with "Predefined credential type → GST Compliance API"): it attaches the
 * cached token, checks the client id against the environment before any network call, sends the
 * token to the environment's API origin only, however the request names its URL (every field n8n's
 * request layers read, `url`, `uri` and `baseURL`, resolved both the way n8n checks it and the way
 * axios sends it), and never over a channel another party could read. Against the emulator, and
 * with n8n-core's real helpers over a scripted API host and a foreign one to prove where a request
 * that passes lands.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { GstComplianceApi } from '@/credentials/GstComplianceApi.credentials';
import { gstApiRequest } from '@/nodes/GstCompliance/transport/apiRequest';
import {
	assertVerifiedChannel,
	authenticateRequest,
} from '@/nodes/GstCompliance/credential/authenticate';
import { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';
import { parseCredentials } from '@/nodes/GstCompliance/credential/environment';
import { tokenCache } from '@/nodes/GstCompliance/credential/tokenCache';
import { resetSettings } from '@/test/integration/helpers/settings';
import type { ClientInfo } from '@/test/emulator';
import { recordOutboundRequests } from '@/test/integration/helpers/outboundRequests';
import {
	apiContext,
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { realN8nHelpers } from '@/test/integration/helpers/realN8nHelpers';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '@/test/integration/helpers/scriptedServer';

const outbound = recordOutboundRequests();
const emulator = useEmulatorForPackage();
let client: ClientInfo;

beforeEach(() => {
	outbound.reset();
	client = emulator().control.createClient({ environment: 'sandbox' });
});

const context = (overrides = {}) => apiContext(emulator(), client, overrides);
const createEinvoice = () =>
	emulator().control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
	}).id;

describe('attaches the cached token in place of any Authorization header, kept off cross-origin redirects', () => {
	it('requestWithAuthentication (legacy helper, absolute uri) twice → the e-invoice both times, one token minted', async () => {
		const einvoiceId = createEinvoice();
		const ctx = context();
		const uri = `${emulator().sandboxUrl}/v1/einvoices/${einvoiceId}`;
		const first = await ctx.helpers.requestWithAuthentication.call(ctx, 'gstComplianceApi', {
			method: 'GET',
			uri,
			json: true,
		});
		const second = await ctx.helpers.requestWithAuthentication.call(ctx, 'gstComplianceApi', {
			method: 'GET',
			uri,
			json: true,
		});
		expect(first).toMatchObject({ id: einvoiceId, object: 'einvoice' });
		expect(second).toEqual(first);
		expect(emulator().control.counters().tokenMints[client.clientId]).toBe(1);
	});

	it("authenticateRequest with an Authorization header of the caller's → only ours, the other headers kept, the API URL as base, no credentials on a cross-origin redirect", async () => {
		expect(new GstComplianceApi().authenticate).toBe(authenticateRequest);
		const authed = await authenticateRequest(credentialData(emulator(), client), {
			url: '/v1/einvoices/x',
			headers: { authorization: 'Bearer attacker', 'X-Other': '1' },
		} as IHttpRequestOptions);
		const headers = authed.headers as Record<string, string>;
		expect(Object.keys(headers).filter((name) => name.toLowerCase() === 'authorization')).toEqual([
			'Authorization',
		]);
		expect(headers.Authorization).toBe(
			`Bearer ${tokenCache.peek(parseCredentials(credentialData(emulator(), client)))?.accessToken}`,
		);
		expect(headers['X-Other']).toBe('1');
		expect(authed.baseURL).toBe(emulator().sandboxUrl);
		expect(authed.sendCredentialsOnCrossOriginRedirect).toBe(false);
	});
});

describe('checks the client id against the environment before any network call', () => {
	it.each([
		['sandbox', 'svc_live_0123'],
		['production', 'svc_test_0123'],
		['sandbox', 'acme_0123'],
	])(
		'gstApiRequest with a %s credential and client id %s → refused, no token or API request',
		async (environment, clientId) => {
			const ctx = context({ environment, clientId });
			await expect(gstApiRequest.call(ctx, 'GET', '/v1/einvoices/einv_1')).rejects.toThrow(
				/Client ID (starts with|prefix)/,
			);
			const counters = emulator().control.counters();
			expect(counters.tokenRequestsTotal).toBe(0);
			expect(counters.apiRequestsTotal).toBe(0);
		},
	);
});

describe("sends the token to the environment's API origin only, however the request names its URL", () => {
	describe("through n8n's request helpers (emulator)", () => {
		it('httpRequestWithAuthentication with a relative url → sent to the environment API host', async () => {
			const einvoiceId = createEinvoice();
			const ctx = context();
			const body = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'gstComplianceApi', {
				method: 'GET',
				url: `/v1/einvoices/${einvoiceId}`,
				json: true,
			});
			expect(body).toMatchObject({ id: einvoiceId });
			expect(outbound.requests[0].url.startsWith(emulator().sandboxUrl)).toBe(true);
		});

		it.each([
			['another host', 'http://127.0.0.1:9/v1/einvoices/einv_1'],
			['the other environment host', 'production'],
		])(
			'requestWithAuthentication with an absolute uri on %s → refused, before minting',
			async (_name, target) => {
				const ctx = context();
				const uri =
					target === 'production' ? `${emulator().productionUrl}/v1/einvoices/einv_1` : target;
				const error = await ctx.helpers.requestWithAuthentication
					.call(ctx, 'gstComplianceApi', { method: 'GET', uri })
					.catch((caught: Error) => caught);
				expect((error as Error).message).toMatch(/only sends its token to the Sandbox API URL/);
				const counters = emulator().control.counters();
				expect(counters.apiRequestsTotal).toBe(0);
				expect(counters.tokenRequestsTotal).toBe(0);
			},
		);
	});

	describe("with n8n-core's real helpers, over a scripted API host and a foreign one", () => {
		let api: ScriptedServer;
		let evil: ScriptedServer;
		beforeEach(async () => {
			api = await startScriptedServer((request) =>
				request.method === 'POST' && request.url.includes('/protocol/openid-connect/token')
					? tokenAnswer()
					: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
			);
			evil = await startScriptedServer(() => ({ status: 200, body: '{}' }));
		});
		afterEach(async () => {
			tokenCache.clear();
			resetSettings();
			await api.close();
			await evil.close();
		});

		const data = () => ({
			environment: 'sandbox',
			clientId: 'svc_test_hostcheck',
			clientSecret: 'host-check-secret-value',
			authUrl: api.origin,
			realm: 'gst',
			sandboxApiUrl: api.origin,
		});
		const evilHostPort = () => new URL(evil.origin).host;
		const evilPort = () => new URL(evil.origin).port;

		const HOSTILE: Array<[string, () => Record<string, unknown>]> = [
			['a relative uri and a foreign url', () => ({ uri: '/v1/x', url: `${evil.origin}/x` })],
			['a relative url and a foreign uri', () => ({ url: '/v1/x', uri: `${evil.origin}/x` })],
			['a protocol-relative url', () => ({ url: `//${evilHostPort()}/x` })],
			['a protocol-relative uri', () => ({ uri: `//${evilHostPort()}/x` })],
			['backslashes', () => ({ url: `\\\\${evilHostPort()}\\x` })],
			['a slash then a backslash', () => ({ url: `/\\${evilHostPort()}/x` })],
			['a backslash then a slash', () => ({ url: `\\/${evilHostPort()}/x` })],
			['a leading space before //', () => ({ url: ` //${evilHostPort()}/x` })],
			['a leading tab before //', () => ({ url: `\t//${evilHostPort()}/x` })],
			['a newline inside //', () => ({ url: `/\n/${evilHostPort()}/x` })],
			['a NUL before //', () => ({ url: `\u0000//${evilHostPort()}/x` })],
			[
				'user info that looks like the API host',
				() => ({ url: `${api.origin}@${evilHostPort()}/x` }),
			],
			['a mixed-case scheme', () => ({ url: `HtTp://${evilHostPort()}/x` })],
			['a scheme without slashes', () => ({ url: `http:${evilHostPort()}/x` })],
			['a scheme with one slash', () => ({ url: `http:/${evilHostPort()}/x` })],
			['a scheme with backslashes', () => ({ url: `http:\\\\${evilHostPort()}\\x` })],
			['a foreign baseURL', () => ({ url: '/v1/x', baseURL: evil.origin })],
			['a foreign baseURL alone', () => ({ baseURL: evil.origin })],
			[
				'a foreign baseURL and a relative uri',
				() => ({ uri: '/v1/x', baseURL: `${evil.origin}/` }),
			],
			['a URL object', () => ({ url: new URL(`${evil.origin}/x`) })],
			['localhost instead of 127.0.0.1', () => ({ url: `http://localhost:${evilPort()}/x` })],
			['the IPv6 loopback', () => ({ url: `http://[::1]:${evilPort()}/x` })],
			['a host with a trailing dot', () => ({ url: `http://localhost.:${evilPort()}/x` })],
			['the same host on another port', () => ({ url: `http://127.0.0.1:${evilPort()}/v1/x` })],
			['https on the API port', () => ({ url: `https://${new URL(api.origin).host}/v1/x` })],
			['a javascript: scheme', () => ({ url: 'javascript:alert(1)' })],
			['a url that is not a string', () => ({ url: 42 })],
		];

		it.each(HOSTILE)(
			'authenticateRequest with %s → foreignHost, before any token is minted',
			async (_name, options) => {
				const error = await authenticateRequest(data(), {
					method: 'GET',
					...options(),
				} as IHttpRequestOptions).then(
					() => undefined,
					(caught: unknown) => caught,
				);
				expect(error).toBeInstanceOf(GstCredentialError);
				expect((error as GstCredentialError).kind).toBe('foreignHost');
				expect((error as Error).message).toMatch(/only sends its token to the Sandbox API URL/);
				expect(api.requests).toHaveLength(0);
				expect(evil.requests).toHaveLength(0);
			},
		);

		const ALLOWED: Array<[string, () => Record<string, unknown>]> = [
			['a relative url', () => ({ url: '/v1/einvoices/einv_1' })],
			['a relative url without a leading slash', () => ({ url: 'v1/einvoices/einv_1' })],
			['an absolute url on the API origin', () => ({ url: `${api.origin}/v1/einvoices/einv_1` })],
			[
				'the API origin spelled with an upper-case scheme',
				() => ({ url: `HTTP://127.0.0.1:${new URL(api.origin).port}/v1/x` }),
			],
			['a relative uri (legacy)', () => ({ uri: '/v1/einvoices/einv_1' })],
			['an absolute uri (legacy)', () => ({ uri: `${api.origin}/v1/einvoices/einv_1` })],
			[
				'the API as baseURL and a relative url',
				() => ({ url: '/v1/x', baseURL: `${api.origin}/` }),
			],
		];

		it.each(ALLOWED)(
			"authenticateRequest with %s → n8n's helpers send it to the API origin, with the token",
			async (_name, options) => {
				const authenticated = (await authenticateRequest(data(), {
					method: 'GET',
					...options(),
				} as IHttpRequestOptions)) as IHttpRequestOptions & { uri?: string };
				const helpers = realN8nHelpers();
				if (authenticated.url !== undefined) {
					await helpers.httpRequest(authenticated);
				}
				await helpers.request({ ...authenticated, json: true });
				expect(evil.requests).toHaveLength(0);
				const apiCalls = api.requests.filter((request) => request.method === 'GET');
				expect(apiCalls.length).toBeGreaterThan(0);
				for (const call of apiCalls) expect(call.headers.authorization).toMatch(/^Bearer /);
			},
		);
	});
});

/** A forward proxy that records whether a bearer token reached it, and answers 502. */
async function recordingProxy(): Promise<{
	url: string;
	bearers: number;
	requests: number;
	server: Server;
}> {
	const seen = { bearers: 0, requests: 0 };
	const server = createServer((req, res) => {
		seen.requests++;
		if (/^bearer /i.test(req.headers.authorization ?? '')) seen.bearers++;
		res.writeHead(502).end();
	});
	server.on('connect', (_req, socket) => {
		seen.requests++;
		socket.destroy();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get bearers() {
			return seen.bearers;
		},
		get requests() {
			return seen.requests;
		},
		server,
	};
}

describe('refuses a channel another party could read', () => {
	const refusal = async (options: Record<string, unknown>): Promise<Error> => {
		const ctx = context();
		return (await ctx.helpers.requestWithAuthentication
			.call(ctx, 'gstComplianceApi', {
				method: 'GET',
				uri: `${emulator().sandboxUrl}/v1/einvoices/einv_1`,
				json: true,
				...options,
			})
			.catch((caught: Error) => caught)) as Error;
	};

	it('requestWithAuthentication through a proxy of its own over http:// (HTTP Request node, Options → Proxy) → refused, the proxy sees no token', async () => {
		const proxy = await recordingProxy();
		try {
			const error = await refusal({ proxy: proxy.url });
			expect(error.message).toMatch(
				/only sends its token to the Sandbox API URL .* over a connection that is verified to reach it: this request goes through a proxy/,
			);
			expect({ requests: proxy.requests, bearers: proxy.bearers }).toEqual({
				requests: 0,
				bearers: 0,
			});
			expect(emulator().control.counters().tokenRequestsTotal).toBe(0);
		} finally {
			proxy.server.close();
		}
	});

	it('requestWithAuthentication with certificate verification switched off ("Ignore SSL Issues") → refused before minting', async () => {
		const error = await refusal({ rejectUnauthorized: false });
		expect(error.message).toMatch(/switches certificate verification off/);
		const counters = emulator().control.counters();
		expect({ api: counters.apiRequestsTotal, tokens: counters.tokenRequestsTotal }).toEqual({
			api: 0,
			tokens: 0,
		});
	});

	it('httpRequestWithAuthentication with skipSslCertificateValidation → refused', async () => {
		const ctx = context();
		const error = (await ctx.helpers.httpRequestWithAuthentication
			.call(ctx, 'gstComplianceApi', {
				method: 'GET',
				url: '/v1/einvoices/einv_1',
				skipSslCertificateValidation: true,
			})
			.catch((caught: Error) => caught)) as Error;
		expect(error.message).toMatch(/switches certificate verification off/);
	});

	it.each(['evil.example', 'evil.example:443', ''])(
		'requestWithAuthentication with a Host header %j → refused',
		async (host) => {
			const error = await refusal({ headers: { Host: host } });
			expect(error.message).toMatch(/sets a Host header naming another host/);
			expect(emulator().control.counters().apiRequestsTotal).toBe(0);
		},
	);

	it('requestWithAuthentication with a Host header naming the API host itself → sent', async () => {
		const id = createEinvoice();
		const ctx = context();
		const body = await ctx.helpers.requestWithAuthentication.call(ctx, 'gstComplianceApi', {
			method: 'GET',
			uri: `${emulator().sandboxUrl}/v1/einvoices/${id}`,
			headers: { host: new URL(emulator().sandboxUrl).host },
			json: true,
		});
		expect(body).toMatchObject({ id });
	});

	it('assertVerifiedChannel of an https:// API URL through a proxy with verification on (a CONNECT tunnel) → allowed', () => {
		for (const proxy of ['http://proxy.corp:8080', { host: 'proxy.corp', port: 8080 }])
			expect(() =>
				assertVerifiedChannel(
					{ url: '/v1/x', proxy } as never,
					'https://api.example.com',
					'production',
				),
			).not.toThrow();
	});

	it('assertVerifiedChannel with a Host header of the default port of an https:// API URL → allowed', () => {
		for (const host of ['api.example.com', 'API.example.com:443'])
			expect(() =>
				assertVerifiedChannel(
					{ url: '/v1/x', headers: { Host: host } },
					'https://api.example.com',
					'production',
				),
			).not.toThrow();
	});
});
