/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The built-in store's persisted records: a digest and a minute offset, fixed width. */
import {
	decodeOffset,
	DIGEST_CHARS,
	encodeOffset,
	flat,
	isSnapshot,
	MAX_OFFSET,
	RECORD_CHARS,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat';

describe('encodeOffset and decodeOffset: a minute offset in three base64url characters', () => {
	it.each<[number, string]>([
		[0, 'AAA'],
		[1, 'AAB'],
		[63, 'AA_'],
		[64, 'ABA'],
		[4095, 'A__'],
		[4096, 'BAA'],
		[MAX_OFFSET, '___'],
	])('encodeOffset(%i) → %s, and back', (offset, text) => {
		expect(encodeOffset(offset)).toBe(text);
		expect(decodeOffset(text)).toBe(offset);
	});

	it('MAX_OFFSET is the largest three characters hold: 182 days of minutes', () => {
		expect(MAX_OFFSET).toBe(64 ** 3 - 1);
		expect(MAX_OFFSET / (24 * 60)).toBeGreaterThan(182);
	});

	it.each(['AA=', 'A A', 'AA+', 'AA/', 'é__'])(
		'decodeOffset(%p), a character outside base64url → undefined',
		(text) => {
			expect(decodeOffset(text)).toBeUndefined();
		},
	);

	it('a record is a digest and an offset: 11 + 3 characters', () => {
		expect(DIGEST_CHARS).toBe(11);
		expect(RECORD_CHARS).toBe(14);
	});
});

describe('isSnapshot: only the persisted form of version 1', () => {
	it('{ v: 1, base, d } → a snapshot', () => {
		expect(isSnapshot({ v: 1, base: 29_000_000, d: '' })).toBe(true);
		expect(isSnapshot({ v: 1, base: 0, d: 'AAAAAAAAAAAAAA' })).toBe(true);
	});

	it.each<[string, unknown]>([
		['null', null],
		['a string', 'v1'],
		['another version', { v: 2, base: 0, d: '' }],
		['a base that is not a whole number', { v: 1, base: 1.5, d: '' }],
		['a base beyond the safe integers', { v: 1, base: 2 ** 53, d: '' }],
		['a base as text', { v: 1, base: '0', d: '' }],
		['records that are not text', { v: 1, base: 0, d: ['AAAAAAAAAAAAAA'] }],
		['no records', { v: 1, base: 0 }],
	])('%s → not a snapshot', (_label, value) => {
		expect(isSnapshot(value)).toBe(false);
	});
});

describe('flat: the same text, one contiguous copy', () => {
	it('flat(text) equals text', () => {
		const pieces = Array.from({ length: 100 }, (_, i) => `record${i}`).reduce((a, b) => a + b, '');
		expect(flat(pieces)).toBe(pieces);
		expect(flat('')).toBe('');
	});
});
