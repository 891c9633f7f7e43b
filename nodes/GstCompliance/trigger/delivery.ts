/**
 * One webhook delivery, judged on the exact bytes received, in the order the contract requires:
 * size → signature header → HMAC with each secret → timestamp → JSON envelope → event type
 * filter. Nothing is recorded here, so a rejected or ignored delivery leaves no trace; a verified
 * one goes on to the dedupe lifecycle (dedupe/lifecycle.ts). No n8n types here: the node's
 * `webhook()` turns the outcome into a response.
 */
import { isEventSelected } from './events';
import { verify, type VerifyFailure } from './signature';
import { isJsonObject, jsonObject } from '../text/json';

/** Envelopes are a few KB; anything near this is not a delivery of this service. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface EventEnvelope {
	id: string;
	type: string;
	createdAt?: string;
	data: Record<string, unknown>;
}

export interface DeliveryInput {
	body: Buffer;
	signatureHeader: string | string[] | undefined;
	secrets: ReadonlyArray<string | undefined>;
	nowMs: number;
	toleranceMs: number;
	selectedEvents: readonly string[];
}

export type DeliveryOutcome =
	| {
			kind: 'rejected';
			status: 400 | 401 | 413;
			error: string;
			reason: VerifyFailure | 'tooLarge' | 'notEnvelope';
	  }
	| { kind: 'ignored'; event: EventEnvelope }
	| { kind: 'verified'; event: EventEnvelope; secretIndex: number };

/** Response texts are fixed: they never carry the secret, the expected signature or a stack. */
export const SIGNATURE_ERROR = 'Signature verification failed';
export const ENVELOPE_ERROR = 'Body is not an event envelope';
export const SIZE_ERROR = 'Payload too large';
export const UNREADABLE_ERROR = 'The request body could not be read';

export function judgeDelivery(input: DeliveryInput): DeliveryOutcome {
	if (input.body.length > MAX_BODY_BYTES) {
		return { kind: 'rejected', status: 413, error: SIZE_ERROR, reason: 'tooLarge' };
	}

	const verified = verify({
		body: input.body,
		header: input.signatureHeader,
		secrets: input.secrets,
		nowSeconds: Math.floor(input.nowMs / 1000),
		toleranceSeconds: input.toleranceMs / 1000,
	});
	if (!verified.ok)
		return { kind: 'rejected', status: 401, error: SIGNATURE_ERROR, reason: verified.reason };

	const event = parseEnvelope(input.body);
	if (!event)
		return { kind: 'rejected', status: 400, error: ENVELOPE_ERROR, reason: 'notEnvelope' };

	// Filtered before any claim, so unselected events take no room in the store: whether seen or
	// not, they get the same 200 and start nothing.
	if (!isEventSelected(input.selectedEvents, event.type)) return { kind: 'ignored', event };
	return { kind: 'verified', event, secretIndex: verified.secretIndex };
}

/** A JSON object with a non-empty string `id` and `type`; `data` defaults to `{}` when absent. */
export function parseEnvelope(body: Buffer): EventEnvelope | undefined {
	const parsed = jsonObject(body.toString('utf8'));
	return parsed && readEnvelope(parsed);
}

/**
 * The envelope in fields already parsed (a delivery's body, or the item a webhook handed its
 * execution): a non-empty string `id` and `type`, `createdAt` when it is text, `data` when it is
 * an object, else `{}`.
 */
export function readEnvelope(fields: Record<string, unknown>): EventEnvelope | undefined {
	const { id, type, createdAt, data } = fields;
	if (typeof id !== 'string' || id.length === 0 || typeof type !== 'string' || type.length === 0)
		return undefined;
	return {
		id,
		type,
		createdAt: typeof createdAt === 'string' ? createdAt : undefined,
		data: isJsonObject(data) ? data : {},
	};
}

/** The envelope's fields, in the order the service sends them: what items carry and show. */
export function envelopeFields(event: EventEnvelope): Record<string, unknown> {
	return { id: event.id, type: event.type, createdAt: event.createdAt, data: event.data };
}
