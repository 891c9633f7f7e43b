/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * judgeDelivery, parseEnvelope, readEnvelope and envelopeFields on their own: the order of the checks (size → signature →
 * timestamp → envelope → event filter), that judging is pure (no store, nothing remembered), and
 * the envelope reading. What webhook() makes of each outcome is in webhook.test.ts.
 */
import {
	envelopeFields,
	judgeDelivery,
	MAX_BODY_BYTES,
	parseEnvelope,
	readEnvelope,
	type DeliveryInput,
} from '@/nodes/GstCompliance/trigger/delivery';
import { formatSignatureHeader, sign } from '@/nodes/GstCompliance/trigger/signature';

const SECRET = 'whsec_delivery_0123456789';
const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0);
const NOW_S = NOW_MS / 1000;

const input = (body: string | Buffer, overrides: Partial<DeliveryInput> = {}): DeliveryInput => {
	const bytes = typeof body === 'string' ? Buffer.from(body) : body;
	return {
		body: bytes,
		signatureHeader: formatSignatureHeader(NOW_S, [sign(SECRET, NOW_S, bytes)]),
		secrets: [SECRET],
		nowMs: NOW_MS,
		toleranceMs: 300_000,
		selectedEvents: ['*'],
		...overrides,
	};
};
const event = (overrides: Record<string, unknown> = {}) =>
	JSON.stringify({ id: 'evt_1', type: 'einvoice.generated', data: { id: 'einv_1' }, ...overrides });
const SIGNATURE_REJECTION = {
	kind: 'rejected',
	status: 401,
	error: 'Signature verification failed',
};

describe('judging a signed envelope', () => {
	it('judgeDelivery(signed with the second secret) → verified, with the event and secretIndex 1', () => {
		expect(judgeDelivery(input(event(), { secrets: ['whsec_other', SECRET] }))).toEqual({
			kind: 'verified',
			secretIndex: 1,
			event: {
				id: 'evt_1',
				type: 'einvoice.generated',
				createdAt: undefined,
				data: { id: 'einv_1' },
			},
		});
	});

	it('judgeDelivery(the same delivery twice) → verified both times: nothing is remembered', () => {
		const delivery = input(event());
		expect(judgeDelivery(delivery).kind).toBe('verified');
		expect(judgeDelivery(delivery).kind).toBe('verified');
	});

	it('judgeDelivery(an unselected type) → ignored; the same event with All Events → verified', () => {
		expect(judgeDelivery(input(event(), { selectedEvents: ['einvoice.failed'] }))).toMatchObject({
			kind: 'ignored',
			event: { id: 'evt_1' },
		});
		expect(judgeDelivery(input(event())).kind).toBe('verified');
	});
});

describe('the size limit, checked first', () => {
	it('judgeDelivery(a body of exactly MAX_BODY_BYTES) → verified', () => {
		const body = Buffer.alloc(MAX_BODY_BYTES, 0x20);
		body.write(event());
		expect(judgeDelivery(input(body))).toMatchObject({ kind: 'verified', event: { id: 'evt_1' } });
	});

	it('judgeDelivery(one byte more, no signature header) → 413 tooLarge, before the signature', () => {
		const body = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
		expect(judgeDelivery(input(body, { signatureHeader: undefined }))).toEqual({
			kind: 'rejected',
			status: 413,
			error: 'Payload too large',
			reason: 'tooLarge',
		});
	});
});

describe('the signature and its timestamp', () => {
	it.each([
		['no header', 'malformed', { signatureHeader: undefined }],
		['a wrong secret', 'mismatch', { secrets: ['whsec_wrong'] }],
		['a timestamp 301 s old', 'stale', { nowMs: NOW_MS + 301_000 }],
	])('judgeDelivery(%s) → 401 with the one generic text, reason %s', (_name, reason, overrides) => {
		expect(judgeDelivery(input(event(), overrides))).toEqual({ ...SIGNATURE_REJECTION, reason });
	});

	it('judgeDelivery(nowMs 300.999 s after t) → verified: the timestamp is compared in whole seconds', () => {
		expect(judgeDelivery(input(event(), { nowMs: NOW_MS + 300_999 })).kind).toBe('verified');
	});

	it('judgeDelivery(toleranceMs 30000) → verified 30 s after t, 401 stale 31 s after', () => {
		const within = input(event(), { toleranceMs: 30_000, nowMs: NOW_MS + 30_000 });
		const beyond = input(event(), { toleranceMs: 30_000, nowMs: NOW_MS + 31_000 });
		expect(judgeDelivery(within).kind).toBe('verified');
		expect(judgeDelivery(beyond)).toEqual({ ...SIGNATURE_REJECTION, reason: 'stale' });
	});
});

