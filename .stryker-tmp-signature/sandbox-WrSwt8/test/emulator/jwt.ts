// @ts-nocheck
import { createHmac, timingSafeEqual } from 'crypto';

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = encode({ alg: 'HS256', typ: 'JWT' });

function sign(input: string, key: Buffer): Buffer {
	return createHmac('sha256', key).update(input).digest();
}

/** A real compact JWS (HS256), so callers that do decode the token see standard claims. */
export function signJwt(claims: Record<string, unknown>, key: Buffer): string {
	const input = `${HEADER}.${encode(claims)}`;
	return `${input}.${sign(input, key).toString('base64url')}`;
}

/** Returns the claims when the token is well formed, HS256 and signed with `key`; else null. */
export function verifyJwt(token: string, key: Buffer): Record<string, unknown> | null {
	const parts = token.split('.');
	if (parts.length !== 3) return null;
	const [header, payload, signature] = parts;
	try {
		const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
		if (head.alg !== 'HS256') return null;
		const expected = sign(`${header}.${payload}`, key);
		const given = Buffer.from(signature, 'base64url');
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
		const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
		return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}
