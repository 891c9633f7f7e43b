/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The webhook signature: HMAC-SHA256 over "<t>.<raw body>", the `Service-Signature` header and its
 * grammar, and verification (every byte of the HMAC, each secret, the tolerance). Checks a partial
 * comparison or a loosened parser would pass, and fast-check properties over arbitrary headers,
 * secrets, bodies and timestamps (run settings in test/properties/fcConfig.ts: FC_NUM_RUNS,
 * FC_SEED).
 */
import { createHmac } from 'crypto';
import fc from 'fast-check';

import {
	formatSignatureHeader,
	parseSignatureHeader,
	sign,
	verify,
} from '@/nodes/GstCompliance/trigger/signature';
import { fcParameters, timeoutFor } from '@/test/properties/fcConfig';

const SECRET = 'whsec_test_secret_value_123456';
const T = 1736915400;
const BODY = Buffer.from('{"id":"evt_1","type":"einvoice.generated","data":{"irn":"A\\u00e9"}}');
const GOOD = sign(SECRET, T, BODY);

const check = (overrides: Partial<Parameters<typeof verify>[0]> = {}) =>
	verify({
		body: BODY,
		header: formatSignatureHeader(T, [GOOD]),
		secrets: [SECRET],
		nowSeconds: T,
		toleranceSeconds: 300,
		...overrides,
	});
const withSignature = (signature: string) => formatSignatureHeader(T, [signature]);

/** The signature with byte `index` (0..31) of the 32-byte HMAC changed. */
const withByteChanged = (index: number) => {
	const bytes = Buffer.from(GOOD, 'hex');
	bytes[index] ^= 0x80;
	return bytes.toString('hex');
};

describe('signs HMAC-SHA256 hex over "<t>.<raw body>" bytes', () => {
	it('sign of a Buffer and a numeric t, or of the UTF-8 text and t as digits → the same HMAC', () => {
		const expected = createHmac('sha256', SECRET).update(`${T}.`).update(BODY).digest('hex');
		expect(sign(SECRET, T, BODY)).toBe(expected);
		expect(sign(SECRET, String(T), BODY.toString('utf8'))).toBe(expected);
	});

	it('sign of a non-UTF-8 body → over its exact bytes, not their text', () => {
		const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
		expect(sign(SECRET, T, bytes)).not.toBe(sign(SECRET, T, Buffer.from(bytes.toString('utf8'))));
	});

	it('formatSignatureHeader → t, then each signature as v1', () => {
		expect(formatSignatureHeader(T, ['a', 'b'])).toBe(`t=${T},v1=a,v1=b`);
	});
});