describe('the envelope, read only once the signature holds', () => {
	it('judgeDelivery(a signed body that is not an envelope) → 400 notEnvelope', () => {
		expect(judgeDelivery(input('[1,2]'))).toEqual({
			kind: 'rejected',
			status: 400,
			error: 'Body is not an event envelope',
			reason: 'notEnvelope',
		});
	});

	it('judgeDelivery(an unsigned body that is not an envelope) → 401: the signature comes first', () => {
		expect(judgeDelivery(input('[1,2]', { signatureHeader: undefined }))).toEqual({
			...SIGNATURE_REJECTION,
			reason: 'malformed',
		});
	});
});

describe('parseEnvelope', () => {
	const parse = (text: string) => parseEnvelope(Buffer.from(text));

	it('parseEnvelope(a full envelope) → id, type, createdAt and data', () => {
		expect(parse(event({ createdAt: '2025-01-15T04:29:59Z', data: { a: 1 } }))).toEqual({
			id: 'evt_1',
			type: 'einvoice.generated',
			createdAt: '2025-01-15T04:29:59Z',
			data: { a: 1 },
		});
	});

	it('parseEnvelope(data absent or not an object, createdAt not a string) → data {}, createdAt undefined', () => {
		for (const data of [undefined, null, 'x', 3, [1]]) {
			expect(parse(event({ data, createdAt: 5 }))).toEqual({
				id: 'evt_1',
				type: 'einvoice.generated',
				createdAt: undefined,
				data: {},
			});
		}
	});

	it.each([
		['not JSON', '{'],
		['null', 'null'],
		['an array', '[]'],
		['a string', '"x"'],
		['no id', JSON.stringify({ type: 't' })],
		['an empty id', JSON.stringify({ id: '', type: 't' })],
		['a numeric id', JSON.stringify({ id: 1, type: 't' })],
		['no type', JSON.stringify({ id: 'e' })],
		['an empty type', JSON.stringify({ id: 'e', type: '' })],
		['a numeric type', JSON.stringify({ id: 'e', type: 1 })],
	])('parseEnvelope(%s) → undefined', (_name, text) => {
		expect(parse(text)).toBeUndefined();
	});

	it('parseEnvelope(UTF-8 bytes) → the id as decoded from UTF-8', () => {
		expect(parse(JSON.stringify({ id: 'évt', type: 't' }))?.id).toBe('évt');
	});
});

describe('readEnvelope and envelopeFields: the four fields, listed once', () => {
	const full = {
		id: 'evt_1',
		type: 'einvoice.generated',
		createdAt: '2025-01-15T04:29:59Z',
		data: { a: 1 },
	};

	it('envelopeFields(an envelope) → id, type, createdAt, data in that order; readEnvelope gives it back', () => {
		const fields = envelopeFields(full);
		expect(Object.keys(fields)).toEqual(['id', 'type', 'createdAt', 'data']);
		expect(readEnvelope(fields)).toEqual(full);
	});

	it('readEnvelope(fields with more beside them) → the envelope alone', () => {
		expect(readEnvelope({ ...full, acceptance: { token: 't' }, notice: 'n' })).toEqual(full);
	});

	it.each([
		['no id', { type: 't' }],
		['an empty type', { id: 'e', type: '' }],
		['a numeric id', { id: 1, type: 't' }],
	])('readEnvelope(%s) → undefined', (_name, fields) => {
		expect(readEnvelope(fields)).toBeUndefined();
	});
});
