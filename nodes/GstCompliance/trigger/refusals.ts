/**
 * Each delivery the trigger does no work for, in one place: the answer the service gets (fixed
 * words, never the secret or a stack), the line n8n's log gets for the ones the user must act on
 * (triggerLog.ts), and what a user listening on the Test URL reads in the editor (testUrl.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { STORE_UNAVAILABLE } from './dedupe/storeRefusal';
import { ENVELOPE_ERROR, SIGNATURE_ERROR, SIZE_ERROR, UNREADABLE_ERROR } from './delivery';
import type { Shown } from './testUrl';

export interface Refusal {
	status: number;
	body: IDataObject;
	/** For n8n's log, rate-limited per reason; absent: nothing to act on beyond the sender. */
	logged?: { reason: string; why: string };
	shown: Shown;
}

export const NOT_CONFIGURED = 'Trigger is not configured';

const SEND_FROM_HUB =
	'Send the event from a subscription in the Developer hub, or a signed sample from a GST Compliance node set to Test Event → Send';

const SECRET_REMEDY =
	"Check that the credential under the trigger's Webhook Signing Secret holds the signing secret the service's Developer hub shows for this subscription, the one that posts to this URL (each subscription has its own; after a rotation, the old one goes in Previous Signing Secret)";

/** `text` closed as a sentence: a full stop unless it ends with one, or with a question mark. */
const sentence = (text: string) => (/[.?!]$/.test(text) ? text : `${text}.`);

/** What an unusable Signing Secret means, for a delivery and for the activation alike. */
export const unusableSecretTitle = 'The Signing Secret cannot be used';
export const unusableSecretRemedy = (problem: string) =>
	`${sentence(problem)} Fix it in the GST Compliance Webhook Signing Secret credential`;

export const refusals = {
	unreadable: (): Refusal => ({
		status: 400,
		body: { error: UNREADABLE_ERROR },
		shown: {
			title: 'The delivery could not be read',
			description: `The sender went away before its body arrived whole. ${SEND_FROM_HUB}.`,
		},
	}),

	tooLarge: (): Refusal => ({
		status: 413,
		body: { error: SIZE_ERROR },
		shown: {
			title: 'The delivery is larger than 1 MiB',
			description: `No event of the service is that large, so it is not from the service. ${SEND_FROM_HUB}.`,
		},
	}),

	noSignature: (): Refusal => {
		const why =
			'it has no readable Service-Signature header (missing, or not "t=<seconds>,v1=<hex>"), so it is not from the service';
		return {
			status: 401,
			body: { error: SIGNATURE_ERROR },
			logged: { reason: 'header', why: `${why}: check what else posts to this URL` },
			shown: {
				title: 'The delivery has no readable Service-Signature header',
				description: `Missing, or not "t=<seconds>,v1=<hex>": it is not from the service. ${SEND_FROM_HUB}.`,
			},
		};
	},

	mismatch: (): Refusal => ({
		status: 401,
		body: { error: SIGNATURE_ERROR },
		logged: {
			reason: 'mismatch',
			why: `its signature does not match the Signing Secret. ${SECRET_REMEDY}: the service deactivates a subscription after 50 failed deliveries in a row`,
		},
		shown: {
			title: "The delivery's signature does not match the Signing Secret",
			description: `${SECRET_REMEDY}.`,
		},
	}),

	stale: (offsetS: number, toleranceS: number): Refusal => ({
		status: 401,
		body: { error: SIGNATURE_ERROR },
		logged: {
			reason: 'stale',
			why: `its timestamp is ${offsetS} s from this server's clock, beyond the Timestamp Tolerance of ${toleranceS} s. Check this server's clock (NTP), or raise the trigger's Timestamp Tolerance option`,
		},
		shown: {
			title: `The delivery's timestamp is ${offsetS} s from this server's clock`,
			description: `Deliveries signed further than the Timestamp Tolerance of ${toleranceS} s from now are refused (replay protection). Check this server's clock (NTP), or raise the trigger's Timestamp Tolerance option.`,
		},
	}),

	notEnvelope: (): Refusal => ({
		status: 400,
		body: { error: ENVELOPE_ERROR },
		shown: {
			title: 'The delivery is not an event',
			description: `Its signature verifies, but its body is not a JSON object with a text "id" and "type", as every event of the service is. ${SEND_FROM_HUB}.`,
		},
	}),

	unusableSecret: (problem: string): Refusal => ({
		status: 500,
		body: { error: NOT_CONFIGURED },
		logged: {
			reason: 'secret',
			why: `${problem}: every delivery is refused until the credential is fixed`,
		},
		shown: {
			title: unusableSecretTitle,
			description: `${unusableSecretRemedy(problem)}: every delivery is refused until then.`,
		},
	}),

	noCredential: (): Refusal => ({
		status: 500,
		body: { error: NOT_CONFIGURED },
		logged: {
			reason: 'credential',
			why: 'the trigger has no GST Compliance Webhook Signing Secret credential it can read. Select one on the trigger',
		},
		shown: {
			title: 'The trigger has no GST Compliance Webhook Signing Secret credential',
			description:
				"Select one under the trigger's Webhook Signing Secret, holding the signing secret of the subscription that posts to this URL.",
		},
	}),

	/**
	 * The built-in store's acceptance was not shown saved in time (dedupe/memory/
	 * unsavedAcceptances.ts): unacknowledged, so the service retries, and the retry is answered once
	 * it is. Production only: Test-URL deliveries are not deduplicated.
	 */
	unsaved: (withinMs: number): Refusal => ({
		status: 503,
		body: { error: STORE_UNAVAILABLE },
		logged: {
			reason: 'unsaved',
			why: `nothing showed within ${withinMs / 1000} s that n8n saved the workflow's static data holding the event's acceptance (the trigger's request to its own Production URL did not either). Check n8n's log for a database error ("There was a problem saving the workflow"), and that this n8n reaches its own Production URL (WEBHOOK_URL); in a burst beyond what this n8n keeps up with, the save waits its turn behind n8n's own writes: a Redis credential on the trigger (Dedupe Store: Redis) answers at once. The service retries the delivery`,
		},
		shown: {
			title: "The event's acceptance was not shown saved",
			description: `Nothing showed within ${withinMs / 1000} s that n8n saved the workflow's static data. Check n8n's log for a database error.`,
		},
	}),

	/** Acknowledged, as every verified event is: the service must not retry it. */
	notSelected: (type: string): Refusal => ({
		status: 200,
		body: { received: true, ignored: 'event type not selected' },
		shown: {
			title: `The event type "${type}" is not selected in Events`,
			description:
				'The trigger starts the workflow only for the event types selected in Events. Add it to Events, or choose All Events.',
		},
	}),
};
