/**
 * Reading text that may be JSON (a server's body, a delivery, a token's claims) without a
 * try/catch at each reader: what it parses to, or the fallback when it does not parse.
 */
export function parseJsonOr<T>(text: string, fallback: T): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return fallback;
	}
}

/** The fields of a JSON object; undefined for anything else (not JSON, null, an array, a string). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
	const parsed = parseJsonOr(text, undefined);
	return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
		? (parsed as Record<string, unknown>)
		: undefined;
}
