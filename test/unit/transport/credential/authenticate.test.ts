/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The credential used outside our nodes, as the HTTP Request node does with "Predefined credential
 * type → GST Compliance API": n8n calls the credential's `authenticate` and sends the request.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { GstComplianceApi } from '../../../../credentials/GstComplianceApi.credentials';
import { parseCredentials } from '../../../../transport/credential/environment';
import {
	assertVerifiedChannel,
	authenticateRequest,
} from '../../../../transport/credential/authenticate';
import { tokenCache } from '../../../../transport/credential/tokenCache';
import type { ClientInfo } from '../../../emulator';
import { executeContext } from '../../helpers/executeNode';
import { recordOutboundRequests } from '../../helpers/outboundRequests';
import { credentialData, useEmulatorForPackage } from '../../helpers/emulatorForPackage';

describe('the credential through n8n request helpers', () => {
	const outbound = recordOutboundRequests();
	beforeEach(() => outbound.reset());
	const emulator = useEmulatorForPackage();
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

	const context = () =>
		executeContext({
			parameters: {},
			credentials: { gstComplianceApi: credentialData(emulator(), client) },
		}).context;

	it('HTTP Request node style (legacy helper, absolute uri): adds the cached token', async () => {
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

	it('modern helper with a relative path: goes to the environment API host', async () => {
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
	])('refuses to send the token to %s, before minting', async (_name, target) => {
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
	});

	it('authenticate replaces a user-supplied Authorization header and turns off credentials on cross-origin redirects', async () => {
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
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;

	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});

	const context = () =>
		executeContext({
			parameters: {},
			credentials: { gstComplianceApi: credentialData(emulator(), client) },
		}).context;

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

	it('a proxy of the request over http:// (HTTP Request node, Options → Proxy) → refused, the proxy sees no token', async () => {
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

	it('certificate verification switched off ("Ignore SSL Issues") → refused before minting', async () => {
		const error = await refusal({ rejectUnauthorized: false });
		expect(error.message).toMatch(/switches certificate verification off/);
		const counters = emulator().control.counters();
		expect({ api: counters.apiRequestsTotal, tokens: counters.tokenRequestsTotal }).toEqual({
			api: 0,
			tokens: 0,
		});
	});

	it('skipSslCertificateValidation on the modern helper → refused', async () => {
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

	it.each(['evil.example', 'evil.example:443', ''])('a Host header %j → refused', async (host) => {
		const error = await refusal({ headers: { Host: host } });
		expect(error.message).toMatch(/sets a Host header naming another host/);
		expect(emulator().control.counters().apiRequestsTotal).toBe(0);
	});

	it('a Host header naming the API host itself → sent', async () => {
		const id = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		}).id;
		const ctx = context();
		const body = await ctx.helpers.requestWithAuthentication.call(ctx, 'gstComplianceApi', {
			method: 'GET',
			uri: `${emulator().sandboxUrl}/v1/einvoices/${id}`,
			headers: { host: new URL(emulator().sandboxUrl).host },
			json: true,
		});
		expect(body).toMatchObject({ id });
	});

	it('an https:// API URL through a proxy with verification on (a CONNECT tunnel) → allowed', () => {
		for (const proxy of ['http://proxy.corp:8080', { host: 'proxy.corp', port: 8080 }])
			expect(() =>
				assertVerifiedChannel(
					{ url: '/v1/x', proxy } as never,
					'https://api.example.com',
					'production',
				),
			).not.toThrow();
	});

	it('a Host header with the default port of an https:// API URL → allowed', () => {
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
