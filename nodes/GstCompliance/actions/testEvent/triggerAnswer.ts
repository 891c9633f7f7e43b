/**
 * What a trigger URL's answer to a sample event means for the user who sent it: the trigger took
 * it, or what happened and what to do, written "what happened. What to do." (errors/
 * messageParts.ts). n8n itself answers 404 where no trigger listens; a GST Compliance Trigger
 * answers in its own words (trigger/refusals.ts, n8nCompat.ts ACCEPTED), which tell it from any
 * other web address. No n8n here.
 */
import type { GstErrorCode } from '../../errors/apiError';
import { NOT_CONFIGURED } from '../../trigger/refusals';

type TestEventCode = Extract<
	GstErrorCode,
	'TRIGGER_NOT_LISTENING' | 'TRIGGER_REFUSED' | 'EVENT_NOT_STARTED' | 'NOT_A_TRIGGER'
>;

export type AnswerVerdict =
	| { taken: true }
	| { taken: false; code: TestEventCode; message: string };

/** n8n's default path of Test URLs (`/webhook-test/…`), against `/webhook/…` for Production. */
export const isTestUrl = (url: URL) => url.pathname.split('/').includes('webhook-test');

const COPY_URL =
	'Copy the Test URL from the GST Compliance Trigger (Webhook URLs, at the top of its parameters)';

export const LISTEN_FIRST =
	'Open the GST Compliance Trigger, click Execute step, then execute this node within 2 minutes: n8n listens on a Test URL for 2 minutes, and for one event';

/** The URL as typed, checked: a web address, or the message saying what was received. */
export function readTriggerUrl(raw: unknown): { url: URL } | { message: string } {
	const text = typeof raw === 'string' ? raw.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return { url };
	const received = text === '' ? 'nothing' : JSON.stringify(text.slice(0, 80));
	return { message: `Trigger URL is not a web address: received ${received}. ${COPY_URL}.` };
}

const said = (body: unknown): string => {
	const error = (body as { error?: unknown; message?: unknown } | null)?.error;
	const message = (body as { message?: unknown } | null)?.message;
	const words = typeof error === 'string' ? error : typeof message === 'string' ? message : '';
	return words ? `: "${words.slice(0, 200)}"` : '';
};

/** The verdict on `statusCode` and `body` answered to a sample event of `eventName`. */
export function judgeAnswer(
	url: URL,
	statusCode: number,
	body: unknown,
	eventName: string,
): AnswerVerdict {
	const refused = (code: TestEventCode, message: string): AnswerVerdict => ({
		taken: false,
		code,
		message,
	});
	const answer = (body ?? {}) as { received?: unknown; ignored?: unknown; duplicate?: unknown };
	const test = isTestUrl(url);
	const shows = test
		? " The trigger's editor shows why."
		: " n8n's log says why (a line starting GST Compliance Trigger).";

	if (statusCode >= 200 && statusCode < 300) {
		if (answer.received !== true)
			return refused(
				'NOT_A_TRIGGER',
				`The URL answered ${statusCode}, but not as a GST Compliance Trigger answers. ${COPY_URL}, or its Production URL.`,
			);
		if (answer.ignored !== undefined)
			return refused(
				'EVENT_NOT_STARTED',
				`The trigger took the event but starts nothing for ${eventName}: it is not in the trigger's Events. Add ${eventName} to Events (or choose All Events), or pick an event the trigger lists.`,
			);
		if (answer.duplicate === true)
			return refused(
				'EVENT_NOT_STARTED',
				'The trigger has received this event already and starts nothing for it. Execute this node again: each run sends a new event.',
			);
		return { taken: true };
	}
	if (statusCode === 404)
		return refused(
			'TRIGGER_NOT_LISTENING',
			test
				? `Nothing listens at this Test URL. ${LISTEN_FIRST}.`
				: `Nothing listens at this URL (404). Publish the workflow with the GST Compliance Trigger to use its Production URL (n8n 1.x: activate it), or send to its Test URL while it listens.`,
		);
	if (statusCode === 401)
		return refused(
			'TRIGGER_REFUSED',
			`The trigger refused the event's signature (401). Select the same Webhook Signing Secret credential here and on the trigger; if it is the same, this n8n's clock and the trigger's differ by more than its Timestamp Tolerance.${shows}`,
		);
	if (statusCode === 500 && said(body).includes(NOT_CONFIGURED))
		return refused(
			'TRIGGER_REFUSED',
			`The trigger is not configured (500): its Webhook Signing Secret credential is missing or its Signing Secret cannot be used. Open the GST Compliance Trigger and select a credential that works.${shows}`,
		);
	return refused(
		'TRIGGER_REFUSED',
		`The URL answered ${statusCode}${said(body)}. Check that it is the Test URL or Production URL of a GST Compliance Trigger.${shows}`,
	);
}
