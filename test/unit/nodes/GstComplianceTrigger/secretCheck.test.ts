/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/** The webhook credential's Test button: the signing secrets are checked locally. */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialsDecrypted } from 'n8n-workflow';

import { GstComplianceTrigger } from '../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import {
	checkSigningSecrets,
	usableSigningSecrets,
} from '../../../../nodes/GstComplianceTrigger/secretCheck';

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

describe('usableSigningSecrets: the rules the webhook verifies with', () => {
	const CURRENT = 'whsec_0123456789abcdef';
	const PREVIOUS = 'whsec_fedcba9876543210';

	it('both secrets valid → both used, current first', () => {
		expect(
			usableSigningSecrets({ signingSecret: CURRENT, previousSigningSecret: PREVIOUS }),
		).toEqual({
			secrets: [CURRENT, PREVIOUS],
		});
	});

	it.each([undefined, null, ''])(
		'no previous secret (%j) → the current one alone, nothing said',
		(previous) => {
			expect(
				usableSigningSecrets({ signingSecret: CURRENT, previousSigningSecret: previous }),
			).toEqual({
				secrets: [CURRENT],
			});
		},
	);

	it.each([
		['-', 'Previous Signing Secret is shorter than 16 characters: was it copied whole?'],
		[' ', 'Previous Signing Secret has leading or trailing whitespace'],
		[CURRENT, 'Previous Signing Secret is the same as Signing Secret'],
		[42, 'Previous Signing Secret is empty'],
	])('a previous secret %j → ignored: %s', (previous, why) => {
		expect(
			usableSigningSecrets({ signingSecret: CURRENT, previousSigningSecret: previous }),
		).toEqual({
			secrets: [CURRENT],
			ignored: why,
		});
	});

	it.each([
		['', 'Signing Secret is empty'],
		['-', 'Signing Secret is shorter than 16 characters: was it copied whole?'],
		[`${CURRENT} `, 'Signing Secret has leading or trailing whitespace'],
		['x'.repeat(513), 'Signing Secret is longer than 512 characters'],
	])('a current secret %j → nothing usable: %s', (current, why) => {
		expect(
			usableSigningSecrets({ signingSecret: current, previousSigningSecret: PREVIOUS }),
		).toEqual({
			secrets: [],
			unusable: why,
		});
	});

	it('the Test button and the webhook agree on every case', () => {
		for (const data of [
			{ signingSecret: CURRENT },
			{ signingSecret: '-' },
			{ signingSecret: CURRENT, previousSigningSecret: '-' },
			{ signingSecret: CURRENT, previousSigningSecret: PREVIOUS },
		]) {
			const usable = usableSigningSecrets(data);
			const clean = !usable.unusable && !usable.ignored;
			expect(checkSigningSecrets(data).status).toBe(clean ? 'OK' : 'Error');
		}
	});
});
