/**
 * Reading the credential at its edges: what is trimmed and what is kept, which URLs may carry the
 * secret or the token, which hosts count as this machine, and the exact errors a user reads.
 */
import { GstCredentialError } from '../../../../credentials/GstComplianceApi/credentialError';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	isLoopbackHost,
	parseCredentials,
	tokenUrl,
} from '../../../../credentials/GstComplianceApi/environment';
import { cleartextUrl, urlWithUserInfo } from '../../../../transport/messages';

const sandbox = {
	environment: 'sandbox',
	clientId: 'svc_test_abc',
	clientSecret: 's3cret-value',
	authUrl: 'https://auth.example.com',
	realm: 'gst',
	productionApiUrl: 'https://api.example.com',
	sandboxApiUrl: 'https://sandbox.example.com',
};
const production = { ...sandbox, environment: 'production', clientId: 'svc_live_abc' };

/** The error `action` throws, to check its kind and its whole message. */
function thrown(action: () => unknown): GstCredentialError {
	try {
		action();
	} catch (error) {
		expect(error).toBeInstanceOf(GstCredentialError);
		return error as GstCredentialError;
	}
	throw new Error('expected a GstCredentialError');
}

describe('parseCredentials', () => {
	it('trims the text fields but keeps the client secret exactly as entered', () => {
		const credentials = parseCredentials({
			...sandbox,
			clientId: '  svc_test_abc \n',
			clientSecret: ' secret with spaces ',
			authUrl: ' https://auth.example.com/ ',
			realm: ' gst ',
		});
		expect(credentials).toEqual({
			...sandbox,
			clientId: 'svc_test_abc',
			clientSecret: ' secret with spaces ',
		});
	});

	it('drops every trailing slash of the URLs and every slash around the realm', () => {
		const credentials = parseCredentials({
			...sandbox,
			authUrl: 'https://auth.example.com/base///',
			realm: '//team/gst//',
			sandboxApiUrl: 'https://sandbox.example.com//',
		});
		expect(credentials.authUrl).toBe('https://auth.example.com/base');
		expect(credentials.realm).toBe('team/gst');
		expect(credentials.sandboxApiUrl).toBe('https://sandbox.example.com');
		// A slash inside the realm is part of its name, so it is escaped in the token URL.
		expect(tokenUrl(credentials)).toBe(
			'https://auth.example.com/base/realms/team%2Fgst/protocol/openid-connect/token',
		);
	});

	it('names every missing field, in form order, with the sandbox API URL for sandbox', () => {
		const error = thrown(() =>
			parseCredentials({ environment: 'sandbox', clientId: '', clientSecret: 42, realm: '/' }),
		);
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(
			'The GST Compliance API credential is missing: Client ID, Client Secret, Auth URL, Realm, ' +
				'Sandbox API URL',
		);
	});

	it('asks production for the production API URL only', () => {
		expect(thrown(() => parseCredentials({ ...production, productionApiUrl: '' })).message).toBe(
			'The GST Compliance API credential is missing: Production API URL',
		);
		expect(parseCredentials({ ...production, sandboxApiUrl: '' }).environment).toBe('production');
	});

	it('reads any environment other than production as sandbox', () => {
		for (const environment of ['sandbox', 'Production', '', 1]) {
			const credentials = parseCredentials({ ...sandbox, environment });
			expect(credentials.environment).toBe('sandbox');
			expect(apiBaseUrl(credentials)).toBe('https://sandbox.example.com');
		}
		expect(apiBaseUrl(parseCredentials(production))).toBe('https://api.example.com');
	});

	it.each([
		['not a URL', 'auth.example.com'],
		['another scheme', 'ftp://auth.example.com'],
	])('refuses an Auth URL that is %s, with an example', (_name, authUrl) => {
		const error = thrown(() => parseCredentials({ ...sandbox, authUrl }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(
			'Auth URL in the GST Compliance API credential must be an http(s) URL, for example ' +
				'https://auth.example.com',
		);
	});

	it.each([
		['a user and a password', 'https://user:pw@auth.example.com'],
		['a user only', 'https://user@auth.example.com'],
		['a password only', 'https://:pw@auth.example.com'],
	])('refuses an Auth URL with %s', (_name, authUrl) => {
		const error = thrown(() => parseCredentials({ ...sandbox, authUrl }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(urlWithUserInfo('Auth URL'));
	});

	it.each([
		['Auth URL', 'client secret', sandbox, { authUrl: 'http://auth.example.com' }],
		['Sandbox API URL', 'access token', sandbox, { sandboxApiUrl: 'http://sandbox.example.com' }],
		['Production API URL', 'access token', production, { productionApiUrl: 'http://10.0.0.1' }],
	])('refuses an http:// %s off this machine: it would carry the %s', (field, what, data, url) => {
		const error = thrown(() => parseCredentials({ ...data, ...url }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(cleartextUrl(field, what));
	});

	it('checks only the URLs the chosen environment sends to', () => {
		expect(() =>
			parseCredentials({ ...sandbox, productionApiUrl: 'http://api.example.com' }),
		).not.toThrow();
		expect(() =>
			parseCredentials({ ...production, sandboxApiUrl: 'ftp://sandbox.example.com' }),
		).not.toThrow();
	});

	it('accepts http:// on this machine, for the emulator', () => {
		const credentials = parseCredentials({
			...sandbox,
			authUrl: 'http://LOCALHOST:8080',
			sandboxApiUrl: 'http://127.0.0.1:9090/',
		});
		expect(credentials.authUrl).toBe('http://LOCALHOST:8080');
		expect(apiBaseUrl(credentials)).toBe('http://127.0.0.1:9090');
	});
});

describe('isLoopbackHost', () => {
	it.each(['localhost', 'LocalHost', '[::1]', '127.0.0.1', '127.100.200.255', '127.255.255.255'])(
		'%s is this machine',
		(host) => expect(isLoopbackHost(host)).toBe(true),
	);

	it.each([
		'localhost.example.com',
		'[::2]',
		'128.0.0.1',
		'10.127.0.1',
		'1127.0.0.1',
		'x127.0.0.1',
		'127.0.0.1x',
		'127.0.0.1000',
		'127.0.0.256',
		'127.0.256.1',
		'127.a.0.1',
		'',
	])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('assertClientMatchesEnvironment', () => {
	it.each([
		[
			'points a Production credential with a sandbox client at the Live tab',
			{ ...production, clientId: 'svc_test_1' },
			'Client ID starts with "svc_test_", which is a Sandbox client, but the credential\'s ' +
				'Environment is Production. Set Environment to Sandbox, or use a Production client ' +
				'(Client ID starting with "svc_live_") from the Live tab of the Developer hub.',
		],
		[
			'points a Sandbox credential with a live client at the Sandbox tab',
			{ ...sandbox, clientId: 'svc_live_1' },
			'Client ID starts with "svc_live_", which is a Production client, but the credential\'s ' +
				'Environment is Sandbox. Set Environment to Production, or use a Sandbox client ' +
				'(Client ID starting with "svc_test_") from the Sandbox tab of the Developer hub.',
		],
		[
			'shows the first 9 characters of an id that is no client id, and both prefixes',
			{ ...production, clientId: 'key_abcdefgh' },
			'Client ID prefix "key_abcde" is not a GST Compliance client id: Production clients start ' +
				'with "svc_live_" (Production: "svc_live_", Sandbox: "svc_test_"). Copy the Client ID ' +
				'from the Developer hub again.',
		],
	])('%s', (_name, data, message) => {
		const error = thrown(() => assertClientMatchesEnvironment(parseCredentials(data)));
		expect(error.kind).toBe('environmentMismatch');
		expect(error.message).toBe(message);
	});
});
