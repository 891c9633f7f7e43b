/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * What the answer to a sample event means: the trigger took it only when a GST Compliance Trigger
 * answered that it did (n8n 2.34+ 202, n8n 2.0–2.33 200, both `{received: true}`); every other
 * answer fails with what happened and what to do, and where the user finds why (the listening
 * editor for a Test URL, n8n's log for a Production URL). The Trigger URL as typed is checked
 * first.
 */
import {
	isTestUrl,
	judgeAnswer,
	LISTEN_FIRST,
	readTriggerUrl,
} from '@/nodes/GstCompliance/actions/testEvent/triggerAnswer';
import { messageParts } from '@/nodes/GstCompliance/errors/messageParts';

const TEST = new URL('https://n8n.example.com/webhook-test/3f1c0d2e-aaaa/webhook');
const PRODUCTION = new URL('https://n8n.example.com/webhook/3f1c0d2e-aaaa/webhook');
const NAME = 'E-Invoice Failed';
const judge = (status: number, body: unknown, url = TEST) => judgeAnswer(url, status, body, NAME);
/** The message as n8n shows it: the title, and what to do under it. */
const shown = (status: number, body: unknown, url = TEST) => {
	const verdict = judge(status, body, url);
	if (verdict.taken) throw new Error('taken');
	return { code: verdict.code, ...messageParts(verdict.message) };
};

describe('the trigger took the event', () => {
	it.each([
		['202 {received: true} (n8n 2.34 and later)', 202, { received: true }],
		['200 {received: true} (n8n 2.0–2.33, once the execution exists)', 200, { received: true }],
	])('judgeAnswer(%s) → taken', (_name, status, body) => {
		expect(judge(status, body)).toEqual({ taken: true });
		expect(judge(status, body, PRODUCTION)).toEqual({ taken: true });
	});
});

describe('a 2xx that starts nothing, or is not a trigger’s', () => {
	it('200 {received, ignored} → EVENT_NOT_STARTED naming the event and the trigger’s Events', () => {
		expect(shown(200, { received: true, ignored: 'event type not selected' })).toEqual({
			code: 'EVENT_NOT_STARTED',
			title: `The trigger took the event but starts nothing for ${NAME}: it is not in the trigger's Events.`,
			remedy: `Add ${NAME} to Events (or choose All Events), or pick an event the trigger lists.`,
		});
	});

	it('200 {received, duplicate} → EVENT_NOT_STARTED: execute again, each run is a new event', () => {
		expect(shown(200, { received: true, duplicate: true }, PRODUCTION)).toMatchObject({
			code: 'EVENT_NOT_STARTED',
			remedy: expect.stringContaining('each run sends a new event'),
		});
	});

	it.each([
		['an n8n Webhook node', 200, { message: 'Workflow was started' }],
		['a web page', 200, '<!doctype html><title>n8n</title>'],
		['an empty answer', 204, ''],
		['received as text', 202, { received: 'true' }],
		['no body', 200, undefined],
	])('%s → NOT_A_TRIGGER, to copy the trigger’s URL', (_name, status, body) => {
		expect(shown(status, body)).toEqual({
			code: 'NOT_A_TRIGGER',
			title: `The URL answered ${status}, but not as a GST Compliance Trigger answers.`,
			remedy:
				'Copy the Test URL from the GST Compliance Trigger (Webhook URLs, at the top of its parameters), or its Production URL.',
		});
	});
});

describe('nothing listens (n8n’s 404)', () => {
	it('404 at a Test URL → TRIGGER_NOT_LISTENING: click Execute step, then send within 2 minutes', () => {
		const body = { code: 404, message: 'The requested webhook "POST …" is not registered.' };
		expect(shown(404, body)).toEqual({
			code: 'TRIGGER_NOT_LISTENING',
			title: 'Nothing listens at this Test URL.',
			remedy: `${LISTEN_FIRST}.`,
		});
		expect(LISTEN_FIRST).toMatch(/Execute step.*within 2 minutes.*one event/);
	});

	it('404 at a Production URL → TRIGGER_NOT_LISTENING: publish, or use the Test URL', () => {
		expect(shown(404, {}, PRODUCTION)).toMatchObject({
			code: 'TRIGGER_NOT_LISTENING',
			title: 'Nothing listens at this URL (404).',
			remedy: expect.stringMatching(/^Publish the workflow .*Test URL while it listens\.$/),
		});
	});
});

describe('the trigger refused it', () => {
	it('401 → TRIGGER_REFUSED: the same credential on both, else the clocks; the editor shows why', () => {
		const { code, title, remedy } = shown(401, { error: 'Signature verification failed' });
		expect(code).toBe('TRIGGER_REFUSED');
		expect(title).toBe("The trigger refused the event's signature (401).");
		expect(remedy).toMatch(
			/^Select the same Webhook Signing Secret credential here and on the trigger; .*Timestamp Tolerance\. The trigger's editor shows why\.$/,
		);
	});

	it('401 at a Production URL → the remedy points to n8n’s log instead of the editor', () => {
		const { remedy } = shown(401, { error: 'Signature verification failed' }, PRODUCTION);
		expect(remedy).toContain("n8n's log says why");
		expect(remedy).not.toContain('editor');
	});

	it('500 "Trigger is not configured" → TRIGGER_REFUSED naming the trigger’s credential', () => {
		expect(shown(500, { error: 'Trigger is not configured' })).toMatchObject({
			code: 'TRIGGER_REFUSED',
			title: expect.stringMatching(
				/^The trigger is not configured \(500\): its Webhook Signing Secret credential/,
			),
		});
	});

	it.each([
		[
			503,
			{ error: 'Dedupe store unavailable, retry later' },
			': "Dedupe store unavailable, retry later"',
		],
		[500, { message: 'Internal error' }, ': "Internal error"'],
		[400, 'Bad Request', ''],
		[413, { error: 'Payload too large' }, ': "Payload too large"'],
	])('%i → TRIGGER_REFUSED quoting what it said', (status, body, quoted) => {
		expect(judge(status, body)).toEqual({
			taken: false,
			code: 'TRIGGER_REFUSED',
			message: `The URL answered ${status}${quoted}. Check that it is the Test URL or Production URL of a GST Compliance Trigger. The trigger's editor shows why.`,
		});
	});

	it('an answer quoting more than 200 characters → quoted to 200', () => {
		const verdict = judge(502, { error: 'x'.repeat(500) });
		expect(verdict.taken ? '' : verdict.message).toContain(`"${'x'.repeat(200)}"`);
		expect(verdict.taken ? '' : verdict.message).not.toContain('x'.repeat(201));
	});
});

describe('the Trigger URL as typed', () => {
	it.each([
		[
			'https://n8n.example.com/webhook-test/abc/webhook',
			'https://n8n.example.com/webhook-test/abc/webhook',
		],
		['  http://localhost:5678/webhook/abc/webhook \n', 'http://localhost:5678/webhook/abc/webhook'],
	])('readTriggerUrl(%j) → the URL, trimmed', (raw, href) => {
		expect(readTriggerUrl(raw)).toEqual({ url: new URL(href) });
	});

	it.each([
		['', 'nothing'],
		[undefined, 'nothing'],
		[42, 'nothing'],
		['n8n.example.com/webhook-test/abc/webhook', '"n8n.example.com/webhook-test/abc/webhook"'],
		['ftp://n8n.example.com/webhook', '"ftp://n8n.example.com/webhook"'],
		['javascript:alert(1)', '"javascript:alert(1)"'],
	])('readTriggerUrl(%j) → "not a web address", received %s, where to copy it', (raw, received) => {
		expect(readTriggerUrl(raw)).toEqual({
			message: `Trigger URL is not a web address: received ${received}. Copy the Test URL from the GST Compliance Trigger (Webhook URLs, at the top of its parameters).`,
		});
	});

	it('isTestUrl → true for n8n’s /webhook-test/ path only', () => {
		expect(isTestUrl(TEST)).toBe(true);
		expect(isTestUrl(PRODUCTION)).toBe(false);
		expect(isTestUrl(new URL('https://n8n.example.com/x/webhook-tests/abc'))).toBe(false);
	});
});
