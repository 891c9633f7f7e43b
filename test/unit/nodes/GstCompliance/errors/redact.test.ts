/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * What may reach an error message or a log line from a server's text: anything shaped like a JWT
 * goes, and a secret goes in every form it is sent or echoed in, each form checked on its own and
 * away from any `client_secret=` name (the named-parameter rule would hide a missing form):
 * percent-encodings, JSON escapes, HTML entities, base64 at each byte alignment. Also the length
 * limits at their edges, what stays untouched, parameters named like a secret, and the excerpt's
 * cut and head bound. (The token client's own messages: tokenClient.test.ts.)
 */
import { excerpt, redact } from '@/nodes/GstCompliance/errors/redact';

/** Space, plus, slash, quote, backslash and the HTML specials, each with hex letters in its code. */
const PUNCTUATED = `Qz8 Kp+Wm/"Xv\\Ly&<Nb>'Rt`;
/** Every control character JSON has a short escape for. */
const CONTROL = 'tab\there\nnew\rret\bbs\fff';
/** Two-, three- and four-byte UTF-8, the last one outside the BMP (a surrogate pair in UTF-16). */
const UNICODE = 'pässwörd-€-😀-x';
/** The characters encoders disagree on (`encodeURIComponent` leaves ~!*() alone, qs does not). */
const SYMBOLS = 'Nb%Xv=Ly~Rt!Qz*(Kp)';
const SECRETS = { PUNCTUATED, CONTROL, UNICODE, SYMBOLS };
/** Nothing to encode: only the named-parameter rule and the excerpt's cut apply. */
const ALPHANUMERIC = 'Zx9kQ2mP7rT4vW8yB3nH';

const form = (text: string) => new URLSearchParams({ s: text }).toString().slice('s='.length);
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
const mixedHex = (text: string) =>
	text.replace(
		/%([0-9A-F])([0-9A-F])/g,
		(_hex, high: string, low: string) => `%${high}${low.toLowerCase()}`,
	);
/** RFC 3986 as qs writes it: encodeURIComponent plus !'()*. */
const rfc3986 = (text: string) =>
	encodeURIComponent(text).replace(
		/[!'()*]/g,
		(character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
	);
const jsonString = (text: string) => JSON.stringify(text).slice(1, -1);
const jsonUnicode = (text: string, hexCase: (hex: string) => string) =>
	[...text.split('')]
		.map((unit) => `\\u${hexCase(unit.charCodeAt(0).toString(16).padStart(4, '0'))}`)
		.join('');
const codePoints = (text: string, entity: (codePoint: number) => string) =>
	[...text].map((character) => entity(character.codePointAt(0) ?? 0)).join('');
const htmlNamed = (text: string, apostrophe: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, apostrophe);

const FORMS: Array<[string, (secret: string) => string]> = [
	['raw', (secret) => secret],
	['form body (space as +, upper-case hex)', form],
	['form body, lower-case hex', (secret) => lowerHex(form(secret))],
	['form body encoded twice (space as %2B)', (secret) => form(form(secret))],
	['form body, then encodeURIComponent', (secret) => encodeURIComponent(form(secret))],
	['encodeURIComponent (space as %20)', (secret) => encodeURIComponent(secret)],
	['encodeURIComponent, lower-case hex', (secret) => lowerHex(encodeURIComponent(secret))],
	['encodeURIComponent, mixed-case hex', (secret) => mixedHex(encodeURIComponent(secret))],
	["RFC 3986 as qs writes it (!'()* escaped too)", rfc3986],
	['percent-encoded twice', (secret) => encodeURIComponent(encodeURIComponent(secret))],
	[
		'percent-encoded twice, lower-case hex',
		(secret) => lowerHex(encodeURIComponent(encodeURIComponent(secret))),
	],
	['echoed by a form decoder (+ read as space)', (secret) => secret.replace(/\+/g, ' ')],
	['JSON string (short escapes)', jsonString],
	['JSON string with escaped slashes', (secret) => jsonString(secret).replace(/\//g, '\\/')],
	['JSON \\u escapes, lower-case hex', (secret) => jsonUnicode(secret, (hex) => hex)],
	['JSON \\u escapes, upper-case hex', (secret) => jsonUnicode(secret, (hex) => hex.toUpperCase())],
	['HTML named entities, &#39;', (secret) => htmlNamed(secret, '&#39;')],
	['HTML named entities, &apos;', (secret) => htmlNamed(secret, '&apos;')],
	['HTML decimal entities', (secret) => codePoints(secret, (code) => `&#${code};`)],
	['HTML decimal entities with leading zeros', (secret) => codePoints(secret, (c) => `&#000${c};`)],
	['HTML hex entities &#x…;', (secret) => codePoints(secret, (code) => `&#x${code.toString(16)};`)],
	[
		'HTML hex entities &#X…; in upper case',
		(secret) => codePoints(secret, (code) => `&#X${code.toString(16).toUpperCase()};`),
	],
];

describe('replaces anything shaped like a JWT with [redacted token]', () => {
	it('redact of a secret and a token with claims → [redacted] and [redacted token]', () => {
		const token = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"a":1}').toString('base64url')}.sig`;
		expect(redact(`secret s3cret-value and token ${token}`, ['s3cret-value'])).toBe(
			'secret [redacted] and token [redacted token]',
		);
	});

	it('redact and excerpt with no secret to protect → only the token goes; a password field named by the API stays', () => {
		const text = 'password: too short, client_secret=abc123 eyJhbGciOiJIUzI1NiJ9.e30.sig';
		const kept = 'password: too short, client_secret=abc123 [redacted token]';
		expect(redact(text)).toBe(kept);
		expect(excerpt(text)).toBe(kept);
	});
});

// redact keeps the patterns it builds for a secret; each test below uses a secret of its own, so
// that it builds (and checks) them itself rather than reuse another test's.
describe('removes the user info of any URL in the text', () => {
	it('redact of URLs with user and password, user only, or an empty user → user info [redacted], the rest kept', () => {
		expect(redact('connect ECONNREFUSED redis://x:other-secret@h:6379/0 (retrying)')).toBe(
			'connect ECONNREFUSED redis://[redacted]@h:6379/0 (retrying)',
		);
		expect(redact('rediss://only-user@h and HTTPS://:pw@api.example.com/v1 failed')).toBe(
			'rediss://[redacted]@h and HTTPS://[redacted]@api.example.com/v1 failed',
		);
	});

	it('redact of an @ after the host (a path or a query) or in a mail address → the text unchanged', () => {
		const text = 'see https://api.example.com/v1/users/a@b?to=c@d or ops@example.com';
		expect(redact(text)).toBe(text);
	});
});

describe('redacts a secret in each form it travels in, on its own', () => {
	describe.each(FORMS.map(([name, encode], row) => [name, encode, row] as const))(
		'%s',
		(_name, encode, row) => {
			it.each(Object.entries(SECRETS))('redact of the %s secret → [redacted]', (_label, base) => {
				const secret = `${base}${row}`;
				const text = `echo: ${encode(secret)} (end)`;
				expect(redact(text, [secret])).toBe('echo: [redacted] (end)');
			});
		},
	);

	it('redact of a text holding it twice → every occurrence [redacted], not just the first', () => {
		expect(redact(`${form(PUNCTUATED)} and ${PUNCTUATED}`, [PUNCTUATED])).toBe(
			'[redacted] and [redacted]',
		);
	});
});

describe('keeps text that only resembles the secret', () => {
	const RESEMBLING: Array<[string, (secret: string) => string]> = [
		['the space left out', (secret) => secret.replace(' ', '')],
		['the plus left out', (secret) => secret.replace('+', '')],
		['a plus where the secret has a letter', (secret) => secret.replace('tt', 't+')],
		['a space where the secret has a letter', (secret) => secret.replace('tt', 't ')],
		['a percent escape of another character', (secret) => secret.replace('+', '%2C')],
	];
	it.each(RESEMBLING.map(([name, resembling], row) => [name, resembling, row] as const))(
		'redact of the secret with %s → the text unchanged',
		(_name, resembling, row) => {
			const secret = `correct horse+battery ${row}`;
			const text = resembling(secret);
			expect(redact(`echo: ${text}`, [secret])).toBe(`echo: ${text}`);
		},
	);
});

/** base64 and base64url of `prefix + value + suffix`, and the part that encodes `value` alone. */
const encodedWithin = (prefix: string, value: string, encoding: 'base64' | 'base64url') => {
	const encoded = Buffer.from(`${prefix}${value}!?`).toString(encoding);
	// Groups of four characters encode three bytes; those mixing in prefix or suffix bytes stay.
	const from = Math.ceil(Buffer.byteLength(prefix) / 3) * 4;
	const to = Math.floor(Buffer.byteLength(prefix + value) / 3) * 4;
	return { encoded, kept: `${encoded.slice(0, from)}[redacted]${encoded.slice(to)}` };
};

describe('redacts a secret inside base64 of a longer value (HTTP Basic id:secret)', () => {
	// Its base64 holds `+` and `/` at every alignment, and it is not a whole number of groups.
	const secret = 'Wm~>>>???Kp8Zq';
	const alignments: Array<[string, string]> = [
		['starting a group (alignment 0)', 'id:'],
		['one byte into a group (alignment 1)', 'id:x'],
		['two bytes into a group (alignment 2)', 'id:xy'],
	];

	describe.each(alignments)('%s', (_name, prefix) => {
		it.each(['base64', 'base64url'] as const)(
			'redact of %s → every group of the secret alone [redacted]',
			(encoding) => {
				const { encoded, kept } = encodedWithin(prefix, secret, encoding);
				expect(redact(`Authorization: Basic ${encoded}`, [secret])).toBe(
					`Authorization: Basic ${kept}`,
				);
			},
		);

		it('redact of base64 of the form-encoded secret (RFC 6749 section 2.3.1) → its groups [redacted]', () => {
			const punctuated = 'Wm~>>> ???Kp+8/Zq';
			const { encoded, kept } = encodedWithin(prefix, form(punctuated), 'base64');
			expect(redact(`Authorization: Basic ${encoded}`, [punctuated])).toBe(
				`Authorization: Basic ${kept}`,
			);
		});
	});

	it('redact of percent-encoded base64 → the groups of the secret [redacted]', () => {
		const { encoded, kept } = encodedWithin('id:', secret, 'base64');
		expect(redact(`auth=${encodeURIComponent(encoded)}`, [secret])).toBe(
			`auth=${encodeURIComponent(kept).replace('%5Bredacted%5D', '[redacted]')}`,
		);
	});

	it('redact of a 6-byte secret (two groups, the shortest base64 run taken for the secret) → [redacted]', () => {
		const { encoded, kept } = encodedWithin('id:', 'Sx9kQ2', 'base64');
		expect(redact(`Basic ${encoded}`, ['Sx9kQ2'])).toBe(`Basic ${kept}`);
	});

	it('redact of a 5-byte secret (at most one group of four, too likely by chance) → base64 unchanged', () => {
		for (const prefix of ['id:', 'id:x', 'id:xy']) {
			const { encoded } = encodedWithin(prefix, 'Sx9kQ', 'base64');
			expect(redact(`Basic ${encoded}`, ['Sx9kQ'])).toBe(`Basic ${encoded}`);
		}
	});
});

describe('uses secrets of 4 characters or more only', () => {
	it('redact of a 4-character secret → it is [redacted], and nothing else in the text is', () => {
		expect(redact('code ab9Z here, base64 YWI5Wg', ['ab9Z'])).toBe(
			'code [redacted] here, base64 YWI5Wg',
		);
	});

	it('redact of a 3-character secret → the text unchanged: it would blank out ordinary words', () => {
		expect(redact('code ab9 here, password=hunter2', ['ab9'])).toBe(
			'code ab9 here, password=hunter2',
		);
	});
});

describe('redacts the value of a parameter named like a secret', () => {
	const secret = ALPHANUMERIC;

	it('redact of a form or JSON value the server cut short → [redacted], the name and the rest kept', () => {
		expect(redact(`body: client_secret=${secret.slice(0, 7)}&grant_type=x`, [secret])).toBe(
			'body: client_secret=[redacted]&grant_type=x',
		);
		const cut = form(PUNCTUATED).slice(0, 10);
		expect(redact(`{"client_secret":"${cut}`, [PUNCTUATED])).toBe('{"client_secret":"[redacted]');
	});

	it('redact of names in any case → every occurrence [redacted]', () => {
		expect(
			redact('Client-Secret: a1b2c3d4e5, PASSWORD=hunter22; "clientSecret":"q9w8e7"', [secret]),
		).toBe('Client-Secret: [redacted], PASSWORD=[redacted]; "clientSecret":"[redacted]"');
	});
});

describe('cuts an excerpt to one line of max characters, redacted before the cut', () => {
	const secret = ALPHANUMERIC;

	it('excerpt of exactly max characters → the text whole', () => {
		expect(excerpt('0123456789', [], 10)).toBe('0123456789');
	});

	it('excerpt of one character over max → max characters and an ellipsis', () => {
		expect(excerpt('0123456789A', [], 10)).toBe('0123456789…');
	});

	it('excerpt of whitespace runs → one space each, the ends trimmed', () => {
		expect(excerpt('\n\t error:\r\n  bad \t request \n', [secret])).toBe('error: bad request');
	});

	it('excerpt of a secret straddling the cut → none of its characters', () => {
		const text = `${'x'.repeat(8)}${secret} tail`;
		expect(excerpt(text, [secret], 10)).toBe('xxxxxxxx[r…');
	});

	it('excerpt of a long text → cut at max, no part of a secret far beyond the cut', () => {
		const text = `${'a'.repeat(50_000)} ${secret}`;
		expect(excerpt(text, [secret], 20)).toBe(`${'a'.repeat(20)}…`);
	});
});

describe('reads a head long enough that no secret or token is shown in part', () => {
	const secret = ALPHANUMERIC;

	// The head read is bounded: a whitespace run or redactions before a secret shorten the excerpt
	// text, so the secret can come out within max even though it starts far into the raw text.
	it.each([
		['a whitespace run', (length: number) => ' '.repeat(length), 'error [redacted] tail'],
		[
			'a redacted token',
			(length: number) => `${jwt(length - 1)} `,
			'error [redacted token] [redacted] tail',
		],
	])(
		'excerpt of a secret after %s as long as the head read → still [redacted]',
		(_name, filler, shown) => {
			const head = 300 + 24 * secret.length + 8192;
			// A head of that length ends six characters into the secret.
			const text = `error ${filler(head - 12)}${secret} tail`;
			expect(text.indexOf(secret)).toBe(head - 6);
			expect(excerpt(text, [secret])).toBe(shown);
		},
	);

	it('excerpt of a token cut by the head bound after a whitespace run → [redacted token], not a part', () => {
		const head = 300 + 8192;
		const token = jwt(200);
		const text = `error ${' '.repeat(head - 6 - 50)}${token} tail`;
		expect(excerpt(text)).toBe('error [redacted token] tail');
	});

	it('excerpt with a 24-character secret → reads 8 KB plus 24 characters per character before it may cut', () => {
		// A 24-character secret stretches the head to 8,192 + 576 characters past max: an 8.7 KB
		// token is redacted whole, where a head of 8 KB and a bit would show its first characters.
		const longest = 'Kq7Zx9Kq7Zx9Kq7Zx9Kq7Zx9';
		expect(excerpt(`error ${jwt(8700)} tail`, [longest])).toBe('error [redacted token] tail');
	});
});

/** A JWT-shaped token of `length` characters. */
function jwt(length: number): string {
	const header = 'eyJhbGciOiJIUzI1NiJ9';
	return `${header}.${'a'.repeat(length - header.length - '..sig'.length)}.sig`;
}
