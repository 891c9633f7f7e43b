/**
 * The built-in store's persisted form, as workflow static data holds it: fixed-width records of an
 * id's digest and the minute it was committed, counted from a base minute. memoryStore.ts keeps
 * the records in step with its ids; this file is their encoding.
 */

/**
 * Persisted form: `d` is fixed-width records of the started ids (digest + minute offset from
 * `base`), oldest first; `p`, when any, the accepted ids not yet started, with the time each was
 * accepted, in order of acceptance. A version that knows no `p` reads `d` alone.
 */
export interface DedupeSnapshot {
	v: 1;
	base: number;
	d: string;
	p?: PendingRecord[];
}

/** An accepted id not yet started: the id itself (to name it) and when it was accepted, in ms. */
export type PendingRecord = [eventId: string, acceptedMs: number];

export const DIGEST_CHARS = 11; // 66 bits: a false "duplicate" among 10^5 ids has odds of about 10^-10
const OFFSET_CHARS = 3; // base64url, minutes 0..262143 (182 days) after `base`
export const RECORD_CHARS = DIGEST_CHARS + OFFSET_CHARS;
export const MAX_OFFSET = 64 ** OFFSET_CHARS - 1;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The string as one contiguous copy. Appending builds a tree of pieces (about 64 bytes per record
 * held for every record appended); slicing a fresh concatenation at offset 1 makes V8 copy it
 * into one flat string, so the folded records cost their 14 bytes each and later slices are O(1).
 */
export function flat(text: string): string {
	return ` ${text}`.slice(1);
}

export function encodeOffset(offset: number): string {
	let out = '';
	for (let i = OFFSET_CHARS - 1; i >= 0; i--) out += B64[Math.floor(offset / 64 ** i) % 64];
	return out;
}

export function decodeOffset(text: string): number | undefined {
	let value = 0;
	for (const char of text) {
		const digit = B64.indexOf(char);
		if (digit < 0) return undefined;
		value = value * 64 + digit;
	}
	return value;
}

export function isSnapshot(value: unknown): value is DedupeSnapshot {
	if (typeof value !== 'object' || value === null) return false;
	const { v, base, d } = value as Record<string, unknown>;
	return v === 1 && Number.isSafeInteger(base) && typeof d === 'string';
}

/** The started records of a snapshot as [digest, minute], in order; a malformed one is skipped. */
export function* startedRecords(snapshot: DedupeSnapshot): Generator<[string, number]> {
	for (let at = 0; at + RECORD_CHARS <= snapshot.d.length; at += RECORD_CHARS) {
		const offset = decodeOffset(snapshot.d.slice(at + DIGEST_CHARS, at + RECORD_CHARS));
		if (offset !== undefined)
			yield [snapshot.d.slice(at, at + DIGEST_CHARS), snapshot.base + offset];
	}
}

/** The well-formed pending records of a snapshot; any other entry is skipped. */
export function pendingFromSnapshot(snapshot: DedupeSnapshot): PendingRecord[] {
	if (!Array.isArray(snapshot.p)) return [];
	return snapshot.p.filter(
		(record): record is PendingRecord =>
			Array.isArray(record) &&
			record.length === 2 &&
			typeof record[0] === 'string' &&
			Number.isFinite(record[1]),
	);
}
