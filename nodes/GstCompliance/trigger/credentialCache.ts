/**
 * Decrypted credentials kept for a few seconds per credential id, so that a burst of deliveries
 * reads and decrypts each credential once, not once per delivery (n8n reads it from the database
 * every time). A rotated signing secret is therefore used within SECRET_CACHE_MS of being saved;
 * the previous-secret field covers that overlap (deliveries signed with either secret verify).
 * Test-URL deliveries read afresh (webhook.ts gives them no key): the user may just have edited
 * the credential.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { isDue } from '../throttle';

export const SECRET_CACHE_MS = 5_000;

interface Entry {
	data: Promise<ICredentialDataDecryptedObject>;
	readAtMs: number;
}

/**
 * Process-wide: n8n builds a new node and context for every request, so nothing narrower lives
 * from one delivery to the next. One entry per saved credential, so it stays as small as the
 * instance's credential list.
 */
const cache = new Map<string, Entry>();

/**
 * The credential's data: `read` (n8n's `getCredentials`), or what a read of the last
 * SECRET_CACHE_MS gave. `key` names the saved credential (its type and id); without one (a
 * Test-URL delivery, or no saved credential) the data is read afresh.
 */
export async function cachedCredentials(
	key: string | undefined,
	read: () => Promise<ICredentialDataDecryptedObject>,
	nowMs = Date.now(),
): Promise<ICredentialDataDecryptedObject> {
	if (key === undefined) return await read();
	const hit = cache.get(key);
	if (hit && !isDue(hit.readAtMs, nowMs, SECRET_CACHE_MS)) return await hit.data;
	// The promise is cached, so concurrent deliveries share one read; a failed read is not kept.
	const data = read();
	const entry: Entry = { data, readAtMs: nowMs };
	cache.set(key, entry);
	data.catch(() => {
		if (cache.get(key) === entry) cache.delete(key);
	});
	return await data;
}
