// @ts-nocheck
const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;

/**
 * Removes secrets and anything shaped like a JWT from text that came from a server (error bodies)
 * before it reaches an error message, so no output item or log line carries a token or secret.
 */
export function redact(text: string, secrets: string[] = []): string {
	let result = text.replace(JWT_LIKE, '[redacted token]');
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result;
}

/** A short, redacted, single-line excerpt of a server's text for an error description. */
export function excerpt(text: string, secrets: string[] = [], max = 300): string {
	const line = redact(text, secrets).replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max)}…` : line;
}
