/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed test secrets shared with the emulator, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Token requests from the nodes go through n8n's request helpers, so n8n's outbound request policy
 * (N8N_SSRF_PROTECTION_ENABLED and its lists) applies to them as it does to the API requests. The
 * credential test has only the deprecated `helpers.request`, which n8n's verification rejects: it
 * uses `fetch`, outside the policy, as the README's Security section says. Runs n8n-core 2.41.1's
 * real helpers with protection on: loopback IPs are in its default blocked ranges, `localhost` is
 * allowed by name.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { testGstComplianceCredentials } from '../../../../transport/credential/credentialTest';
import { tokenCache } from '../../../../transport/credential/tokenCache';
import { gstApiRequest, type GstRequestContext } from '../../../../transport/apiRequest';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import { realCredentialTestContext, realN8nHelpers, TEST_NODE } from '../../helpers/realN8nHelpers';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

const SECRET = 'outbound-policy-secret-Qz8+Kp/Wm=';

describe("n8n's outbound request policy covers the nodes' token requests", () => {
	let server: ScriptedServer;
	beforeAll(() => {
		// Read by n8n-core when its outbound client is first built, i.e. at the first request here.
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
		process.env.N8N_SSRF_ALLOWED_HOSTNAMES = 'localhost';
	});
	afterAll(() => {
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
		delete process.env.N8N_SSRF_ALLOWED_HOSTNAMES;
	});
	beforeEach(async () => {
		configureSettings({ sleep: async () => {}, random: () => 0 });
		server = await startScriptedServer((request) =>
			request.method === 'POST'
				? tokenAnswer()
				: { status: 404, headers: { 'content-type': 'application/json' }, body: '{}' },
		);
	});
	afterEach(async () => {
		resetSettings();
		tokenCache.clear();
		await server.close();
	});

	const data = (host: '127.0.0.1' | 'localhost'): ICredentialDataDecryptedObject => {
		const origin = server.origin.replace('127.0.0.1', host);
		return {
			environment: 'sandbox',
			clientId: 'svc_test_policy',
			clientSecret: SECRET,
			authUrl: origin,
			realm: 'gst',
			sandboxApiUrl: origin,
		};
	};
	const nodeContext = (credentials: ICredentialDataDecryptedObject): GstRequestContext => ({
		getNode: () => TEST_NODE,
		getCredentials: async <T extends object>() => credentials as T,
		helpers: realN8nHelpers(),
	});

	it('a node never sends the token request to a blocked host', async () => {
		const error = await gstApiRequest
			.call(nodeContext(data('127.0.0.1')), 'GET', '/v1/einvoices/einv_1')
			.then(
				() => undefined,
				(caught: Error) => caught,
			);
		expect(error).toBeInstanceOf(Error);
		expect(error?.message).toMatch(/n8n did not send the request to the token endpoint/);
		expect(error?.message).toMatch(/N8N_SSRF/);
		expect(error?.message).not.toContain(SECRET);
		expect(server.requests).toHaveLength(0);
	});

	it('the credential test is outside the policy (documented): it reaches a host the policy blocks', async () => {
		const result = await testGstComplianceCredentials.call(realCredentialTestContext(), {
			id: '1',
			name: 'gst',
			type: 'gstComplianceApi',
			data: data('127.0.0.1'),
		});
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
	});

	it('an allowed host: the node mints through the helper and calls the API', async () => {
		const error = await gstApiRequest
			.call(nodeContext(data('localhost')), 'GET', '/v1/einvoices/einv_1')
			.catch((caught: Error) => caught);
		expect((error as Error).message).toMatch(/was not found/); // the scripted API answers 404
		expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
		expect(server.requests[0].body).toContain('grant_type=client_credentials');
		expect(server.requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(server.requests[1].headers.authorization).toMatch(/^Bearer eyJ/);
	});

	it('an allowed host: the credential test passes', async () => {
		const result = await testGstComplianceCredentials.call(realCredentialTestContext(), {
			id: '1',
			name: 'gst',
			type: 'gstComplianceApi',
			data: data('localhost'),
		});
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
		expect(server.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
	});
});
