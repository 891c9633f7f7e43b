/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The sample event the Send operation posts: an envelope of each event type as the service sends
 * one (docs/service-api.md, "Event envelope"), marked as a sample by its ids, and its request
 * signed so that the trigger's own verdict on the bytes (trigger/delivery.ts, judgeDelivery) is
 * "verified", with that very envelope; signed with another secret or judged later than the
 * tolerance, it is refused as a forged or replayed delivery is.
 */
import {
	isEventType,
	SAMPLE_EVENT_PREFIX,
	sampleEnvelope,
	signedDelivery,
} from '@/nodes/GstCompliance/actions/testEvent/sampleEvent';
import { judgeDelivery } from '@/nodes/GstCompliance/trigger/delivery';
import { EVENT_TYPES, type EventType } from '@/nodes/GstCompliance/trigger/events';
import { parseSignatureHeader, SIGNATURE_HEADER } from '@/nodes/GstCompliance/trigger/signature';

const SECRET = 'whsec_sample_0123456789abcdefghij';
const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0, 250);
const SUFFIX = '0123456789abcdef01234567';
const TYPES = EVENT_TYPES.map((event) => event.value);
/** The resource fields docs/service-api.md lists, in its order. */
const EINVOICE_FIELDS = [
	'id',
	'object',
	'status',
	'irn',
	'ackNumber',
	'ackDate',
	'sellerGstin',
	'invoiceNumber',
	'totalInvoiceValue',
];

/** The trigger's verdict on the request, at `nowMs`, with `secrets` and a 300 s tolerance. */
const judged = (type: EventType, secrets = [SECRET], nowMs = NOW_MS) => {
	const event = sampleEnvelope({ type, nowMs: NOW_MS });
	const request = signedDelivery(event, SECRET, NOW_MS);
	const verdict = judgeDelivery({
		body: request.body,
		signatureHeader: request.headers[SIGNATURE_HEADER],
		secrets,
		nowMs,
		toleranceMs: 300_000,
		selectedEvents: [type],
	});
	return { event, request, verdict };
};

describe('the sample envelope, as the service sends one', () => {
	it.each([
		['einvoice.generated', 'generated'],
		['einvoice.cancelled', 'cancelled'],
		['einvoice.failed', 'failed_terminal'],
		['ewaybill.generated', 'generated'],
		['ewaybill.cancelled', 'cancelled'],
		['ewaybill.expired', 'expired'],
		['ewaybill.rejected', 'rejected'],
	] as const)('sampleEnvelope(%s) → data.status %s', (type, status) => {
		expect(sampleEnvelope({ type, nowMs: NOW_MS }).data.status).toBe(status);
	});

	it('every event type of the trigger has a sample (a new type without one fails here)', () => {
		for (const type of TYPES)
			expect({ type, status: sampleEnvelope({ type, nowMs: NOW_MS }).data.status }).toEqual({
				type,
				status: expect.stringMatching(/^[a-z_]+$/),
			});
	});

	it('sampleEnvelope(einvoice.generated) → evt_sample_ id, the type, createdAt now, the e-invoice fields of the API', () => {
		const event = sampleEnvelope({ type: 'einvoice.generated', nowMs: NOW_MS, suffix: SUFFIX });
		expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'data']);
		expect(event).toMatchObject({
			id: `evt_sample_${SUFFIX}`,
			type: 'einvoice.generated',
			createdAt: '2025-01-15T04:30:00.250Z',
		});
		expect(Object.keys(event.data)).toEqual(EINVOICE_FIELDS);
		expect(event.data).toMatchObject({
			id: `einv_sample_${SUFFIX}`,
			object: 'einvoice',
			irn: expect.stringMatching(/^[0-9a-f]{64}$/),
			ackNumber: expect.stringMatching(/^\d{15}$/),
			// India Standard Time, UTC+5:30
			ackDate: '2025-01-15 10:00:00',
			sellerGstin: expect.stringMatching(/^\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]$/),
			totalInvoiceValue: expect.any(Number),
		});
	});

	it('sampleEnvelope(einvoice.failed) → no IRN, acknowledgement number or date (only generation gives them)', () => {
		expect(sampleEnvelope({ type: 'einvoice.failed', nowMs: NOW_MS }).data).toMatchObject({
			irn: '',
			ackNumber: '',
			ackDate: '',
		});
	});

	it('sampleEnvelope(ewaybill.expired) → ewb_sample_ id, object ewaybill, status; nothing else', () => {
		const event = sampleEnvelope({ type: 'ewaybill.expired', nowMs: NOW_MS, suffix: SUFFIX });
		expect(event.data).toStrictEqual({
			id: `ewb_sample_${SUFFIX}`,
			object: 'ewaybill',
			status: 'expired',
		});
	});

	it('sampleEnvelope with a Resource ID → data.id is that ID; the event id still marks a sample', () => {
		const event = sampleEnvelope({
			type: 'einvoice.cancelled',
			nowMs: NOW_MS,
			resourceId: 'einv_real_42',
		});
		expect(event.data.id).toBe('einv_real_42');
		expect(event.id.startsWith(SAMPLE_EVENT_PREFIX)).toBe(true);
	});

	it('sampleEnvelope twice → two events (distinct ids: each run is a new event, never a copy)', () => {
		const [a, b] = [0, 1].map(() => sampleEnvelope({ type: 'einvoice.failed', nowMs: NOW_MS }));
		expect(a.id).toMatch(/^evt_sample_[0-9a-f]{24}$/);
		expect(b.id).not.toBe(a.id);
		expect(b.data.id).not.toBe(a.data.id);
	});

	it('isEventType → true for the trigger’s event types only', () => {
		for (const type of TYPES) expect(isEventType(type)).toBe(true);
		for (const other of ['*', 'einvoice', 'einvoice.deleted', '', undefined, 42])
			expect(isEventType(other)).toBe(false);
	});
});

