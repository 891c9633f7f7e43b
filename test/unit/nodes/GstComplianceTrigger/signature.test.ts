/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/** The webhook signature: HMAC-SHA256 over "<t>.<raw body>", its header, and its verification. */
import { createHmac } from 'crypto';

import {
	formatSignatureHeader,
	parseSignatureHeader,
	sign,
	verify,
} from '../../../../nodes/GstComplianceTrigger/signature';

const SECRET = 'whsec_test_secret_value_123456';
const T = 1736915400;
const BODY = Buffer.from('{"id":"evt_1","type":"einvoice.generated","data":{"irn":"A\\u00e9"}}');

const check = (overrides: Partial<Parameters<typeof verify>[0]> = {}) =>
	verify({
		body: BODY,
		header: formatSignatureHeader(T, [sign(SECRET, T, BODY)]),
		secrets: [SECRET],
		nowSeconds: T,
		toleranceSeconds: 300,
		...overrides,
	});

describe('sign', () => {
	it('is HMAC-SHA256 hex over "<t>.<raw body>"', () => {
		const expected = createHmac('sha256', SECRET).update(`${T}.`).update(BODY).digest('hex');
		expect(sign(SECRET, T, BODY)).toBe(expected);
		expect(sign(SECRET, String(T), BODY.toString('utf8'))).toBe(expected);
	});

	it('signs bytes, not text: a non-UTF-8 body keeps its exact bytes', () => {
		const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
		expect(sign(SECRET, T, bytes)).not.toBe(sign(SECRET, T, Buffer.from(bytes.toString('utf8'))));
	});
});

describe('parseSignatureHeader', () => {
	const v = 'a'.repeat(64);
	const w = 'b'.repeat(64);

	it.each([
		[`t=${T},v1=${v}`, [v]],
		[`v1=${v},t=${T}`, [v]],
		[` t=${T} , v1=${v} ,v1=${w} `, [v, w]],
		[`t=${T},v0=zzz,v1=${v}`, [v]],
		[`t=${T},v1=${v.toUpperCase()}`, [v]],
	])('accepts %s', (header, signatures) => {
		expect(parseSignatureHeader(header)).toEqual({ timestamp: String(T), signatures });
	});

	it('keeps t as received, so a leading zero stays part of the signed string', () => {
		expect(parseSignatureHeader(`t=0${T},v1=${v}`)?.timestamp).toBe(`0${T}`);
	});

	it.each([
		['missing', undefined],
		['empty', ''],
		['no t', `v1=${v}`],
		['no v1', `t=${T}`],
		['two t', `t=${T},t=${T},v1=${v}`],
		['t not digits', `t=12a,v1=${v}`],
		['t negative', `t=-${T},v1=${v}`],
		['v1 short', `t=${T},v1=${v.slice(1)}`],
		['v1 not hex', `t=${T},v1=${'g'.repeat(64)}`],
		['no equals sign', `t=${T},v1`],
		['empty part', `t=${T},,v1=${v}`],
		['space inside value', `t=${T},v1=${v.slice(0, 10)} ${v.slice(10)}`],
		['too long', `t=${T},${Array.from({ length: 80 }, () => `v1=${v}`).join(',')}`],
		['too many v1', `t=${T},${Array.from({ length: 17 }, () => `v1=${v}`).join(',')}`],
	])('rejects %s', (_label, header) => {
		expect(parseSignatureHeader(header)).toBeUndefined();
	});

	it('reads a header array (hand-built requests) like the joined header', () => {
		expect(parseSignatureHeader([`t=${T}`, `v1=${v}`])).toEqual({
			timestamp: String(T),
			signatures: [v],
		});
	});
});

describe('verify', () => {
	it('accepts the exact body', () => {
		expect(check()).toEqual({ ok: true, timestamp: T, secretIndex: 0 });
	});

	it('rejects the same JSON re-serialised', () => {
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8'))));
		expect(reserialised.equals(BODY)).toBe(false);
		expect(check({ body: reserialised })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('rejects the same JSON pretty-printed or with a trailing newline', () => {
		const pretty = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8')), null, 2));
		expect(check({ body: pretty }).ok).toBe(false);
		expect(check({ body: Buffer.concat([BODY, Buffer.from('\n')]) }).ok).toBe(false);
	});

	it('rejects any single flipped byte', () => {
		for (let i = 0; i < BODY.length; i++) {
			const tampered = Buffer.from(BODY);
			tampered[i] ^= 0x01;
			expect(check({ body: tampered }).ok).toBe(false);
		}
	});

	it('accepts when any one of several v1 matches', () => {
		const header = formatSignatureHeader(T, [
			'0'.repeat(64),
			sign(SECRET, T, BODY),
			'f'.repeat(64),
		]);
		expect(check({ header }).ok).toBe(true);
	});

	it('accepts the previous secret during rotation and says which secret matched', () => {
		const header = formatSignatureHeader(T, [sign('old_secret_value_0123456', T, BODY)]);
		expect(check({ header, secrets: [SECRET, 'old_secret_value_0123456'] })).toEqual({
			ok: true,
			timestamp: T,
			secretIndex: 1,
		});
		expect(check({ header, secrets: [SECRET, ''] })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('never matches with an empty secret', () => {
		const header = formatSignatureHeader(T, [sign('', T, BODY)]);
		expect(check({ header, secrets: ['', undefined] })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('rejects a signature made for another timestamp', () => {
		const header = formatSignatureHeader(T + 1, [sign(SECRET, T, BODY)]);
		expect(check({ header })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('applies the tolerance both ways, inclusive at the edge', () => {
		expect(check({ nowSeconds: T + 300 }).ok).toBe(true);
		expect(check({ nowSeconds: T - 300 }).ok).toBe(true);
		expect(check({ nowSeconds: T + 301 })).toEqual({ ok: false, reason: 'stale' });
		expect(check({ nowSeconds: T - 301 })).toEqual({ ok: false, reason: 'stale' });
	});

	it('reports a malformed header before anything else', () => {
		expect(check({ header: 'garbage' })).toEqual({ ok: false, reason: 'malformed' });
	});
});
