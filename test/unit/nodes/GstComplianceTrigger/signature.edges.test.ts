/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/** Signature checks that a partial comparison or a loosened header parser would pass. */
import {
	formatSignatureHeader,
	parseSignatureHeader,
	sign,
	verify,
} from '../../../../nodes/GstComplianceTrigger/signature';

const SECRET = 'whsec_test_secret_value_123456';
const T = 1736915400;
const BODY = Buffer.from('{"id":"evt_1","type":"einvoice.generated","data":{}}');
const GOOD = sign(SECRET, T, BODY);

const check = (signature: string, overrides: Partial<Parameters<typeof verify>[0]> = {}) =>
	verify({
		body: BODY,
		header: formatSignatureHeader(T, [signature]),
		secrets: [SECRET],
		nowSeconds: T,
		toleranceSeconds: 300,
		...overrides,
	});

/** The signature with byte `index` (0..31) of the 32-byte HMAC changed. */
const withByteChanged = (index: number) => {
	const bytes = Buffer.from(GOOD, 'hex');
	bytes[index] ^= 0x80;
	return bytes.toString('hex');
};

describe('verify compares all 32 bytes of the HMAC', () => {
	it('accepts the exact signature', () => {
		expect(check(GOOD)).toEqual({ ok: true, timestamp: T, secretIndex: 0 });
	});

	it.each(Array.from({ length: 32 }, (_, index) => index))(
		'rejects the signature with byte %i changed',
		(index) => {
			expect(check(withByteChanged(index))).toEqual({ ok: false, reason: 'mismatch' });
		},
	);

	it('accepts the signature in upper-case hex', () => {
		expect(check(GOOD.toUpperCase()).ok).toBe(true);
	});
});

describe('verify', () => {
	it('reports the index of the secret that matched, the first one when both do', () => {
		expect(check(GOOD, { secrets: ['whsec_other_secret', SECRET] })).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
		expect(check(GOOD, { secrets: [SECRET, SECRET] })).toMatchObject({ secretIndex: 0 });
		expect(check(GOOD, { secrets: [undefined, '', SECRET] })).toMatchObject({ secretIndex: 2 });
	});

	it('says mismatch, not stale, for a wrong signature with an old timestamp', () => {
		expect(check(withByteChanged(0), { nowSeconds: T + 10_000 })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
		expect(check(GOOD, { nowSeconds: T + 301 })).toEqual({ ok: false, reason: 'stale' });
		expect(check(GOOD, { nowSeconds: T - 301 })).toEqual({ ok: false, reason: 'stale' });
		expect(check(GOOD, { nowSeconds: T + 300 }).ok).toBe(true);
	});

	it('reads the timestamp as the number signed', () => {
		expect(check(GOOD, { nowSeconds: T + 5 })).toEqual({ ok: true, timestamp: T, secretIndex: 0 });
	});
});

describe('parseSignatureHeader', () => {
	const v1 = 'a'.repeat(64);
	it.each([
		['t and v1', `t=${T},v1=${v1}`, { timestamp: String(T), signatures: [v1] }],
		['v1 first, spaces', ` v1=${v1} , t=${T} `, { timestamp: String(T), signatures: [v1] }],
		['an unknown scheme', `t=${T},v0=xyz,v1=${v1}`, { timestamp: String(T), signatures: [v1] }],
		['upper-case hex', `t=${T},v1=${v1.toUpperCase()}`, { timestamp: String(T), signatures: [v1] }],
		['12-digit t', `t=123456789012,v1=${v1}`, { timestamp: '123456789012', signatures: [v1] }],
		[
			'16 signatures',
			[`t=${T}`, ...Array(16).fill(`v1=${v1}`)].join(','),
			{ timestamp: String(T), signatures: Array(16).fill(v1) },
		],
	])('reads %s', (_name, header, parsed) => {
		expect(parseSignatureHeader(header)).toEqual(parsed);
	});

	it.each([
		['no header', undefined],
		['an empty header', ''],
		['no t', `v1=${v1}`],
		['no v1', `t=${T}`],
		['two t', `t=${T},t=${T},v1=${v1}`],
		['a 13-digit t', `t=1234567890123,v1=${v1}`],
		['a non-numeric t', `t=12a,v1=${v1}`],
		['a negative t', `t=-1,v1=${v1}`],
		['a 63-char v1', `t=${T},v1=${v1.slice(1)}`],
		['a 65-char v1', `t=${T},v1=${v1}a`],
		['a non-hex v1', `t=${T},v1=${'g'.repeat(64)}`],
		['a v1 whose first character is not hex', `t=${T},v1=g${v1.slice(1)}`],
		['a v1 whose last character is not hex', `t=${T},v1=${v1.slice(1)}g`],
		['a part with a character before its key', `t=${T},#v1=${v1}`],
		['a part with a space inside before its key', `t=${T},x v1=${v1}`],
		['17 signatures', [`t=${T}`, ...Array(17).fill(`v1=${v1}`)].join(',')],
		['a part without =', `t=${T},v1=${v1},junk`],
		['an empty value', `t=${T},v1=`],
		['a key with a space inside', `t=${T},v 1=${v1}`],
		['a value with a space inside', `t=${T},v1=${v1.slice(0, 32)} ${v1.slice(32)}`],
		['over 4096 characters', `t=${T},v1=${v1},x=${'y'.repeat(4096)}`],
	])('refuses %s', (_name, header) => {
		expect(parseSignatureHeader(header)).toBeUndefined();
	});

	it('accepts a header of exactly 4096 characters', () => {
		const head = `t=${T},v1=${v1},x=`;
		expect(parseSignatureHeader(head + 'y'.repeat(4096 - head.length))).toBeDefined();
	});

	it('joins a header array as Node joins a repeated header', () => {
		expect(parseSignatureHeader([`t=${T}`, `v1=${v1}`])).toEqual({
			timestamp: String(T),
			signatures: [v1],
		});
	});
});

describe('sign', () => {
	it('signs a string body like its UTF-8 bytes, and a numeric t like its digits', () => {
		expect(sign(SECRET, String(T), BODY.toString('utf8'))).toBe(GOOD);
		expect(sign(SECRET, T, BODY)).toBe(GOOD);
		expect(formatSignatureHeader(T, ['a', 'b'])).toBe(`t=${T},v1=a,v1=b`);
	});
});
