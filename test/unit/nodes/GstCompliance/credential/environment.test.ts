/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * Reading the `gstComplianceApi` credential: what is trimmed and what is kept, the token URL, which
 * fields each environment requires, which URLs may carry the secret or the token, which hosts count
 * as this machine, the client id against the environment, and the exact errors a user reads.
 */
import { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	isLoopbackHost,
	parseCredentials,
	tokenUrl,
} from '@/nodes/GstCompliance/credential/environment';
import { cleartextUrl, urlWithUserInfo } from '@/nodes/GstCompliance/errors/messages';

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

describe('trims the text fields, keeps the client secret as entered, builds the token URL', () => {
	it('parseCredentials of padded fields → trimmed, the client secret exactly as entered', () => {
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

	it('parseCredentials and tokenUrl → every trailing slash of the URLs and every slash around the realm dropped, a slash inside the realm escaped', () => {
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
});

describe('understands what users paste: the whole token URL, an API URL ending in /v1', () => {
	it.each([
		['the whole token URL', 'https://auth.example.com/realms/gst/protocol/openid-connect/token'],
		[
			'the token URL with a trailing slash',
			'https://auth.example.com/realms/gst/protocol/openid-connect/token/',
		],
		['the realm URL', 'https://auth.example.com/realms/gst'],
	])(
		'parseCredentials with %s as Auth URL and Realm empty → the base URL and the realm from it',
		(_, authUrl) => {
			const parsed = parseCredentials({ ...sandbox, authUrl, realm: '' });
			expect(parsed).toMatchObject({ authUrl: 'https://auth.example.com', realm: 'gst' });
			expect(tokenUrl(parsed)).toBe(
				'https://auth.example.com/realms/gst/protocol/openid-connect/token',
			);
		},
	);

	it('parseCredentials with the token URL and the same Realm → accepted', () => {
		const authUrl = 'https://auth.example.com/realms/gst/protocol/openid-connect/token';
		expect(parseCredentials({ ...sandbox, authUrl, realm: 'gst' })).toMatchObject({
			authUrl: 'https://auth.example.com',
			realm: 'gst',
		});
	});

	it('parseCredentials with a token URL naming another realm than Realm → an error naming both', () => {
		const authUrl = 'https://auth.example.com/realms/other/protocol/openid-connect/token';
		const error = thrown(() => parseCredentials({ ...sandbox, authUrl, realm: 'gst' }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(
			'The Auth URL names the realm "other" but Realm says "gst". Clear Realm to use the one in the URL, or give the Auth URL without /realms/….',
		);
	});

	it.each([
		['https://sandbox.example.com/v1', 'https://sandbox.example.com'],
		['https://sandbox.example.com/v1/', 'https://sandbox.example.com'],
		['https://sandbox.example.com/gst/v1', 'https://sandbox.example.com/gst'],
	])('parseCredentials with the Sandbox API URL %s → %s (paths add /v1)', (url, base) => {
		expect(apiBaseUrl(parseCredentials({ ...sandbox, sandboxApiUrl: url }))).toBe(base);
	});
});

describe('requires the fields the chosen environment needs, naming each one missing', () => {
	it('parseCredentials of a sandbox credential missing all → every field in form order, with the Sandbox API URL', () => {
		const error = thrown(() =>
			parseCredentials({ environment: 'sandbox', clientId: '', clientSecret: 42, realm: '/' }),
		);
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(
			'The GST Compliance API credential is missing: Client ID, Client Secret, Auth URL, Realm, ' +
				'Sandbox API URL. Fill them in and save the credential.',
		);
	});

	it('parseCredentials of a production credential → asks for the Production API URL only', () => {
		expect(thrown(() => parseCredentials({ ...production, productionApiUrl: '' })).message).toBe(
			'The GST Compliance API credential is missing: Production API URL. Fill it in and save the credential.',
		);
		expect(parseCredentials({ ...production, sandboxApiUrl: '' }).environment).toBe('production');
	});

	it('parseCredentials of a sandbox credential → asks for the Sandbox API URL only', () => {
		expect(thrown(() => parseCredentials({ ...sandbox, sandboxApiUrl: '' })).message).toBe(
			'The GST Compliance API credential is missing: Sandbox API URL. Fill it in and save the credential.',
		);
		expect(parseCredentials({ ...sandbox, productionApiUrl: '' }).environment).toBe('sandbox');
	});

	it('parseCredentials and apiBaseUrl of any environment other than production → sandbox', () => {
		for (const environment of ['sandbox', 'Production', '', 1]) {
			const credentials = parseCredentials({ ...sandbox, environment });
			expect(credentials.environment).toBe('sandbox');
			expect(apiBaseUrl(credentials)).toBe('https://sandbox.example.com');
		}
		expect(apiBaseUrl(parseCredentials(production))).toBe('https://api.example.com');
	});
});

describe('accepts only http(s) URLs without user info, http:// only on this machine', () => {
	it.each([
		['not a URL', 'auth.example.com'],
		['another scheme', 'ftp://auth.example.com'],
	])('parseCredentials of an Auth URL that is %s → refused, with an example', (_name, authUrl) => {
		const error = thrown(() => parseCredentials({ ...sandbox, authUrl }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(
			'Auth URL in the GST Compliance API credential is not an http(s) URL. Enter one such as ' +
				'https://auth.example.com',
		);
	});

	it.each([
		['a user and a password', 'https://user:pw@auth.example.com'],
		['a user only', 'https://user@auth.example.com'],
		['a password only', 'https://:pw@auth.example.com'],
		['a user that looks like the host', 'https://auth.example.com@evil.example'],
	])('parseCredentials of an Auth URL with %s → refused', (_name, authUrl) => {
		const error = thrown(() => parseCredentials({ ...sandbox, authUrl }));
		expect(error.kind).toBe('configuration');
		expect(error.message).toBe(urlWithUserInfo('Auth URL'));
	});

	it.each([
		['Auth URL', 'client secret', sandbox, { authUrl: 'http://auth.example.com' }],
		['Sandbox API URL', 'access token', sandbox, { sandboxApiUrl: 'http://sandbox.example.com' }],
		['Production API URL', 'access token', production, { productionApiUrl: 'http://10.0.0.1' }],
	])(
		'parseCredentials of an http:// %s off this machine → refused: it would carry the %s',
		(field, what, data, url) => {
			const error = thrown(() => parseCredentials({ ...data, ...url }));
			expect(error.kind).toBe('configuration');
			expect(error.message).toBe(cleartextUrl(field, what));
		},
	);

	it.each([
		['an upper-case scheme', 'Auth URL', 'client secret', { authUrl: 'HTTP://AUTH.EXAMPLE.COM' }],
		[
			'a host starting with localhost',
			'Auth URL',
			'client secret',
			{ authUrl: 'http://localhost.evil.example' },
		],
		[
			'a host starting with 127.0.0.1',
			'Auth URL',
			'client secret',
			{ authUrl: 'http://127.0.0.1.nip.io' },
		],
		['0.0.0.0', 'Auth URL', 'client secret', { authUrl: 'http://0.0.0.0:8080' }],
		[
			'an IPv4-mapped 127.0.0.1',
			'Sandbox API URL',
			'access token',
			{ sandboxApiUrl: 'http://[::ffff:127.0.0.1]' },
		],
		[
			'an IPv6 link-local address',
			'Sandbox API URL',
			'access token',
			{ sandboxApiUrl: 'http://[fe80::1]' },
		],
	])(
		'parseCredentials of an http:// URL with %s → refused as off this machine',
		(_name, field, what, url) => {
			const error = thrown(() => parseCredentials({ ...sandbox, ...url }));
			expect(error.kind).toBe('configuration');
			expect(error.message).toBe(cleartextUrl(field, what));
		},
	);

	it('parseCredentials with a bad URL the chosen environment does not send to → accepted', () => {
		expect(() =>
			parseCredentials({ ...sandbox, productionApiUrl: 'http://api.example.com' }),
		).not.toThrow();
		expect(() =>
			parseCredentials({ ...production, sandboxApiUrl: 'ftp://sandbox.example.com' }),
		).not.toThrow();
	});

	it('parseCredentials of http:// URLs on this machine (the emulator) → accepted', () => {
		const credentials = parseCredentials({
			...sandbox,
			authUrl: 'http://LOCALHOST:8080',
			sandboxApiUrl: 'http://127.0.0.1:9090/',
		});
		expect(credentials.authUrl).toBe('http://LOCALHOST:8080');
		expect(apiBaseUrl(credentials)).toBe('http://127.0.0.1:9090');
	});

	it.each(['http://127.8.9.10', 'http://[::1]:8080', 'https://auth.example.com:8443/base'])(
		'parseCredentials with %s as Auth URL and Sandbox API URL → accepted',
		(url) => {
			const credentials = parseCredentials({ ...sandbox, authUrl: url, sandboxApiUrl: url });
			expect(credentials.authUrl).toBe(url);
			expect(apiBaseUrl(credentials)).toBe(url);
		},
	);
});

describe('counts localhost, 127.0.0.0/8 and ::1 as this machine', () => {
	it.each(['localhost', 'LocalHost', '[::1]', '127.0.0.1', '127.100.200.255', '127.255.255.255'])(
		'isLoopbackHost(%s) → true',
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
	])('isLoopbackHost(%j) → false', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('fails a client id of the other environment, or of none, before any network call', () => {
	it('assertClientMatchesEnvironment of svc_test_ for Sandbox and svc_live_ for Production → passes', () => {
		expect(() => assertClientMatchesEnvironment(parseCredentials(sandbox))).not.toThrow();
		expect(() => assertClientMatchesEnvironment(parseCredentials(production))).not.toThrow();
	});

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
		[
			'names the Sandbox prefix for an id that is no client id in a Sandbox credential',
			{ ...sandbox, clientId: 'abc_123456789' },
			'Client ID prefix "abc_12345" is not a GST Compliance client id: Sandbox clients start ' +
				'with "svc_test_" (Production: "svc_live_", Sandbox: "svc_test_"). Copy the Client ID ' +
				'from the Developer hub again.',
		],
	])('assertClientMatchesEnvironment %s', (_name, data, message) => {
		const error = thrown(() => assertClientMatchesEnvironment(parseCredentials(data)));
		expect(error.kind).toBe('environmentMismatch');
		expect(error.message).toBe(message);
	});
});
