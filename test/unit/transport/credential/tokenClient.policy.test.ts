/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed test secrets, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * A token request that n8n's request helper refuses to send (its outbound request policy, here
 * N8N_SSRF_PROTECTION_ENABLED with loopback IPs blocked) is a configuration problem: said as such,
 * with the host, never retried, and the secret never reaches the host or the message. Runs n8n-core's
 * real helper; the policy is read when its outbound client is first built, i.e. at the first request
 * of this file.
 */
import type { GstCredentialError } from '../../../../transport/credential/credentialError';
import { parseCredentials } from '../../../../transport/credential/environment';
import { mintToken, n8nHttpRequestPost } from '../../../../transport/credential/tokenClient';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import { realN8nHelpers } from '../../helpers/realN8nHelpers';
import {
	startScriptedServer,
	tokenAnswer,
	type ScriptedServer,
} from '../../helpers/scriptedServer';

const SECRET = 'policy-secret-Qz8+Kp/Wm=';

describe("a token request n8n's outbound request policy refuses", () => {
	let server: ScriptedServer;
	let waits: number[];
	beforeAll(() => {
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
	});
	afterAll(() => {
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
	});
	beforeEach(async () => {
		waits = [];
		configureSettings({ sleep: async (ms) => void waits.push(ms), random: () => 0 });
		server = await startScriptedServer(() => tokenAnswer());
	});
	afterEach(async () => {
		resetSettings();
		await server.close();
	});

	it('is a configuration error naming the host, not retried, and nothing is sent', async () => {
		const credentials = parseCredentials({
			environment: 'sandbox',
			clientId: 'svc_test_policy',
			clientSecret: SECRET,
			authUrl: server.origin,
			realm: 'gst',
			sandboxApiUrl: server.origin,
		});
		const error = await mintToken(
			credentials,
			n8nHttpRequestPost(realN8nHelpers().httpRequest),
		).then(
			() => {
				throw new Error('expected n8n to refuse the token request');
			},
			(caught: GstCredentialError) => caught,
		);
		expect(error.kind).toBe('configuration');
		expect(error.tokenEndpointStatus).toBeUndefined();
		expect(error.message).toMatch(
			new RegExp(
				`^n8n did not send the request to the token endpoint at ${new URL(server.origin).host}: .+\\. ` +
					"If n8n's outbound request policy blocks this host",
			),
		);
		expect(error.message).not.toContain('gave up');
		expect(error.message).not.toContain(SECRET);
		expect(waits).toEqual([]);
		expect(server.requests).toHaveLength(0);
	});
});
