/**
 * `Service-Signature` webhook signatures (docs/service-api.md, "Signature verification"):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, with one or more `v1`.
 * Pure functions over the exact bytes received; nothing here parses the body.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export const SIGNATURE_HEADER = 'service-signature';

/** Bounds that keep a hostile header from costing more than a few HMAC compares. */
const MAX_HEADER_LENGTH = 4096;
const MAX_SIGNATURES = 16;
const HMAC_HEX_LENGTH = 64;

export interface ParsedSignatureHeader {
	/** `t` exactly as received: the signed string uses these bytes, not a re-formatted number. */
	timestamp: string;
	/** Lower-case hex `v1` values, in header order. */
	signatures: string[];
}

export type VerifyFailure = 'malformed' | 'mismatch' | 'stale';

export type VerifyResult =
	| { ok: true; timestamp: number; secretIndex: number }
	| { ok: false; reason: VerifyFailure };

export interface VerifyInput {
	/** Raw request body, byte-exact. */
	body: Buffer;
	header: string | string[] | undefined;
	/** Current secret first, then the previous one during rotation; empty entries are skipped. */
	secrets: ReadonlyArray<string | undefined>;
	nowSeconds: number;
	toleranceSeconds: number;
}

/** Hex HMAC-SHA256 over `<timestamp>.<body>`. */
export function sign(secret: string, timestamp: string | number, body: Buffer | string): string {
	return signatureBytes(secret, String(timestamp), body).toString('hex');
}

/** The header value a sender would produce, e.g. for tests and local tools. */
export function formatSignatureHeader(timestamp: string | number, signatures: string[]): string {
	return [`t=${timestamp}`, ...signatures.map((s) => `v1=${s}`)].join(',');
}

/**
 * `t` once and `v1` at least once, in any order, spaces around parts tolerated; other well-formed
 * keys (future schemes) are ignored. Returns undefined for anything else.
 */
export function parseSignatureHeader(
	header: string | string[] | undefined,
): ParsedSignatureHeader | undefined {
	// Node joins a repeated custom header with ", "; an array only comes from hand-built requests.
	const value = Array.isArray(header) ? header.join(',') : header;
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_HEADER_LENGTH)
		return undefined;

	let timestamp: string | undefined;
	const signatures: string[] = [];
	for (const part of value.split(',')) {
		const match = /^\s*([A-Za-z0-9_-]+)=(\S+?)\s*$/.exec(part);
		if (!match) return undefined;
		const [, key, item] = match;
		if (key === 't') {
			if (timestamp !== undefined || !/^\d{1,12}$/.test(item)) return undefined;
			timestamp = item;
		} else if (key === 'v1') {
			if (item.length !== HMAC_HEX_LENGTH || !/^[0-9a-fA-F]+$/.test(item)) return undefined;
			signatures.push(item.toLowerCase());
		}
	}
	if (timestamp === undefined || signatures.length === 0 || signatures.length > MAX_SIGNATURES)
		return undefined;
	return { timestamp, signatures };
}

/**
 * Checks the signature against every secret and every `v1` in constant time, and the timestamp
 * against the tolerance. Both are always evaluated; the caller reports either failure the same way.
 */
export function verify(input: VerifyInput): VerifyResult {
	const parsed = parseSignatureHeader(input.header);
	if (!parsed) return { ok: false, reason: 'malformed' };

	const received = parsed.signatures.map((hex) => Buffer.from(hex, 'hex'));
	let secretIndex = -1;
	input.secrets.forEach((secret, index) => {
		if (!secret) return;
		const expected = signatureBytes(secret, parsed.timestamp, input.body);
		for (const candidate of received) {
			if (
				candidate.length === expected.length &&
				timingSafeEqual(candidate, expected) &&
				secretIndex < 0
			) {
				secretIndex = index;
			}
		}
	});

	const timestamp = Number(parsed.timestamp);
	const fresh = Math.abs(input.nowSeconds - timestamp) <= input.toleranceSeconds;
	if (secretIndex < 0) return { ok: false, reason: 'mismatch' };
	if (!fresh) return { ok: false, reason: 'stale' };
	return { ok: true, timestamp, secretIndex };
}

/** A string body is hashed as its UTF-8 bytes, the bytes a sender puts on the wire. */
function signatureBytes(secret: string, timestamp: string, body: Buffer | string): Buffer {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}
