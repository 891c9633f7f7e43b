/**
 * Property: verify(sign(secret, t, body)) holds for arbitrary secrets, bodies and `t` within the
 * tolerance; changing any one byte of the body, any one digit of `t` or any one hex digit of the
 * signature fails; any `t` beyond the tolerance fails.
 */
import fc from 'fast-check';

import { formatSignatureHeader, sign, verify } from '../../../nodes/GstComplianceTrigger/signature';
import { fcParameters, timeoutFor } from './fcConfig';

const TOLERANCE = 300;
const NOW = 1_767_000_000;

const secret = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });
const body = fc.uint8Array({ maxLength: 2048 });
const withinTolerance = fc.integer({ min: NOW - TOLERANCE, max: NOW + TOLERANCE });

const check = (s: string, b: Uint8Array | Buffer, header: string) =>
	verify({
		body: Buffer.from(b),
		header,
		secrets: [s],
		nowSeconds: NOW,
		toleranceSeconds: TOLERANCE,
	});

describe('property: sign / verify', () => {
	it(
		'verify(sign(secret, t, body)) holds within the tolerance',
		() => {
			fc.assert(
				fc.property(secret, body, withinTolerance, (s, b, t) => {
					const result = check(s, b, formatSignatureHeader(t, [sign(s, t, Buffer.from(b))]));
					return result.ok && result.timestamp === t && result.secretIndex === 0;
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'changing one byte of the body fails',
		() => {
			fc.assert(
				fc.property(
					secret,
					body.filter((b) => b.length > 0),
					withinTolerance,
					fc.nat(),
					fc.integer({ min: 1, max: 255 }),
					(s, b, t, at, flip) => {
						const header = formatSignatureHeader(t, [sign(s, t, Buffer.from(b))]);
						const changed = Buffer.from(b);
						changed[at % changed.length] ^= flip;
						const result = check(s, changed, header);
						return !result.ok && result.reason === 'mismatch';
					},
				),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'changing one digit of t fails',
		() => {
			fc.assert(
				fc.property(
					secret,
					body,
					withinTolerance,
					fc.nat(),
					fc.integer({ min: 1, max: 9 }),
					(s, b, t, at, add) => {
						const signature = sign(s, t, Buffer.from(b));
						const digits = String(t).split('');
						const index = at % digits.length;
						digits[index] = String((Number(digits[index]) + add) % 10);
						const result = check(s, b, formatSignatureHeader(digits.join(''), [signature]));
						return !result.ok;
					},
				),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'changing one hex digit of the signature fails',
		() => {
			fc.assert(
				fc.property(
					secret,
					body,
					withinTolerance,
					fc.nat(),
					fc.integer({ min: 1, max: 15 }),
					(s, b, t, at, add) => {
						const hex = sign(s, t, Buffer.from(b)).split('');
						const index = at % hex.length;
						hex[index] = ((parseInt(hex[index], 16) + add) % 16).toString(16);
						const result = check(s, b, formatSignatureHeader(t, [hex.join('')]));
						return !result.ok && result.reason === 'mismatch';
					},
				),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);

	it(
		'any t beyond the tolerance fails, even correctly signed',
		() => {
			const beyond = fc.oneof(
				fc.integer({ min: 0, max: NOW - TOLERANCE - 1 }),
				fc.integer({ min: NOW + TOLERANCE + 1, max: 999_999_999_999 }),
			);
			fc.assert(
				fc.property(secret, body, beyond, (s, b, t) => {
					const result = check(s, b, formatSignatureHeader(t, [sign(s, t, Buffer.from(b))]));
					return !result.ok && result.reason === 'stale';
				}),
				fcParameters(200),
			);
		},
		timeoutFor(200, 20),
	);
});
