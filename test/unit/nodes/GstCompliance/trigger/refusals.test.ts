/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * Each delivery the trigger does no work for (trigger/refusals.ts): the sender's answer in fixed
 * words, the log line where the user must act, and what the listening editor shows.
 */
import { refusals } from '@/nodes/GstCompliance/trigger/refusals';

describe('what each refusal answers, logs and shows', () => {
	it('refusals for the sender alone (unreadable, too large, not an event) → 4xx, nothing logged', () => {
		for (const [refusal, status] of [
			[refusals.unreadable(), 400],
			[refusals.tooLarge(), 413],
			[refusals.notEnvelope(), 400],
		] as const) {
			expect(refusal.status).toBe(status);
			expect(refusal.logged).toBeUndefined();
			expect(refusal.shown.title).not.toBe('');
		}
	});

	it('refusals the user must act on (signature, secret, clock, credential) → logged with a reason of their own each', () => {
		const logged = [
			refusals.noSignature(),
			refusals.mismatch(),
			refusals.stale(400, 300),
			refusals.unusableSecret('it is empty'),
			refusals.noCredential(),
		].map((refusal) => refusal.logged?.reason);
		expect(logged).toEqual(['header', 'mismatch', 'stale', 'secret', 'credential']);
	});

	it('stale(offset, tolerance) → 401, both numbers in the log and in the editor, never the secret', () => {
		const refusal = refusals.stale(400, 300);
		expect(refusal).toMatchObject({
			status: 401,
			body: { error: 'Signature verification failed' },
		});
		expect(refusal.logged!.why).toContain('400 s');
		expect(refusal.logged!.why).toContain('300 s');
		expect(refusal.shown.title).toContain('400 s');
	});

	it('unsaved(5000) → 503 "retry later", logged as unsaved, naming the 5 s and WEBHOOK_URL', () => {
		const refusal = refusals.unsaved(5_000);
		expect(refusal).toMatchObject({
			status: 503,
			body: { error: 'Dedupe store unavailable, retry later' },
			logged: { reason: 'unsaved' },
		});
		expect(refusal.logged!.why).toContain('within 5 s');
		expect(refusal.logged!.why).toContain('WEBHOOK_URL');
	});

	it('notSelected(type) → 200 acknowledged (the service must not retry), the type named in the editor', () => {
		const refusal = refusals.notSelected('ewaybill.expired');
		expect(refusal).toMatchObject({
			status: 200,
			body: { received: true, ignored: 'event type not selected' },
		});
		expect(refusal.shown.title).toContain('"ewaybill.expired"');
	});
});

describe('one name for the webhook credential', () => {
	const every = [
		refusals.noSignature(),
		refusals.mismatch(),
		refusals.unusableSecret('it is empty'),
		refusals.noCredential(),
	];
	const texts = every.flatMap((refusal) => [
		refusal.shown.title,
		refusal.shown.description,
		refusal.logged?.why ?? '',
	]);

	it('refusals → the credential as "GST Compliance Webhook Signing Secret", the slot as "Webhook Signing Secret", no other name', () => {
		expect(texts.filter((text) => /Webhook/.test(text)).length).toBeGreaterThan(0);
		for (const text of texts) {
			expect(text).not.toMatch(/Webhook(?! Signing Secret\b)/);
			expect(text).not.toMatch(/(?<!GST Compliance )Webhook Signing Secret credential/);
		}
	});

	it("noCredential() → says to select one under the trigger's Webhook Signing Secret", () => {
		expect(refusals.noCredential().shown).toEqual({
			title: 'The trigger has no GST Compliance Webhook Signing Secret credential',
			description:
				"Select one under the trigger's Webhook Signing Secret, holding the signing secret of the subscription that posts to this URL.",
		});
	});
});
