/**
 * The digest both dedupe stores key an event id by: SHA-256 over the id exactly as received.
 *
 * A well-formed id is hashed as UTF-8, as it always was, so ids remembered before stay
 * remembered. An id with a lone UTF-16 surrogate (valid JSON: `"evt_\udc00"`) has no UTF-8 form:
 * encoding would turn every lone surrogate into U+FFFD, and `evt_\ud800`, `evt_\udc00` and
 * `evt_\ufffd` would share a key. Such an id is hashed as its UTF-16 code units behind a 0xFF byte,
 * which never occurs in UTF-8, so no two distinct ids give the same input.
 */
import * as crypto from 'crypto';
import { createHash } from 'crypto';

import { hasLoneSurrogate } from '../../controlCharacters';

const UTF16_MARK = Buffer.from([0xff]);

/** The bytes an id is hashed from: distinct ids, distinct bytes. */
export function eventIdBytes(eventId: string): Buffer {
	return hasLoneSurrogate(eventId)
		? Buffer.concat([UTF16_MARK, Buffer.from(eventId, 'utf16le')])
		: Buffer.from(eventId, 'utf8');
}

/** base64url SHA-256 of the id (43 characters); each store keeps as much of it as it needs. */
export function eventDigest(eventId: string): string {
	const bytes = eventIdBytes(eventId);
	return oneShot
		? oneShot('sha256', bytes, 'base64url')
		: createHash('sha256').update(bytes).digest('base64url');
}

/**
 * Node's one-shot `crypto.hash` (Node 20.12+, 21.7+): the same digest without a Hash object per
 * call; older Node runs `createHash`.
 */
const oneShot = (
	crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'base64url') => string }
).hash;
