/**
 * The token goes to the environment's API origin only, however the request names its URL: every
 * field n8n's request layers read (`url`, `uri`, `baseURL`), resolved both the way n8n checks it
 * (WHATWG URL against baseURL) and the way axios sends it; anything else is refused before minting.
 * Requests that pass are sent through n8n-core's real helpers to prove where they land.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { authenticateRequest } from '../../../../transport/credential/authenticate';
import { GstCredentialError } from '../../../../transport/credential/credentialError';
import { parseCredentials } from '../../../../transport/credential/environment';
import { tokenCache } from '../../../../transport/credential/tokenCache';
import { resetSettings } from '../../../../transport/settings';
import { realN8nHelpers } from '../../helpers/realN8nHelpers';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

describe('authenticate sends the token to the API origin only', () => {
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
		['relative uri, foreign url', () => ({ uri: '/v1/x', url: `${evil.origin}/x` })],
		['relative url, foreign uri', () => ({ url: '/v1/x', uri: `${evil.origin}/x` })],
		['protocol-relative url', () => ({ url: `//${evilHostPort()}/x` })],
		['protocol-relative uri', () => ({ uri: `//${evilHostPort()}/x` })],
		['backslashes', () => ({ url: `\\\\${evilHostPort()}\\x` })],
		['slash then backslash', () => ({ url: `/\\${evilHostPort()}/x` })],
		['backslash then slash', () => ({ url: `\\/${evilHostPort()}/x` })],
		['leading space before //', () => ({ url: ` //${evilHostPort()}/x` })],
		['leading tab before //', () => ({ url: `\t//${evilHostPort()}/x` })],
		['newline inside //', () => ({ url: `/\n/${evilHostPort()}/x` })],
		['NUL before //', () => ({ url: `\u0000//${evilHostPort()}/x` })],
		['userinfo that looks like the API host', () => ({ url: `${api.origin}@${evilHostPort()}/x` })],
		['mixed-case scheme', () => ({ url: `HtTp://${evilHostPort()}/x` })],
		['scheme without slashes', () => ({ url: `http:${evilHostPort()}/x` })],
		['scheme with one slash', () => ({ url: `http:/${evilHostPort()}/x` })],
		['scheme with backslashes', () => ({ url: `http:\\\\${evilHostPort()}\\x` })],
		['foreign baseURL', () => ({ url: '/v1/x', baseURL: evil.origin })],
		['foreign baseURL alone', () => ({ baseURL: evil.origin })],
		['foreign baseURL, relative uri', () => ({ uri: '/v1/x', baseURL: `${evil.origin}/` })],
		['URL object', () => ({ url: new URL(`${evil.origin}/x`) })],
		['localhost instead of 127.0.0.1', () => ({ url: `http://localhost:${evilPort()}/x` })],
		['IPv6 loopback', () => ({ url: `http://[::1]:${evilPort()}/x` })],
		['trailing dot host', () => ({ url: `http://localhost.:${evilPort()}/x` })],
		['same host, other port', () => ({ url: `http://127.0.0.1:${evilPort()}/v1/x` })],
		['https on the API port', () => ({ url: `https://${new URL(api.origin).host}/v1/x` })],
		['javascript: scheme', () => ({ url: 'javascript:alert(1)' })],
		['non-string url', () => ({ url: 42 })],
	];

	it.each(HOSTILE)('%s: refused before any token is minted', async (_name, options) => {
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
	});

	const ALLOWED: Array<[string, () => Record<string, unknown>]> = [
		['relative url', () => ({ url: '/v1/einvoices/einv_1' })],
		['relative url without leading slash', () => ({ url: 'v1/einvoices/einv_1' })],
		['absolute url on the API origin', () => ({ url: `${api.origin}/v1/einvoices/einv_1` })],
		[
			'upper-case scheme and host spelling of the API origin',
			() => ({ url: `HTTP://127.0.0.1:${new URL(api.origin).port}/v1/x` }),
		],
		['relative uri (legacy)', () => ({ uri: '/v1/einvoices/einv_1' })],
		['absolute uri (legacy)', () => ({ uri: `${api.origin}/v1/einvoices/einv_1` })],
		['baseURL of the API with a relative url', () => ({ url: '/v1/x', baseURL: `${api.origin}/` })],
	];

	it.each(ALLOWED)('%s: n8n sends it to the API origin', async (_name, options) => {
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
	});
});

describe('credential URLs: https, or http only on this machine', () => {
	const credentials = (overrides: Record<string, string>) => ({
		environment: 'sandbox',
		clientId: 'svc_test_x',
		clientSecret: 'secret-value',
		authUrl: 'https://auth.example.com',
		realm: 'gst',
		sandboxApiUrl: 'https://sandbox.example.com',
		productionApiUrl: 'https://api.example.com',
		...overrides,
	});
	const refusal = (overrides: Record<string, string>) => {
		try {
			parseCredentials(credentials(overrides));
		} catch (error) {
			return error as GstCredentialError;
		}
		return undefined;
	};

	it.each([
		['authUrl', 'http://auth.example.com', /client secret in clear text/],
		['sandboxApiUrl', 'http://sandbox.example.com', /access token in clear text/],
		['authUrl', 'HTTP://AUTH.EXAMPLE.COM', /clear text/],
		['authUrl', 'http://localhost.evil.example', /clear text/],
		['authUrl', 'http://127.0.0.1.nip.io', /clear text/],
		['authUrl', 'http://0.0.0.0:8080', /clear text/],
		['authUrl', 'http://10.0.0.5', /clear text/],
		['sandboxApiUrl', 'http://[::ffff:127.0.0.1]', /clear text/],
		['sandboxApiUrl', 'http://[fe80::1]', /clear text/],
	])('%s %s is refused, saying why', (field, value, why) => {
		const error = refusal({ [field]: value });
		expect(error).toBeInstanceOf(GstCredentialError);
		expect(error?.kind).toBe('configuration');
		expect(error?.message).toMatch(why);
		expect(error?.message).toMatch(/https:\/\//);
	});

	it('refuses an http:// Production API URL when Environment is Production', () => {
		const error = refusal({
			environment: 'production',
			clientId: 'svc_live_x',
			productionApiUrl: 'http://api.example.com',
		});
		expect(error?.message).toMatch(/Production API URL.*access token in clear text/);
	});

	it.each([
		'http://127.0.0.1:4010',
		'http://127.8.9.10',
		'http://localhost:3000',
		'http://LOCALHOST',
		'http://[::1]:8080',
		'https://auth.example.com',
		'https://auth.example.com:8443/base',
	])('%s is accepted', (value) => {
		expect(refusal({ authUrl: value, sandboxApiUrl: value })).toBeUndefined();
	});

	it.each(['https://user:pass@auth.example.com', 'https://auth.example.com@evil.example'])(
		'%s (user info) is refused',
		(value) => {
			expect(refusal({ authUrl: value })?.kind).toBe('configuration');
		},
	);
});
