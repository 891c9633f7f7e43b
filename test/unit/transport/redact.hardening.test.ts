/**
 * The client secret is redacted in every encoding it travels in (form body, percent-encoding in any
 * hex case, JSON escapes, HTML entities, base64/base64url of `client_id:client_secret`) and on
 * both excerpt paths of the token client (OAuth error text, 2xx body that is not a token).
 */
import { GstCredentialError } from '../../../credentials/GstComplianceApi/credentialError';
import { parseCredentials } from '../../../credentials/GstComplianceApi/environment';
import { mintToken } from '../../../credentials/GstComplianceApi/tokenClient';
import { excerpt, redact } from '../../../transport/redact';
import { configureSettings, resetSettings } from '../../../transport/settings';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const SECRETS = [
	'Qz8+Kp/Wm=Xv Rt&Ly%Nb~!*()\'"\\<>',
	'abc+def/ghi=jklmnopqrstu',
	'pässwörd-ünïcode-€-😀-tail',
	'Zx9kQ2mP7rT4vW8yB3nH',
];

const rfc3986 = (text: string) =>
	encodeURIComponent(text).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
const jsonUnicode = (text: string) =>
	[...text]
		.map((c) =>
			c.length === 2
				? `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`
				: `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
		)
		.join('');
const htmlEntities = (text: string) => [...text].map((c) => `&#${c.codePointAt(0)};`).join('');

const ENCODINGS: Array<[string, (secret: string) => string]> = [
	['raw', (s) => s],
	['form (URLSearchParams)', (s) => new URLSearchParams({ s }).toString().slice(2)],
	['encodeURIComponent', (s) => encodeURIComponent(s)],
	[
		'encodeURIComponent, lower-case hex',
		(s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
	],
	[
		'encodeURIComponent, mixed-case hex',
		(s) =>
			encodeURIComponent(s).replace(
				/%([0-9A-F])([0-9A-F])/g,
				(_m, a, b) => `%${a}${b.toLowerCase()}`,
			),
	],
	['RFC 3986 (qs)', rfc3986],
	['double percent-encoded', (s) => encodeURIComponent(encodeURIComponent(s))],
	['JSON string', (s) => JSON.stringify(s).slice(1, -1)],
	['JSON \\u escapes', jsonUnicode],
	['JSON with escaped slashes', (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/')],
	['HTML entities', htmlEntities],
	...[0, 1, 2, 3, 4, 5].flatMap((idLength): Array<[string, (secret: string) => string]> => {
		const id = 'svc_test_abcde'.slice(0, 9 + idLength);
		return [
			[
				`base64 of id:secret (id length ${id.length})`,
				(s) => Buffer.from(`${id}:${s}`).toString('base64'),
			],
			[
				`base64url of id:secret (id length ${id.length})`,
				(s) => Buffer.from(`${id}:${s}`).toString('base64url'),
			],
			[
				`base64 of id:form-encoded secret (id length ${id.length})`,
				(s) =>
					Buffer.from(`${id}:${new URLSearchParams({ s }).toString().slice(2)}`).toString('base64'),
			],
			[
				`percent-encoded base64 (id length ${id.length})`,
				(s) => encodeURIComponent(Buffer.from(`${id}:${s}`).toString('base64')),
			],
		];
	}),
];

/** Whether any 8 consecutive characters of `needle` survive in `haystack`. */
const leaksPart = (haystack: string, needle: string) => {
	for (let at = 0; at + 8 <= needle.length; at++) {
		if (haystack.includes(needle.slice(at, at + 8))) return needle.slice(at, at + 8);
	}
	return undefined;
};

describe('redact covers every encoding of the secret', () => {
	describe.each(SECRETS)('secret %s', (secret) => {
		it.each(ENCODINGS)('%s', (_name, encode) => {
			const encoded = encode(secret);
			const text = `error: invalid_client - body was client_id=x&client_secret=${encoded}&end=1 (see docs)`;
			const out = redact(text, [secret]);
			expect(leaksPart(out, encoded)).toBeUndefined();
			expect(out).toContain('error: invalid_client');
			expect(out).toContain('(see docs)');
		});
	});

	it('redacts a secret value named in a form or JSON even when cut short by the server', () => {
		const secret = SECRETS[0];
		const cut = new URLSearchParams({ s: secret }).toString().slice(2, 12);
		expect(redact(`client_secret=${cut}`, [secret])).not.toContain(cut);
		expect(redact(`{"client_secret":"${cut}`, [secret])).not.toContain(cut);
	});

	it('keeps text that merely resembles the secret', () => {
		expect(redact('nothing secret here', ['Zx9kQ2mP7rT4vW8yB3nH'])).toBe('nothing secret here');
		expect(excerpt('a\n b', ['Zx9kQ2mP7rT4vW8yB3nH'])).toBe('a b');
	});
});

describe('token client excerpts never show the secret', () => {
	let server: ScriptedServer;
	beforeEach(async () => {
		configureSettings({ sleep: async () => {}, random: () => 0 });
		server = await startScriptedServer(() => ({ status: 500 }));
	});
	afterEach(async () => {
		resetSettings();
		await server.close();
	});

	const credentials = (secret: string) =>
		parseCredentials({
			environment: 'sandbox',
			clientId: 'svc_test_echo',
			clientSecret: secret,
			authUrl: server.origin,
			realm: 'gst',
			sandboxApiUrl: server.origin,
		});
	const failure = async (secret: string) =>
		(await mintToken(credentials(secret)).then(
			() => {
				throw new Error('expected a failure');
			},
			(error: unknown) => error,
		)) as GstCredentialError;

	it.each(SECRETS)('OAuth error_description echoing the form body (secret %s)', async (secret) => {
		server.answer((request) => ({
			status: 401,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				error: 'invalid_client',
				error_description: `bad body ${request.body}`,
			}),
		}));
		const error = await failure(secret);
		expect(error.message).toContain('invalid_client');
		const form = new URLSearchParams({ s: secret }).toString().slice(2);
		expect(leaksPart(error.message, form)).toBeUndefined();
		expect(leaksPart(error.message, secret)).toBeUndefined();
	});

	it.each(SECRETS)('2xx non-JSON echo of the form body (secret %s)', async (secret) => {
		server.answer((request) => ({ status: 200, body: `echo: ${request.body}` }));
		const error = await failure(secret);
		expect(error.kind).toBe('badResponse');
		const form = new URLSearchParams({ s: secret }).toString().slice(2);
		// Not even the first characters the 80-character excerpt would reach.
		expect(error.message).not.toContain(form.slice(0, 4));
		expect(leaksPart(error.message, secret)).toBeUndefined();
	});
});
