/** Parsing the credential: URLs, required fields, and the client id against the environment. */
import {
	assertClientMatchesEnvironment,
	parseCredentials,
	tokenUrl,
} from '../../../../credentials/GstComplianceApi/environment';

const base = {
	environment: 'sandbox',
	clientId: 'svc_test_abc',
	clientSecret: 's3cret-value',
	authUrl: 'https://auth.example.com/',
	realm: 'gst',
	productionApiUrl: 'https://api.example.com',
	sandboxApiUrl: 'https://sandbox.example.com/',
};

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
