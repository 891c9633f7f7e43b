/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Characters that are not what they look like: control characters, lone surrogates, invisibles. */
import {
	codePointName,
	firstHiddenCharacter,
	hasControlCharacter,
	hasLoneSurrogate,
} from '@/nodes/GstCompliance/controlCharacters';

describe('hasControlCharacter: ASCII control characters only', () => {
	it.each([
		['\u0000 at the start', '\u0000abc', true],
		['a tab', 'a\tb', true],
		['U+001F', 'a\u001f', true],
		['DEL (U+007F)', 'a\u007f', true],
		['a space (U+0020)', 'a b', false],
		['U+0080 (not ASCII)', 'a\u0080', false],
		['plain text', 'einv_123', false],
		['empty', '', false],
	])('%s → %s', (_name, text, expected) => {
		expect(hasControlCharacter(text)).toBe(expected);
	});
});

describe('hasLoneSurrogate: a UTF-16 surrogate without its pair', () => {
	it.each([
		['a high surrogate alone', 'evt_\ud800', true],
		['a low surrogate alone', 'evt_\udc00', true],
		['a low before a high', '\udc00\ud800', true],
		['a pair (an emoji)', 'evt_\ud83d\ude00', false],
		['U+FFFD', 'evt_\ufffd', false],
		['plain text', 'evt_1', false],
	])('%s → %s', (_name, text, expected) => {
		expect(hasLoneSurrogate(text)).toBe(expected);
	});
});

describe('firstHiddenCharacter: what a message names', () => {
	it.each([
		['a zero-width space', 'ab\u200bc', 'U+200B'],
		['a soft hyphen', 'a\u00adb', 'U+00AD'],
		['a tag character (outside the BMP)', 'a\u{e0020}', 'U+E0020'],
		['a lone surrogate before an invisible', '\u200b\udc00', 'U+DC00'],
		['none', 'einv_123', undefined],
	])('%s → %s', (_name, text, expected) => {
		expect(firstHiddenCharacter(text)).toBe(expected);
	});

	it('codePointName pads to four hex digits, upper case', () => {
		expect(codePointName(0xad)).toBe('U+00AD');
		expect(codePointName(0x1f600)).toBe('U+1F600');
	});
});
