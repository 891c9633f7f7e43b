/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/** The webhook credential's Test button: the signing secrets are checked locally. */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialsDecrypted } from 'n8n-workflow';

import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';
import {
	checkSigningSecrets,
	usableSigningSecrets,
} from '@/nodes/GstCompliance/trigger/secretCheck';

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
			{ signingSecret: CURRENT, previousSigningSecret: null },
			{ signingSecret: `${CURRENT}\u200b` },
			{ signingSecret: CURRENT, previousSigningSecret: `${PREVIOUS}\u00ad` },
		]) {
			const usable = usableSigningSecrets(data);
			const clean = !usable.unusable && !usable.ignored;
			expect(checkSigningSecrets(data).status).toBe(clean ? 'OK' : 'Error');
		}
	});
});

describe('refuses a signing secret holding an invisible or space-like character, naming its code point and position', () => {
	const CURRENT = 'whsec_0123456789abcdef';
	const PREVIOUS = 'whsec_fedcba9876543210';
	/** The secret with `character` after its 12th character, where no trimming reaches it. */
	const withInside = (secret: string, character: string) =>
		`${secret.slice(0, 12)}${character}${secret.slice(12)}`;
	const why = (label: string, codePoint: string) =>
		`${label} contains ${codePoint} at character 13, an invisible or space-like character (such as a zero-width space, soft hyphen or no-break space) that copying brings along and no delivery's signature matches: paste the secret again from the Developer hub, or type it`;

	it.each([
		['\u200b', 'U+200B'], // zero-width space
		['\u00ad', 'U+00AD'], // soft hyphen
		['\u2060', 'U+2060'], // word joiner
		['\ufeff', 'U+FEFF'], // byte order mark
		['\u200d', 'U+200D'], // zero-width joiner
		['\u180e', 'U+180E'], // Mongolian vowel separator (format, no longer a space)
		['\u{e0020}', 'U+E0020'], // tag space
		['\ufe0f', 'U+FE0F'], // variation selector
		['\u00a0', 'U+00A0'], // no-break space
		['\u3000', 'U+3000'], // ideographic space
		['\u2028', 'U+2028'], // line separator
		['\u2029', 'U+2029'], // paragraph separator
		['\t', 'U+0009'],
		['\ud800', 'U+D800'], // unpaired surrogate: no UTF-8 form, HMAC would sign U+FFFD
	])(
		'a secret with %j inside → the Test button fails and the webhook does not use it, naming %s',
		(character, codePoint) => {
			const current = withInside(CURRENT, character);
			const atTest = checkSigningSecrets({ signingSecret: current });
			expect(atTest).toEqual({ status: 'Error', message: why('Signing Secret', codePoint) });
			expect(atTest.message).not.toContain(CURRENT.slice(0, 12));
			expect(
				usableSigningSecrets({ signingSecret: current, previousSigningSecret: PREVIOUS }),
			).toEqual({
				secrets: [],
				unusable: why('Signing Secret', codePoint),
			});

			const previous = withInside(PREVIOUS, character);
			const data = { signingSecret: CURRENT, previousSigningSecret: previous };
			expect(checkSigningSecrets(data)).toEqual({
				status: 'Error',
				message: why('Previous Signing Secret', codePoint),
			});
			expect(usableSigningSecrets(data)).toEqual({
				secrets: [CURRENT],
				ignored: why('Previous Signing Secret', codePoint),
			});
		},
	);

	it('the position counts characters, not UTF-16 units, and names the first such character', () => {
		const secret = `whsec_\u{1f511}0123456789\u200b\u00adabc`;
		expect(checkSigningSecrets({ signingSecret: secret }).message).toMatch(
			/^Signing Secret contains U\+200B at character 18,/,
		);
	});

	it.each([
		['a plain space inside', 'whsec_01234 56789abcdef'],
		['a visible non-ASCII letter', 'whsec_0123456789abcdéf'],
		['an emoji', 'whsec_0123456789abcdef\u{1f511}'],
	])('a secret with %s → accepted as before', (_label, secret) => {
		expect(checkSigningSecrets({ signingSecret: secret }).status).toBe('OK');
		expect(usableSigningSecrets({ signingSecret: secret })).toEqual({ secrets: [secret] });
	});
});
