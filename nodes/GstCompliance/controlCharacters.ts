/**
 * Whether `text` holds an ASCII control character (U+0000–U+001F or U+007F). A function rather
 * than a regular expression character class, which ESLint's no-control-regex rightly flags as a
 * likely mistake; here matching them is the point: parsers disagree on how to read them.
 */
export function hasControlCharacter(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code <= 0x1f || code === 0x7f) return true;
	}
	return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a UTF-16 surrogate without its pair: valid JSON, but no UTF-8 form. */
export function hasLoneSurrogate(text: string): boolean {
	return LONE_SURROGATE.test(text);
}

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

/**
 * A character of `text` that is not what it looks like, as `U+XXXX` for messages: a lone
 * surrogate, else the first that renders as nothing (Unicode's Default_Ignorable_Code_Point:
 * zero-width space, soft hyphen, word joiner, variation selectors…); undefined when there is none.
 */
export function firstHiddenCharacter(text: string): string | undefined {
	const match = LONE_SURROGATE.exec(text) ?? INVISIBLE.exec(text);
	if (!match) return undefined;
	return codePointName(match[0].codePointAt(0) as number);
}

/** A code point as messages name it: `U+200B`, `U+E0020`. */
export function codePointName(codePoint: number): string {
	return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}
