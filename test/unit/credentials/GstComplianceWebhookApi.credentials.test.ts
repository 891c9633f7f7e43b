/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The webhook credential as the editor shows it: its name, its fields, what its Test button checks
 * (said on the form, since n8n shows a passed Test only as "Connection tested successfully"), and
 * where its documentation link leads.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { GstComplianceWebhookApi } from '@/credentials/GstComplianceWebhookApi.credentials';

const credential = new GstComplianceWebhookApi();

describe('GST Compliance Webhook Signing Secret: the form', () => {
	it('displayName → "GST Compliance Webhook Signing Secret API": the name the README and nodes use, with the suffix n8n’s scanner requires', () => {
		expect(credential.displayName).toBe('GST Compliance Webhook Signing Secret API');
	});

	it('properties → a notice, then Signing Secret and Previous Signing Secret, only the first required', () => {
		expect(
			credential.properties.map(({ name, type, required }) => ({
				name,
				type,
				required: required ?? false,
			})),
		).toEqual([
			{ name: 'testNotice', type: 'notice', required: false },
			{ name: 'signingSecret', type: 'string', required: true },
			{ name: 'previousSigningSecret', type: 'string', required: false },
		]);
	});

	it('masks every secret field, current and previous', () => {
		const secrets = credential.properties.filter((p) => /secret/i.test(p.name));
		expect(secrets.length).toBeGreaterThanOrEqual(2);
		for (const field of secrets)
			expect({ [field.name]: field.typeOptions?.password }).toEqual({ [field.name]: true });
	});

	// A green Test reads as "the service can deliver": the form says it is not.
	it('the notice → the Test checks only how the secrets were pasted, and what proves the secret: an event the trigger accepts', () => {
		const notice = credential.properties[0].displayName;
		expect(notice).toMatch(/^The Test button checks only that each secret was pasted whole/);
		expect(notice).toMatch(/cannot confirm a signing secret/);
		expect(notice).toMatch(/an event the trigger accepts/);
	});
});

describe('the documentation link', () => {
	it("documentationUrl → the README's section of this credential, which exists", () => {
		const url = new URL(credential.documentationUrl);
		expect(`${url.origin}${url.pathname}`).toBe(
			'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance',
		);
		expect(url.hash).toBe('#gst-compliance-webhook-signing-secret');
		const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
		expect(readme.split('\n')).toContain('### GST Compliance Webhook Signing Secret');
	});
});
