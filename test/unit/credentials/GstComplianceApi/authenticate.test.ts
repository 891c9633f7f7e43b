/**
 * The credential used outside our nodes, as the HTTP Request node does with "Predefined credential
 * type → GST Compliance API": n8n calls the credential's `authenticate` and sends the request.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { GstComplianceApi } from '../../../../credentials/GstComplianceApi.credentials';
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import { authenticateRequest } from '../../../../credentials/GstComplianceApi/authenticate';
import { tokenCache } from '../../../../credentials/GstComplianceApi/tokenCache';
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
