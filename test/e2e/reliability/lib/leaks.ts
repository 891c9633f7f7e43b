/** Finds secrets and bearer tokens in texts the user or an operator could see. */

/**
 * A JWT (what the service's access tokens are): three base64url parts, the first two JSON objects.
 */
const JWT = /eyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]{10,}/;

/** Where a secret or a token appears, as "<source>: <what>" (never the secret itself). */
export function findLeaks(
	sources: Record<string, string>,
	secrets: Record<string, string>,
): string[] {
	const found: string[] = [];
	for (const [source, text] of Object.entries(sources)) {
		for (const [name, secret] of Object.entries(secrets)) {
			if (secret && text.includes(secret)) found.push(`${source}: ${name}`);
		}
		if (JWT.test(text)) found.push(`${source}: a JWT (access token)`);
	}
	return found;
}