describe('signed as the service signs: the trigger’s own verdict', () => {
	it.each(TYPES)(
		'signedDelivery(%s) → judgeDelivery verifies it, with the envelope sent',
		(type) => {
			const { event, verdict } = judged(type);
			expect(verdict).toEqual({ kind: 'verified', event, secretIndex: 0 });
		},
	);

	it('signedDelivery → the body is the envelope’s JSON, byte for byte; sent as JSON', () => {
		const { event, request } = judged('einvoice.generated');
		expect(request.body.equals(Buffer.from(JSON.stringify(event)))).toBe(true);
		expect(request.headers['content-type']).toBe('application/json');
	});

	it('signedDelivery → one t (now, in seconds) and one v1 in the Service-Signature header', () => {
		const { request } = judged('einvoice.generated');
		expect(Object.keys(request.headers)).toEqual(['content-type', 'service-signature']);
		const parsed = parseSignatureHeader(request.headers[SIGNATURE_HEADER]);
		expect(parsed?.timestamp).toBe(String(Math.floor(NOW_MS / 1000)));
		expect(parsed?.signatures).toHaveLength(1);
	});

	it('judged by a trigger holding another secret → refused (401, mismatch)', () => {
		const { verdict } = judged('einvoice.failed', ['whsec_another_0123456789abcdefghij']);
		expect(verdict).toMatchObject({ kind: 'rejected', status: 401, reason: 'mismatch' });
	});

	it('judged by a trigger whose Previous Signing Secret is this secret (a rotation) → verified, secret 2', () => {
		const rotated = judged('einvoice.failed', ['whsec_other_0123456789abcdefghij', SECRET]);
		expect(rotated.verdict).toMatchObject({ kind: 'verified', secretIndex: 1 });
	});

	it('judged 300 s later → verified; 301 s later → refused as stale: the signature carries the time of sending', () => {
		expect(judged('einvoice.failed', [SECRET], NOW_MS + 300_000).verdict.kind).toBe('verified');
		expect(judged('einvoice.failed', [SECRET], NOW_MS + 301_000).verdict).toMatchObject({
			kind: 'rejected',
			reason: 'stale',
		});
	});

	it('one byte of the body changed after signing → refused (the bytes sent are the bytes signed)', () => {
		const { request } = judged('einvoice.generated');
		const body = Buffer.from(request.body);
		body[body.length - 2] ^= 0x01;
		const verdict = judgeDelivery({
			body,
			signatureHeader: request.headers[SIGNATURE_HEADER],
			secrets: [SECRET],
			nowMs: NOW_MS,
			toleranceMs: 300_000,
			selectedEvents: ['*'],
		});
		expect(verdict).toMatchObject({ kind: 'rejected', reason: 'mismatch' });
	});
});
