const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;

/** The user info of a URL (`redis://user:secret@host` → `redis://[redacted]@host`). */
const URL_USER_INFO = /:\/\/[^\s/@]*@/g;

/** Shorter secrets are not redacted: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** A base64 run shorter than this is too likely to occur by chance to be taken for the secret. */
const MIN_BASE64_CORE = 8;

/**
 * The value of any parameter named like a secret, in a form body (`client_secret=…`), a query or a
 * JSON echo (`"client_secret":"…"`), even when the server cut it short or re-encoded it.
 */
const SECRET_NAME = String.raw`(?:client[_-]?secret|password)`;
const OPTIONAL_QUOTE = String.raw`(?:%22|\\?["'])?`;
const ASSIGNMENT = String.raw`\s*(?:=|:|%3[dD]|%3[aA])\s*`;
const NAMED_SECRET = new RegExp(
	String.raw`(${SECRET_NAME}${OPTIONAL_QUOTE}${ASSIGNMENT}${OPTIONAL_QUOTE})([^&"'\s,;}<]+)`,
	'gi',
);

/**
 * Removes secrets, URL user info and anything shaped like a JWT from text that came from a server (error bodies)
 * before it reaches an error message, so no output item or log line carries a token or secret.
 *
 * A secret is found in every form it is sent or echoed in: raw; percent-encoded as a form body
 * (`+` for space), `encodeURIComponent` or qs would, in either hex case, or twice; JSON-escaped
 * (`\"`, `\/`, `\uXXXX`); as HTML entities; and inside base64 or base64url of a longer value such
 * as `client_id:client_secret` (HTTP Basic), at any byte alignment. Each character may be in any of
 * these forms independently, so mixtures match too.
 */
export function redact(text: string, secrets: string[] = []): string {
	let result = text.replace(JWT_LIKE, '[redacted token]').replace(URL_USER_INFO, '://[redacted]@');
	const usable = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
	if (usable.length === 0) return result;
	for (const secret of usable) {
		for (const pattern of [secret, ...base64Cores(secret)]) {
			result = result.replace(flexiblePattern(pattern), '[redacted]');
		}
	}
	return result.replace(NAMED_SECRET, (_match, name: string) => `${name}[redacted]`);
}

/** A short, redacted, single-line excerpt of a server's text for an error description. */
export function excerpt(text: string, secrets: string[] = [], max = 300): string {
	// Redacted before it is cut, so the cut never leaves the first characters of a secret behind.
	// Only a head is read. A head that ends inside a secret or a token leaves their first characters
	// unredacted at its end: at most 24 characters per character of a secret (its longest encoding),
	// a few KB for a token. A head counts only when its tidied text still runs that far past `max`;
	// whitespace runs and redactions shrink it, and then a head twice as long is read.
	const longest = Math.max(0, ...secrets.map((secret) => secret.length));
	const margin = 24 * longest + 8192;
	for (let reach = max + margin; ; reach *= 2) {
		const head = text.slice(0, reach);
		const line = redact(head, secrets).replace(/\s+/g, ' ').trim();
		if (head.length === text.length || line.length >= max + margin) {
			return line.length > max ? `${line.slice(0, max)}…` : line;
		}
	}
}

/** Compiled patterns of the last secrets seen (at most 65): a module cache, its content derived only. */
const patternCache = new Map<string, RegExp>();

/** A global regex matching `value` with each character in any of the forms listed on `redact`. */
function flexiblePattern(value: string): RegExp {
	let pattern = patternCache.get(value);
	if (!pattern) {
		pattern = new RegExp([...value].map(characterForms).join(''), 'g');
		if (patternCache.size > 64) patternCache.clear();
		patternCache.set(value, pattern);
	}
	pattern.lastIndex = 0;
	return pattern;
}

const escapeRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** `2b` → `2[bB]`: one hex digit pair in either case. */
const anyCaseHex = (hex: string): string =>
	[...hex]
		.map((digit) =>
			/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit,
		)
		.join('');

const JSON_SHORT_ESCAPES: Record<string, string> = {
	'"': '\\\\"',
	'\\': '\\\\\\\\',
	'/': '\\\\/',
	'\b': '\\\\b',
	'\f': '\\\\f',
	'\n': '\\\\n',
	'\r': '\\\\r',
	'\t': '\\\\t',
};

const HTML_NAMED: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&(?:#0*39|apos);',
};

/** Every form one character (a code point) of a secret may take in transit or in an echo. */
function characterForms(character: string): string {
	const forms = new Set<string>([escapeRegex(character)]);
	const bytes = [...Buffer.from(character)].map((byte) => byte.toString(16).padStart(2, '0'));
	forms.add(bytes.map((hex) => `%${anyCaseHex(hex)}`).join(''));
	forms.add(bytes.map((hex) => `%25${anyCaseHex(hex)}`).join(''));
	// A space is `+` in a form body, and `%2B` when that body is form-encoded again.
	if (character === ' ') {
		forms.add('\\+');
		forms.add('%2[bB]');
	}
	// A form decoder reads an unencoded `+` as a space.
	if (character === '+') forms.add(' ');
	const units = [...Array(character.length).keys()].map((index) =>
		character.charCodeAt(index).toString(16).padStart(4, '0'),
	);
	forms.add(units.map((hex) => `\\\\u${anyCaseHex(hex)}`).join(''));
	if (JSON_SHORT_ESCAPES[character]) forms.add(JSON_SHORT_ESCAPES[character]);
	const codePoint = character.codePointAt(0) ?? 0;
	forms.add(`&#0*${codePoint};`);
	forms.add(`&#[xX]0*${anyCaseHex(codePoint.toString(16))};`);
	if (HTML_NAMED[character]) forms.add(HTML_NAMED[character]);
	return `(?:${[...forms].join('|')})`;
}

/**
 * The part of base64(…secret…) that depends on the secret alone, for each of the three byte
 * alignments the secret can start at, in base64 and base64url, of the secret itself and of its
 * form encoding (HTTP Basic form-encodes client id and secret first, RFC 6749 section 2.3.1).
 * Groups of four characters that mix in bytes before or after the secret are left out.
 */
function base64Cores(secret: string): string[] {
	const formEncoded = new URLSearchParams({ secret }).toString().slice('secret='.length);
	const cores = new Set<string>();
	for (const value of [secret, formEncoded]) {
		const bytes = Buffer.from(value);
		for (const offset of [0, 1, 2]) {
			const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
			const completeGroups = Math.floor(padded.length / 3);
			const start = offset === 0 ? 0 : 4;
			const core = padded.toString('base64').slice(start, completeGroups * 4);
			if (core.length >= MIN_BASE64_CORE) {
				cores.add(core);
				cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
			}
		}
	}
	return [...cores];
}
