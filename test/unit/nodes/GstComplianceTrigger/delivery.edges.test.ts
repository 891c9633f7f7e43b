/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/**
 * handleDelivery on its own: the order of the checks (size → signature → timestamp → envelope →
 * event filter → claim), that nothing is claimed before the last step, and the envelope reading.
 */
import type { DedupeStore } from '../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';
import {
	handleDelivery,
	MAX_BODY_BYTES,
	parseEnvelope,
	type DeliveryInput,
} from '../../../../nodes/GstComplianceTrigger/delivery';
import { formatSignatureHeader, sign } from '../../../../nodes/GstComplianceTrigger/signature';

const SECRET = 'whsec_delivery_0123456789';
const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0);
const NOW_S = NOW_MS / 1000;

/** A store that records every claim and answers from a set. */
const recordingStore = () => {
	const claims: Array<[string, number]> = [];
	const seen = new Set<string>();
	const store: DedupeStore = {
		async claim(id, nowMs) {
			claims.push([id, nowMs]);
			if (seen.has(id)) return false;
			seen.add(id);
			return true;
		},
	};
	return { store, claims };
};

const input = (body: string | Buffer, overrides: Partial<DeliveryInput> = {}): DeliveryInput => {
	const bytes = typeof body === 'string' ? Buffer.from(body) : body;
	return {
		body: bytes,
		signatureHeader: formatSignatureHeader(NOW_S, [sign(SECRET, NOW_S, bytes)]),
		secrets: [SECRET],
		nowMs: NOW_MS,
		toleranceSeconds: 300,
		selectedEvents: ['*'],
		...overrides,
	};
};
const event = (overrides: Record<string, unknown> = {}) =>
	JSON.stringify({ id: 'evt_1', type: 'einvoice.generated', data: { id: 'einv_1' }, ...overrides });

describe('handleDelivery', () => {
	it('accepts a signed envelope, claims its id at the delivery time and names the secret used', async () => {
		const { store, claims } = recordingStore();
		const outcome = await handleDelivery(
			input(event(), { secrets: ['whsec_other', SECRET] }),
			store,
		);
		expect(outcome).toEqual({
			kind: 'accepted',
			secretIndex: 1,
			event: {
				id: 'evt_1',
				type: 'einvoice.generated',
				createdAt: undefined,
				data: { id: 'einv_1' },
			},
		});
		expect(claims).toEqual([['evt_1', NOW_MS]]);
	});

	it('answers a second delivery of the id as a duplicate', async () => {
		const { store } = recordingStore();
		await handleDelivery(input(event()), store);
		expect(await handleDelivery(input(event()), store)).toMatchObject({
			kind: 'duplicate',
			event: { id: 'evt_1' },
		});
	});

	it('accepts a body of exactly the size limit', async () => {
		const { store } = recordingStore();
		const body = Buffer.alloc(MAX_BODY_BYTES, 0x20);
		body.write(event());
		expect(await handleDelivery(input(body), store)).toMatchObject({
			kind: 'accepted',
			event: { id: 'evt_1' },
		});
	});

	it('refuses an oversized body before reading its signature', async () => {
		const { store, claims } = recordingStore();
		const body = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
		expect(await handleDelivery(input(body, { signatureHeader: undefined }), store)).toEqual({
			kind: 'rejected',
			status: 413,
			error: 'Payload too large',
			reason: 'tooLarge',
		});
		expect(claims).toEqual([]);
	});

	it.each([
		['no header', { signatureHeader: undefined }, 'malformed'],
		['a wrong secret', { secrets: ['whsec_wrong'] }, 'mismatch'],
		['a timestamp 301 s old', { nowMs: NOW_MS + 301_000 }, 'stale'],
	])('answers 401 with one text for %s, claiming nothing', async (_name, overrides, reason) => {
		const { store, claims } = recordingStore();
		expect(await handleDelivery(input(event(), overrides), store)).toEqual({
			kind: 'rejected',
			status: 401,
			error: 'Signature verification failed',
			reason,
		});
		expect(claims).toEqual([]);
	});

	it('checks the timestamp in whole seconds of nowMs', async () => {
		const { store } = recordingStore();
		const outcome = await handleDelivery(input(event(), { nowMs: NOW_MS + 300_999 }), store);
		expect(outcome.kind).toBe('accepted');
	});

	it('answers 400 to a signed body that is not an envelope, claiming nothing', async () => {
		const { store, claims } = recordingStore();
		expect(await handleDelivery(input('[1,2]'), store)).toEqual({
			kind: 'rejected',
			status: 400,
			error: 'Body is not an event envelope',
			reason: 'notEnvelope',
		});
		expect(claims).toEqual([]);
	});

	it('ignores an unselected type without claiming it, so selecting it later still starts it', async () => {
		const { store, claims } = recordingStore();
		const unselected = await handleDelivery(
			input(event(), { selectedEvents: ['einvoice.failed'] }),
			store,
		);
		expect(unselected).toMatchObject({ kind: 'ignored', event: { id: 'evt_1' } });
		expect(claims).toEqual([]);
		expect((await handleDelivery(input(event()), store)).kind).toBe('accepted');
	});
});

describe('parseEnvelope', () => {
	const parse = (text: string) => parseEnvelope(Buffer.from(text));

	it('reads id, type, createdAt and data', () => {
		expect(parse(event({ createdAt: '2025-01-15T04:29:59Z', data: { a: 1 } }))).toEqual({
			id: 'evt_1',
			type: 'einvoice.generated',
			createdAt: '2025-01-15T04:29:59Z',
			data: { a: 1 },
		});
	});

	it('defaults data to {} when it is absent or not an object, and drops a non-string createdAt', () => {
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
	])('refuses %s', (_name, text) => {
		expect(parse(text)).toBeUndefined();
	});

	it('reads the body as UTF-8', () => {
		expect(parse(JSON.stringify({ id: 'évt', type: 't' }))?.id).toBe('évt');
	});
});
