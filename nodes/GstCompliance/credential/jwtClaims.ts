import { settings } from '../settings';
import { jsonObject } from '../text/json';

/**
 * Reads a JWT's payload without verifying it. We only use it to learn the expiry and the
 * organization for messages; the API host verifies the token.
 */
export function decodeJwtClaims(token: string): Record<string, unknown> | undefined {
	const payload = token.split('.')[1];
	if (!payload) return undefined;
	return jsonObject(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** docs/service-api.md "Token lifetime and caching": tokens live 15 minutes. */
export const DEFAULT_EXPIRES_IN_SECONDS = 900;
/**
 * The `expires_in` values taken as given. Shorter would mint on nearly every request (the 429
 * storm the service warns about), longer is no token this service issues.
 */
export const EXPIRES_IN_RANGE_SECONDS = { min: 60, max: 86_400 } as const;

/**
 * `expires_in` as whole seconds: a JSON number or a numeric string, an integer within
 * EXPIRES_IN_RANGE_SECONDS. Anything else (booleans, fractions, exponents, out of range, missing)
 * is the documented 900 s.
 */
export function readExpiresIn(value: unknown): number {
	// Number() alone would also read '0x100', '1e3' and ' ' (as 256, 1000 and 0).
	const seconds =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value)
				? Number(value)
				: NaN;
	const { min, max } = EXPIRES_IN_RANGE_SECONDS;
	if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
		return DEFAULT_EXPIRES_IN_SECONDS;
	}
	return seconds;
}

/**
 * Token lifetime in ms: `expires_in`, capped by the JWT's claims.
 * - `exp` and `iat`: `exp - iat`, however short. Both are the token server's clock, so the
 *   difference is free of any skew between n8n and the service; the cache renews a lifetime
 *   shorter than twice its refresh margin at half of it (tokenCache.ts), so such a token is never
 *   sent dead and never minted per request. A difference of zero or less is no lifetime: ignored.
 * - `exp` alone: read against our clock, and ignored when it leaves less than the refresh margin,
 *   as a tiny `expires_in` is: with n8n's clock nearly 15 minutes ahead of the service every token
 *   would look a few seconds from expiry and be minted anew on nearly every request, which ends in
 *   HTTP 429 (docs/service-api.md, "Token lifetime and caching"). Should such a token really
 *   expire that soon, the API's 401 drops it and one new token is minted.
 */
export function tokenLifetimeMs(
	expiresInSeconds: number,
	claims: Record<string, unknown> | undefined,
	nowMs: number,
): number {
	const lifetime = expiresInSeconds * 1000;
	const exp = claims?.exp;
	if (typeof exp !== 'number') return lifetime;
	const iat = claims?.iat;
	if (typeof iat === 'number') {
		const fromClaims = (exp - iat) * 1000;
		return fromClaims > 0 ? Math.min(lifetime, fromClaims) : lifetime;
	}
	const fromExp = exp * 1000 - nowMs;
	return fromExp >= settings.refreshMarginMs ? Math.min(lifetime, fromExp) : lifetime;
}
