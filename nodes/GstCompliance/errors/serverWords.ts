/**
 * What a server said in an error answer, in its own words and redacted: the one reading of an error
 * body, for the token endpoint and the API alike. docs/service-api.md shows the token endpoint's
 * OAuth 2.0 error (`error`, a code, and `error_description`) and no error body for the API (the
 * emulator answers `{ error: { code, message } }`; gateways and proxies answer `message`, `detail`
 * or plain text), so each of these shapes is read.
 */
import { excerpt } from './redact';
import { isJsonObject, parseJsonOr } from '../text/json';

/** Longer words are cut: they go into one line of an error message. */
export const SERVER_WORDS_MAX = 200;

/**
 * The server's words from an error body (raw text, or already parsed): `message` or `detail`,
 * inside an `error` object first; else the OAuth pair as `<error> - <error_description>`; else
 * the body itself when it is plain text. '' when the server said nothing usable. Redacted: a
 * proxy may echo anything, the client secret included.
 */
export function serverWords(body: unknown, secrets: string[]): string {
	const parsed = typeof body === 'string' ? parseJsonOr(body, body) : body;
	if (typeof parsed === 'string') return excerpt(parsed, secrets, SERVER_WORDS_MAX);
	if (!isJsonObject(parsed)) return '';
	const inner = isJsonObject(parsed.error) ? parsed.error : {};
	const said = [inner.message, inner.detail, parsed.message, parsed.detail].find(isText);
	const oauth = [parsed.error, parsed.error_description].filter(isText).join(' - ');
	// excerpt tidies whitespace: blank text gives ''.
	return excerpt(said ?? oauth, secrets, SERVER_WORDS_MAX);
}

function isText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}
