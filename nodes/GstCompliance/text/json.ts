/**
 * Reading text that may be JSON (a server's body, a delivery, a token's claims) without a
 * try/catch at each reader: what it parses to, or the fallback when it does not parse; and the one
 * test of "a JSON object" (not null, not an array) every reader of fields uses.
 */
export function parseJsonOr<T>(text: string, fallback: T): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return fallback;
	}
}

/** Whether a parsed value is a JSON object: fields to read, not null, an array or a scalar. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of a JSON object; undefined for anything else (not JSON, null, an array, a string). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
	const parsed = parseJsonOr(text, undefined);
	return isJsonObject(parsed) ? parsed : undefined;
}
