/**
 * Which event ids were already seen, so that an at-least-once delivery starts one execution.
 *
 * The store keeps a compact digest of each id (66 bits of its SHA-256) with the minute it was
 * first seen, expires entries after the window and evicts the oldest beyond a cap. The check and
 * the mark happen with no `await` between them, so within one process concurrent deliveries of
 * one id cannot both win. `snapshot()` gives a small JSON value for workflow static data and
 * `fromSnapshot()` rebuilds the store from it after a restart. A store shared between processes
 * (e.g. Redis `SET NX PX`) fits the same `DedupeStore` interface.
 */
import { createHash } from 'crypto';

export interface DedupeStore {
	/** Marks `eventId` as seen at `nowMs`; resolves true when it was not seen within the window. */
	claim(eventId: string, nowMs: number): Promise<boolean>;
}

export interface DedupeOptions {
	windowMs: number;
	/** Most ids kept; the oldest go first beyond it. */
	capacity: number;
}

/** Persisted form: `d` is fixed-width records (digest + minute offset from `base`), oldest first. */
export interface DedupeSnapshot {
	v: 1;
	base: number;
	d: string;
}

const MINUTE_MS = 60_000;
const DIGEST_CHARS = 11; // 66 bits: a false "duplicate" among 10^5 ids has odds of about 10^-10
const OFFSET_CHARS = 3; // base64url, minutes 0..262143 (182 days) after `base`
const RECORD_CHARS = DIGEST_CHARS + OFFSET_CHARS;
const MAX_OFFSET = 64 ** OFFSET_CHARS - 1;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function digestEventId(eventId: string): string {
	return createHash('sha256').update(eventId).digest('base64url').slice(0, DIGEST_CHARS);
}

export class MemoryDedupeStore implements DedupeStore {
	/** digest → minute first seen; Map order is insertion order, i.e. oldest first, like `log`. */
	private readonly seen = new Map<string, number>();
	/** The persisted records, kept in step with `seen` so a snapshot costs nothing. */
	private log = '';
	private base = 0;
	/** Ids dropped while still inside the window because the cap was reached (see capacity.ts). */
	evictedInWindow = 0;

	constructor(private options: DedupeOptions) {}

	static fromSnapshot(snapshot: unknown, options: DedupeOptions): MemoryDedupeStore {
		const store = new MemoryDedupeStore(options);
		if (!isSnapshot(snapshot)) return store;
		store.base = snapshot.base;
		for (let at = 0; at + RECORD_CHARS <= snapshot.d.length; at += RECORD_CHARS) {
			const digest = snapshot.d.slice(at, at + DIGEST_CHARS);
			const offset = decodeOffset(snapshot.d.slice(at + DIGEST_CHARS, at + RECORD_CHARS));
			if (offset === undefined || store.seen.has(digest)) continue;
			store.append(digest, snapshot.base + offset);
		}
		return store;
	}

	/** The window and cap can change when the node's options are edited. */
	configure(options: DedupeOptions): void {
		this.options = options;
	}

	get size(): number {
		return this.seen.size;
	}

	get capacity(): number {
		return this.options.capacity;
	}

	async claim(eventId: string, nowMs: number): Promise<boolean> {
		return this.claimNow(eventId, nowMs);
	}

	/** Synchronous core of `claim`: no other delivery can run between the check and the mark. */
	claimNow(eventId: string, nowMs: number): boolean {
		const minute = Math.floor(nowMs / MINUTE_MS);
		this.expire(minute);
		const digest = digestEventId(eventId);
		if (this.seen.has(digest)) return false;
		if (this.seen.size >= this.options.capacity) {
			const over = this.seen.size - this.options.capacity + 1;
			this.evictedInWindow += over;
			this.dropOldest(over);
		}
		this.append(digest, minute);
		return true;
	}

	snapshot(): DedupeSnapshot {
		return { v: 1, base: this.base, d: this.log };
	}

	private expire(nowMinute: number): void {
		const windowMinutes = Math.ceil(this.options.windowMs / MINUTE_MS);
		let expired = 0;
		for (const minute of this.seen.values()) {
			if (minute + windowMinutes >= nowMinute) break;
			expired++;
		}
		this.dropOldest(expired);
	}

	private dropOldest(count: number): void {
		if (count <= 0) return;
		let left = count;
		for (const digest of this.seen.keys()) {
			if (left-- === 0) break;
			this.seen.delete(digest);
		}
		this.log = this.log.slice(count * RECORD_CHARS);
	}

	private append(digest: string, minute: number): void {
		if (minute - this.base < 0 || minute - this.base > MAX_OFFSET) this.rebase(minute);
		this.seen.set(digest, minute);
		this.log += digest + encodeOffset(minute - this.base);
	}

	/** On first use, after a clock step back, or every ~half year: rewrite records against a new base. */
	private rebase(minute: number): void {
		let base = minute;
		for (const seenAt of this.seen.values()) base = Math.min(base, seenAt);
		this.base = base;
		const kept = [...this.seen].filter(([, seenAt]) => seenAt - base <= MAX_OFFSET);
		this.seen.clear();
		this.log = '';
		for (const [digest, seenAt] of kept) {
			this.seen.set(digest, seenAt);
			this.log += digest + encodeOffset(seenAt - base);
		}
	}
}

function encodeOffset(offset: number): string {
	let out = '';
	for (let i = OFFSET_CHARS - 1; i >= 0; i--) out += B64[Math.floor(offset / 64 ** i) % 64];
	return out;
}

function decodeOffset(text: string): number | undefined {
	let value = 0;
	for (const char of text) {
		const digit = B64.indexOf(char);
		if (digit < 0) return undefined;
		value = value * 64 + digit;
	}
	return value;
}

function isSnapshot(value: unknown): value is DedupeSnapshot {
	if (typeof value !== 'object' || value === null) return false;
	const { v, base, d } = value as Record<string, unknown>;
	return v === 1 && typeof base === 'number' && Number.isSafeInteger(base) && typeof d === 'string';
}
