/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The API credential as the editor shows it and as the runtime reads it: each field's name, label,
 * type, default and whether it is required or masked; the environment options and the client id
 * prefixes they name; the field names and labels the credential's parser and its "missing" message
 * use; the request hook n8n calls; where its documentation link leads. (The hook's machinery:
 * credential/authenticate.test.ts; the parser's rules: credential/environment.test.ts.)
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { GstComplianceApi } from '@/credentials/GstComplianceApi.credentials';
import { defaultsOf, fieldOf } from '@/test/unit/helpers/credentialFields';
import { authenticateRequest } from '@/nodes/GstCompliance/credential/authenticate';
import { CLIENT_ID_PREFIX, parseCredentials } from '@/nodes/GstCompliance/credential/environment';
import { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';

const credential = new GstComplianceApi();
const field = (name: string) => fieldOf(credential, name);
const defaults = () => defaultsOf(credential);

describe('the fields the editor shows', () => {
	it('properties → the notice and the seven fields in order, each with its label, type, default and required flag', () => {
		expect(
			credential.properties.map(({ name, displayName, type, default: value, required }) => ({
				name,
				displayName,
				type,
				default: value,
				required: required ?? false,
			})),
		).toEqual([
			{
				name: 'sourcesNotice',
				displayName: expect.stringMatching(/^Client ID and Client Secret come from/),
				type: 'notice',
				default: '',
				required: false,
			},
			{
				name: 'environment',
				displayName: 'Environment',
				type: 'options',
				default: 'sandbox',
				required: false,
			},
			{ name: 'clientId', displayName: 'Client ID', type: 'string', default: '', required: true },
			{
				name: 'clientSecret',
				displayName: 'Client Secret',
				type: 'string',
				default: '',
				required: true,
			},
			{ name: 'authUrl', displayName: 'Auth URL', type: 'string', default: '', required: true },
			{ name: 'realm', displayName: 'Realm', type: 'string', default: '', required: false },
			{
				name: 'productionApiUrl',
				displayName: 'Production API URL',
				type: 'string',
				default: '',
				required: true,
			},
			{
				name: 'sandboxApiUrl',
				displayName: 'Sandbox API URL',
				type: 'string',
				default: '',
				required: true,
			},
		]);
	});

	it('properties → only Client Secret masked (password); only the API URLs conditional (on Environment)', () => {
		expect(
			credential.properties
				.filter((property) => property.typeOptions?.password === true)
				.map((property) => property.name),
		).toEqual(['clientSecret']);
		expect(
			credential.properties
				.filter((property) => property.displayOptions !== undefined)
				.map((property) => property.name),
		).toEqual(['productionApiUrl', 'sandboxApiUrl']);
	});

	it('environment options → Production (production) and Sandbox (sandbox), each naming the prefix the parser checks', () => {
		expect(field('environment').options).toEqual([
			{
				name: 'Production',
				value: 'production',
				description: 'Live data. Client ID starts with svc_live_.',
			},
			{
				name: 'Sandbox',
				value: 'sandbox',
				description: 'Test data. Client ID starts with svc_test_.',
			},
		]);
		expect(CLIENT_ID_PREFIX).toEqual({ production: 'svc_live_', sandbox: 'svc_test_' });
	});

	// n8n's form rule: an example, marked as one, so an optional field's (Realm's) is not read as
	// its default.
	it('placeholders → "e.g." and a sandbox client id, or a URL without /realms/… or /v1', () => {
		expect(
			Object.fromEntries(
				credential.properties
					.filter((property) => property.placeholder !== undefined)
					.map((property) => [property.name, property.placeholder]),
			),
		).toEqual({
			clientId: 'e.g. svc_test_…',
			authUrl: 'e.g. https://auth.example.com',
			realm: 'e.g. gst',
			productionApiUrl: 'e.g. https://api.example.com',
			sandboxApiUrl: 'e.g. https://sandbox.api.example.com',
		});
	});
});

describe('the fields the runtime reads', () => {
	it("parseCredentials(each field filled, by the editor's names) → every value read", () => {
		const values = {
			environment: 'production',
			clientId: 'svc_live_abc',
			clientSecret: 'not-a-real-secret',
			authUrl: 'https://auth.example.test',
			realm: 'gst',
			productionApiUrl: 'https://api.example.test',
			sandboxApiUrl: 'https://sandbox.example.test',
		};
		const filled = { ...defaults(), ...values };
		expect(Object.keys(filled)).toEqual(credential.properties.map((property) => property.name));
		expect(parseCredentials(filled)).toEqual(values);
	});

	it.each([
		[
			'the defaults (Sandbox)',
			{},
			'The GST Compliance API credential is missing: Client ID, Client Secret, Auth URL, Realm, Sandbox API URL. Fill them in and save the credential.',
		],
		[
			'the defaults with Environment Production',
			{ environment: 'production' },
			'The GST Compliance API credential is missing: Client ID, Client Secret, Auth URL, Realm, Production API URL. Fill them in and save the credential.',
		],
	])(
		'parseCredentials(%s) → a configuration error naming the fields by their labels',
		(_label, change, message) => {
			let thrown: unknown;
			try {
				parseCredentials({ ...defaults(), ...change });
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(GstCredentialError);
			expect({
				kind: (thrown as GstCredentialError).kind,
				message: (thrown as Error).message,
			}).toEqual({ kind: 'configuration', message });
			const named = message.slice(message.indexOf(': ') + 2, message.indexOf('. ')).split(', ');
			const labels = credential.properties.map((property) => property.displayName);
			expect(named.filter((label) => !labels.includes(label))).toEqual([]);
		},
	);
});

describe('the request hook n8n calls', () => {
	it("authenticate → the package's authenticateRequest (a function n8n calls, not a generic header template)", () => {
		expect(credential.authenticate).toBe(authenticateRequest);
	});
});

describe('the documentation link', () => {
	it("documentationUrl → the README's Credentials section, which exists", () => {
		const url = new URL(credential.documentationUrl);
		expect(`${url.origin}${url.pathname}`).toBe(
			'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance',
		);
		expect(url.hash).toBe('#credentials');
		const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
		expect(readme.split('\n')).toContain('## Credentials');
	});
});

describe('a form a user can fill', () => {
	const { properties } = new GstComplianceApi();
	const field = (name: string) => properties.find((p) => p.name === name)!;

	it('opens with a notice saying where each value comes from', () => {
		const [first] = properties;
		expect(first.type).toBe('notice');
		expect(first.displayName).toMatch(/Client ID and Client Secret.*Developer hub/);
		expect(first.displayName).toMatch(/Auth URL, Realm and the API URL/);
	});

	it("shows and requires only the chosen environment's API URL", () => {
		expect(field('productionApiUrl')).toMatchObject({
			required: true,
			displayOptions: { show: { environment: ['production'] } },
		});
		expect(field('sandboxApiUrl')).toMatchObject({
			required: true,
			displayOptions: { show: { environment: ['sandbox'] } },
		});
	});

	it('Realm may stay empty when the Auth URL is the whole token URL', () => {
		expect(field('realm').required).toBeFalsy();
		expect(field('authUrl').description).toMatch(/whole token URL/);
	});
});