describe('parses t once and v1 one to 16 times, other keys ignored, at most 4096 characters', () => {
	const v = 'a'.repeat(64);
	const w = 'b'.repeat(64);

	it.each([
		['t and v1', `t=${T},v1=${v}`, String(T), [v]],
		['v1 first', `v1=${v},t=${T}`, String(T), [v]],
		['spaces around parts, two v1', ` t=${T} , v1=${v} ,v1=${w} `, String(T), [v, w]],
		['an unknown scheme', `t=${T},v0=zzz,v1=${v}`, String(T), [v]],
		['upper-case hex (read lower-case)', `t=${T},v1=${v.toUpperCase()}`, String(T), [v]],
		['a 12-digit t', `t=123456789012,v1=${v}`, '123456789012', [v]],
		[
			'16 signatures',
			[`t=${T}`, ...Array(16).fill(`v1=${v}`)].join(','),
			String(T),
			Array(16).fill(v),
		],
	])('parseSignatureHeader of %s → read', (_name, header, timestamp, signatures) => {
		expect(parseSignatureHeader(header)).toEqual({ timestamp, signatures });
	});

	it('parseSignatureHeader of a t with a leading zero → t kept as received, the bytes signed', () => {
		expect(parseSignatureHeader(`t=0${T},v1=${v}`)?.timestamp).toBe(`0${T}`);
	});

	it('parseSignatureHeader of a header array (a repeated header) → read like the joined header', () => {
		expect(parseSignatureHeader([`t=${T}`, `v1=${v}`])).toEqual({
			timestamp: String(T),
			signatures: [v],
		});
	});

	it('parseSignatureHeader of exactly 4096 characters → read', () => {
		const head = `t=${T},v1=${v},x=`;
		expect(parseSignatureHeader(head + 'y'.repeat(4096 - head.length))).toBeDefined();
	});

	it.each([
		['no header', undefined],
		['an empty header', ''],
		['no t', `v1=${v}`],
		['no v1', `t=${T}`],
		['two t', `t=${T},t=${T},v1=${v}`],
		['a 13-digit t', `t=1234567890123,v1=${v}`],
		['a non-numeric t', `t=12a,v1=${v}`],
		['a negative t', `t=-${T},v1=${v}`],
		['a 63-char v1', `t=${T},v1=${v.slice(1)}`],
		['a 65-char v1', `t=${T},v1=${v}a`],
		['a non-hex v1', `t=${T},v1=${'g'.repeat(64)}`],
		['a v1 whose first character is not hex', `t=${T},v1=g${v.slice(1)}`],
		['a v1 whose last character is not hex', `t=${T},v1=${v.slice(1)}g`],
		['17 signatures', [`t=${T}`, ...Array(17).fill(`v1=${v}`)].join(',')],
		['a part without =', `t=${T},v1=${v},junk`],
		['an empty part', `t=${T},,v1=${v}`],
		['an empty value', `t=${T},v1=`],
		['a part with a character before its key', `t=${T},#v1=${v}`],
		['a part with a space inside before its key', `t=${T},x v1=${v}`],
		['a key with a space inside', `t=${T},v 1=${v}`],
		['a value with a space inside', `t=${T},v1=${v.slice(0, 32)} ${v.slice(32)}`],
		['over 4096 characters', `t=${T},v1=${v},x=${'y'.repeat(4096)}`],
	])('parseSignatureHeader of %s → undefined', (_name, header) => {
		expect(parseSignatureHeader(header)).toBeUndefined();
	});

	describe('fast-check, against an independent reading of the grammar', () => {
		const MAX = 4096;
		const isSpace = (c: string) => /\s/.test(c);
		const isKeyChar = (c: string) => /[A-Za-z0-9_-]/.test(c);
		const isHex = (c: string) => /[0-9a-fA-F]/.test(c);
		const isDigit = (c: string) => c >= '0' && c <= '9';

		/** The grammar, read character by character (no shared code or regex with the parser). */
		function referenceParse(header: string): { t: string; v1: string[] } | undefined {
			if (header.length === 0 || header.length > MAX) return undefined;
			let t: string | undefined;
			const v1: string[] = [];
			for (const rawPart of header.split(',')) {
				let start = 0;
				let end = rawPart.length;
				while (start < end && isSpace(rawPart[start])) start++;
				while (end > start && isSpace(rawPart[end - 1])) end--;
				const part = rawPart.slice(start, end);
				const eq = part.indexOf('=');
				if (eq <= 0) return undefined;
				const key = part.slice(0, eq);
				const value = part.slice(eq + 1);
				if (![...key].every(isKeyChar)) return undefined;
				if (value.length === 0 || [...value].some(isSpace)) return undefined;
				if (key === 't') {
					if (t !== undefined || value.length > 12 || ![...value].every(isDigit)) return undefined;
					t = value;
				} else if (key === 'v1') {
					if (value.length !== 64 || ![...value].every(isHex)) return undefined;
					v1.push(value.toLowerCase());
				}
			}
			if (t === undefined || v1.length === 0 || v1.length > 16) return undefined;
			return { t, v1 };
		}

		const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/);
		const part = fc.oneof(
			fc.stringMatching(/^\d{1,13}$/).map((t) => `t=${t}`),
			hex64.map((h) => `v1=${h}`),
			fc.stringMatching(/^[0-9a-fA-F]{60,68}$/).map((h) => `v1=${h}`),
			fc
				.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,4}$/), fc.stringMatching(/^\S{1,8}$/))
				.map(([k, value]) => `${k}=${value}`),
			fc.string({ maxLength: 12 }),
			fc.constantFrom('', '=', 't=', 'v1=', ' t = 1', 't=1 2', 'v0=abc', 'T=1', '\u00a0t=1'),
		);
		const spaced = fc
			.tuple(fc.constantFrom('', ' ', '  ', '\t', '\u00a0'), part, fc.constantFrom('', ' ', '\t'))
			.map(([a, p, b]) => `${a}${p}${b}`);
		const nearGrammar = fc
			.array(spaced, { minLength: 1, maxLength: 20 })
			.map((parts) => parts.join(','));
		const anyHeader = fc.oneof(
			nearGrammar,
			fc.string({ maxLength: MAX + 10, unit: 'binary' }),
			fc.string({ maxLength: 200, unit: 'grapheme' }),
		);

		it(
			'parseSignatureHeader of any string, near the grammar or not → never throws, reads exactly the grammar',
			() => {
				fc.assert(
					fc.property(anyHeader, (header) => {
						const parsed = parseSignatureHeader(header);
						const expected = referenceParse(header);
						if (expected === undefined) return parsed === undefined;
						return (
							parsed !== undefined &&
							parsed.timestamp === expected.t &&
							JSON.stringify(parsed.signatures) === JSON.stringify(expected.v1)
						);
					}),
					fcParameters(300),
				);
			},
			timeoutFor(300, 20),
		);

		it(
			'parseSignatureHeader of a header array → read as its parts joined with commas',
			() => {
				fc.assert(
					fc.property(fc.array(nearGrammar, { maxLength: 4 }), (headers) => {
						const parsed = parseSignatureHeader(headers);
						const expected = referenceParse(headers.join(','));
						return expected === undefined ? parsed === undefined : parsed?.timestamp === expected.t;
					}),
					fcParameters(100),
				);
			},
			timeoutFor(100, 20),
		);
	});
});

