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
