/**
 * Property: parseSignatureHeader never throws, and accepts exactly the grammar of
 * docs/service-api.md "Signature verification": comma-separated `key=value` parts (spaces around a
 * part allowed), `t` once as 1..12 digits, `v1` one to 16 times as 64 hex digits, other keys
 * ignored; at most 4096 characters. Checked against an independent reading of the grammar, on
 * arbitrary strings up to the size limit and on strings built from near-grammar parts.
 */
import fc from 'fast-check';

import { parseSignatureHeader } from '../../../nodes/GstComplianceTrigger/signature';
import { fcParameters, timeoutFor } from './fcConfig';

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
		.map(([k, v]) => `${k}=${v}`),
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

describe('property: signature header parsing', () => {
	it(
		'never throws and accepts exactly the grammar',
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
		'reads a repeated header (an array) as its parts joined with commas',
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
