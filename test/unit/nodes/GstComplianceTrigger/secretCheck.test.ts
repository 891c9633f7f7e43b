/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/** The webhook credential's Test button: the signing secrets are checked locally. */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialsDecrypted } from 'n8n-workflow';

import { GstComplianceTrigger } from '../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import { checkSigningSecrets } from '../../../../nodes/GstComplianceTrigger/secretCheck';

describe('webhook credential test', () => {
	it.each([
		[{ signingSecret: 'whsec_0123456789abcdef' }, 'OK'],
		[
			{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'whsec_fedcba9876543210' },
			'OK',
		],
		[{ signingSecret: '' }, 'Error'],
		[{}, 'Error'],
		[{ signingSecret: ' whsec_0123456789abcdef' }, 'Error'],
		[{ signingSecret: 'whsec_0123456789abcdef\n' }, 'Error'],
		[{ signingSecret: 'short' }, 'Error'],
		[{ signingSecret: 'x'.repeat(513) }, 'Error'],
		[{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'tiny' }, 'Error'],
		[
			{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'whsec_0123456789abcdef' },
			'Error',
		],
	])('case %# → %s', (data, status) => {
		expect(checkSigningSecrets(data).status).toBe(status);
	});

	it('says the check is local, and never repeats the secret', async () => {
		const node = new GstComplianceTrigger();
		const secret = 'whsec_0123456789abcdef';
		const ok = await node.methods.credentialTest.gstComplianceWebhookSecretCheck.call(
			new CredentialTestContext(),
			{ data: { signingSecret: secret } } as unknown as ICredentialsDecrypted,
		);
		expect(ok).toEqual({ status: 'OK', message: expect.stringContaining('locally') });
		const bad = checkSigningSecrets({ signingSecret: `${secret} ` });
		expect(bad.message).not.toContain(secret);
	});
});
