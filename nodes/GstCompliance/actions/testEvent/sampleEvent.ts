/**
 * A sample event as the service delivers one (docs/service-api.md, "Event envelope" and "Webhook
 * delivery"), marked as a sample by its ids (`evt_sample_`, and `einv_sample_` or `ewb_sample_`
 * unless a real resource ID is given), and signed with the trigger's own signature code
 * (trigger/signature.ts), so what this sends and what the trigger verifies cannot drift apart.
 * No n8n here: the Send operation reads the parameters and the credential and passes them in.
 */
import { createHash, randomBytes } from 'crypto';

import type { EventEnvelope } from '../../trigger/delivery';
import { EVENT_TYPES, eventResource, type EventType } from '../../trigger/events';
import { formatSignatureHeader, sign, SIGNATURE_HEADER } from '../../trigger/signature';

/** The id prefix that marks an event as a sample, for the next nodes and for people. */
export const SAMPLE_EVENT_PREFIX = 'evt_sample_';

/** The state each event type announces (docs/service-api.md, "States and transitions"). */
const STATE_OF: Record<EventType, string> = {
	'einvoice.generated': 'generated',
	'einvoice.cancelled': 'cancelled',
	'einvoice.failed': 'failed_terminal',
	'ewaybill.generated': 'generated',
	'ewaybill.cancelled': 'cancelled',
	'ewaybill.expired': 'expired',
	'ewaybill.rejected': 'rejected',
};

export function isEventType(value: unknown): value is EventType {
	return EVENT_TYPES.some((event) => event.value === value);
}

export interface SampleInput {
	type: EventType;
	nowMs: number;
	/** A real resource's ID for `data.id`, so a trigger's Refetch Latest State finds it. */
	resourceId?: string;
	/** Hex the sample's ids end with; random unless a test fixes it. */
	suffix?: string;
}

/** `YYYY-MM-DD HH:mm:ss` in India Standard Time (UTC+5:30), as the service writes `ackDate`. */
function istDateTime(nowMs: number): string {
	const ist = new Date(nowMs + (5 * 60 + 30) * 60_000);
	return ist.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The envelope of one sample event of `type`, created now, its `data` with the fields the
 * resource's GET returns (docs/service-api.md, "Resources"); the values are made up.
 */
export function sampleEnvelope(input: SampleInput): EventEnvelope {
	const suffix = input.suffix ?? randomBytes(12).toString('hex');
	const createdAt = new Date(input.nowMs).toISOString();
	const status = STATE_OF[input.type];
	// A failed e-invoice has no IRN, acknowledgement number or date: its generation gives them.
	const generated = status !== 'failed_terminal';
	const data: Record<string, unknown> =
		eventResource(input.type) === 'einvoice'
			? {
					id: input.resourceId || `einv_sample_${suffix}`,
					object: 'einvoice',
					status,
					// An IRN is the SHA-256 hex of the invoice's details; here, of the sample's suffix.
					irn: generated ? createHash('sha256').update(suffix).digest('hex') : '',
					ackNumber: generated ? '112510000000001' : '',
					ackDate: generated ? istDateTime(input.nowMs) : '',
					sellerGstin: '29AAACB1234C1Z5',
					invoiceNumber: 'INV/SAMPLE/0001',
					totalInvoiceValue: 118000,
				}
			: { id: input.resourceId || `ewb_sample_${suffix}`, object: 'ewaybill', status };
	return { id: `${SAMPLE_EVENT_PREFIX}${suffix}`, type: input.type, createdAt, data };
}

export interface SignedDelivery {
	/** The exact bytes signed: sent as they are, never serialised again. */
	body: Buffer;
	headers: Record<string, string>;
}

/** The request the service would make: the envelope as JSON, signed with `secret` at `nowMs`. */
export function signedDelivery(
	envelope: EventEnvelope,
	secret: string,
	nowMs: number,
): SignedDelivery {
	const body = Buffer.from(JSON.stringify(envelope), 'utf8');
	const timestamp = Math.floor(nowMs / 1000);
	return {
		body,
		headers: {
			'content-type': 'application/json',
			[SIGNATURE_HEADER]: formatSignatureHeader(timestamp, [sign(secret, timestamp, body)]),
		},
	};
}