describe('verifies the exact bytes received, nothing re-serialised', () => {
	it('verify of the exact body → ok, with t as the number signed and the secret index', () => {
		expect(check()).toEqual({ ok: true, timestamp: T, secretIndex: 0 });
	});

	it('verify of the same JSON re-serialised → mismatch', () => {
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8'))));
		expect(reserialised.equals(BODY)).toBe(false);
		expect(check({ body: reserialised })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('verify of the same JSON pretty-printed or with a trailing newline → not ok', () => {
		const pretty = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8')), null, 2));
		expect(check({ body: pretty }).ok).toBe(false);
		expect(check({ body: Buffer.concat([BODY, Buffer.from('\n')]) }).ok).toBe(false);
	});

	it('verify of a signature made for another timestamp → mismatch', () => {
		const header = formatSignatureHeader(T + 1, [GOOD]);
		expect(check({ header })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('verify of a malformed header → malformed, before anything else', () => {
		expect(check({ header: 'garbage' })).toEqual({ ok: false, reason: 'malformed' });
	});
});

describe('compares all 32 bytes of the HMAC, in either hex case', () => {
	it.each(Array.from({ length: 32 }, (_, index) => index))(
		'verify of the signature with byte %i changed → mismatch',
		(index) => {
			expect(check({ header: withSignature(withByteChanged(index)) })).toEqual({
				ok: false,
				reason: 'mismatch',
			});
		},
	);

	it('verify of the signature in upper-case hex → ok', () => {
		expect(check({ header: withSignature(GOOD.toUpperCase()) }).ok).toBe(true);
	});
});

describe('accepts any v1 made with any configured secret, saying which secret matched', () => {
	it('verify of several v1 of which one matches → ok', () => {
		const header = formatSignatureHeader(T, ['0'.repeat(64), GOOD, 'f'.repeat(64)]);
		expect(check({ header }).ok).toBe(true);
	});

	it('verify of a signature by the previous secret during rotation → ok, secretIndex 1; without it → mismatch', () => {
		const header = withSignature(sign('old_secret_value_0123456', T, BODY));
		expect(check({ header, secrets: [SECRET, 'old_secret_value_0123456'] })).toEqual({
			ok: true,
			timestamp: T,
			secretIndex: 1,
		});
		expect(check({ header, secrets: [SECRET, ''] })).toEqual({ ok: false, reason: 'mismatch' });
	});

	it('verify with the signing secret second, twice, or after empty entries → the index of the first that matched', () => {
		expect(check({ secrets: ['whsec_other_secret', SECRET] })).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
		expect(check({ secrets: [SECRET, SECRET] })).toMatchObject({ secretIndex: 0 });
		expect(check({ secrets: [undefined, '', SECRET] })).toMatchObject({ secretIndex: 2 });
	});

	it('verify of a signature made with an empty secret → mismatch: an empty secret never matches', () => {
		const header = withSignature(sign('', T, BODY));
		expect(check({ header, secrets: ['', undefined] })).toEqual({ ok: false, reason: 'mismatch' });
	});
});

describe('refuses a timestamp more than the tolerance from now, both ways, after the signature', () => {
	it('verify at now = t ± 300 → ok, t ± 301 → stale', () => {
		expect(check({ nowSeconds: T + 300 }).ok).toBe(true);
		expect(check({ nowSeconds: T - 300 }).ok).toBe(true);
		expect(check({ nowSeconds: T + 301 })).toEqual({ ok: false, reason: 'stale' });
		expect(check({ nowSeconds: T - 301 })).toEqual({ ok: false, reason: 'stale' });
	});

	it('verify within the tolerance → timestamp is t as signed, not now', () => {
		expect(check({ nowSeconds: T + 5 })).toEqual({ ok: true, timestamp: T, secretIndex: 0 });
	});

	it('verify of a wrong signature with an old timestamp → mismatch, not stale', () => {
		expect(check({ header: withSignature(withByteChanged(0)), nowSeconds: T + 10_000 })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
	});
});

describe('holds for arbitrary secrets, bodies and timestamps (fast-check)', () => {
	const TOLERANCE = 300;
	const NOW = 1_767_000_000;

	const secret = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });
	const body = fc.uint8Array({ maxLength: 2048 });
	const withinTolerance = fc.integer({ min: NOW - TOLERANCE, max: NOW + TOLERANCE });
	/** What a sender signs: a secret, the body bytes and a `t` within the tolerance. */
	const signed = fc.record({
		s: secret,
		b: body.map((bytes) => Buffer.from(bytes)),
		t: withinTolerance,
	});

	const verifyAt = (s: string, b: Uint8Array | Buffer, header: string) =>
		verify({
			body: Buffer.from(b),
			header,
			secrets: [s],
			nowSeconds: NOW,
			toleranceSeconds: TOLERANCE,
		});

	it(
		'verify(sign(secret, t, body)) with t within the tolerance → ok, t and secret 0',
		() => {
			fc.assert(
				fc.property(signed, ({ s, b, t }) => {
					const result = verifyAt(s, b, formatSignatureHeader(t, [sign(s, t, b)]));
					return result.ok && result.timestamp === t && result.secretIndex === 0;
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'verify with one byte of the body changed → mismatch',
		() => {
			fc.assert(
				fc.property(
					signed.filter(({ b }) => b.length > 0),
					fc.nat(),
					fc.integer({ min: 1, max: 255 }),
					({ s, b, t }, at, flip) => {
						const header = formatSignatureHeader(t, [sign(s, t, b)]);
						const changed = Buffer.from(b);
						changed[at % changed.length] ^= flip;
						const result = verifyAt(s, changed, header);
						return !result.ok && result.reason === 'mismatch';
					},
				),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	/** `text` with its digit at `at` (modulo its length) raised by `add` in `radix`, wrapping round. */
	const withDigitChanged = (text: string, radix: number, at: number, add: number) => {
		const digits = text.split('');
		const index = at % digits.length;
		digits[index] = ((parseInt(digits[index], radix) + add) % radix).toString(radix);
		return digits.join('');
	};

	it(
		'verify with one digit of t changed → not ok',
		() => {
			fc.assert(
				fc.property(signed, fc.nat(), fc.integer({ min: 1, max: 9 }), ({ s, b, t }, at, add) => {
					const changed = withDigitChanged(String(t), 10, at, add);
					return !verifyAt(s, b, formatSignatureHeader(changed, [sign(s, t, b)])).ok;
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'verify with one hex digit of the signature changed → mismatch',
		() => {
			fc.assert(
				fc.property(signed, fc.nat(), fc.integer({ min: 1, max: 15 }), ({ s, b, t }, at, add) => {
					const changed = withDigitChanged(sign(s, t, b), 16, at, add);
					const result = verifyAt(s, b, formatSignatureHeader(t, [changed]));
					return !result.ok && result.reason === 'mismatch';
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'verify of a correct signature with t beyond the tolerance → stale',
		() => {
			const beyond = fc.oneof(
				fc.integer({ min: 0, max: NOW - TOLERANCE - 1 }),
				fc.integer({ min: NOW + TOLERANCE + 1, max: 999_999_999_999 }),
			);
			fc.assert(
				fc.property(secret, body, beyond, (s, b, t) => {
					const result = verifyAt(s, b, formatSignatureHeader(t, [sign(s, t, Buffer.from(b))]));
					return !result.ok && result.reason === 'stale';
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);
});
