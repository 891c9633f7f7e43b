/**
 * The built-in store's started ids: each as a compact digest (66 bits of its SHA-256,
 * eventDigest.ts) with the minute it started, forgotten a window after that minute and evicted
 * oldest first beyond a cap, kept with its persisted records (snapshotLog.ts) so a snapshot
 * costs no walk over the ids. memoryStore.ts owns one and decides what a start means.
 */
import { eventDigest } from '../eventDigest';
import { SnapshotLog } from './snapshotLog';
import { DIGEST_CHARS, encodeOffset, MAX_OFFSET } from './snapshotFormat';

export const MINUTE_MS = 60_000;

/** The digest a started id is remembered and persisted by. */
export function digestEventId(eventId: string): string {
	return eventDigest(eventId).slice(0, DIGEST_CHARS);
}

export class StartedIds {
	/** digest → minute started; Map order is order of arrival, like the persisted records. */
	private readonly seen = new Map<string, number>();
	/**
	 * One iterator over `seen` for the life of the set, standing at the id that arrived first
	 * (`front`, read but not yet dropped). A fresh `keys()` per eviction would walk past every
	 * deleted entry again; this one passes each entry once (amortized O(1) per add).
	 */
	private cursor?: Iterator<string>;
	private front?: string;
	/** Some id arrived with an earlier minute than one before it (a clock step back). */
	private outOfOrder = false;
	private maxMinute = -Infinity;
	private lastScanMinute = NaN;
	/** The persisted records, in order of arrival. */
	private readonly records = new SnapshotLog();
	/** Ids forgotten out of order (after a clock step back): the records are rewritten first. */
	private holes = false;
	/** The minute the records' offsets count from. */
	private base = 0;
	/** Ids looked at by the full expiry scans after a clock step back; for tests and the bench. */
	scannedRecords = 0;
	/** Ids dropped while still inside the window because the cap was reached. */
	evictedInWindow = 0;

	/** Records copied by folds and rewrites; for tests and the bench (the amortized cost). */
	get copiedRecords(): number {
		return this.records.copied;
	}

	get size(): number {
		return this.seen.size;
	}

	has(digest: string): boolean {
		return this.seen.has(digest);
	}

	/**
	 * Adds a digest at `minute`, dropping the oldest first while `capacity` ids are kept; the
	 * caller has checked it is new. Nothing expires here: `expire` first.
	 */
	add(digest: string, minute: number, capacity: number): void {
		while (this.seen.size >= capacity && this.seen.size > 0) {
			this.evictedInWindow++;
			this.dropFront();
		}
		this.append(digest, minute);
	}

	/** Adds the started ids of a saved snapshot that this set does not hold. */
	merge(base: number, started: Iterable<[string, number]>): void {
		if (this.seen.size === 0) this.base = base;
		for (const [digest, minute] of started) if (!this.seen.has(digest)) this.append(digest, minute);
	}

	/** The persisted records and their base, rewritten first when ids went out of order. */
	persisted(): { base: number; d: string } {
		if (this.holes) this.rewrite(this.base);
		return { base: this.base, d: this.records.text() };
	}

	/**
	 * Forgets every id whose own minute is more than `windowMs` before `nowMinute`, whatever order
	 * the ids came in. In time order (the usual case) those are at the front. After a clock step
	 * back every id is checked, once per minute of the clock, until the ids are in order again.
	 */
	expire(nowMinute: number, windowMs: number): void {
		const windowMinutes = Math.ceil(windowMs / MINUTE_MS);
		if (!this.outOfOrder) {
			for (let front = this.peekFront(); front !== undefined; front = this.peekFront()) {
				if ((this.seen.get(front) as number) + windowMinutes >= nowMinute) break;
				this.dropFront();
			}
			return;
		}
		if (nowMinute === this.lastScanMinute) return;
		this.lastScanMinute = nowMinute;
		let previous = -Infinity;
		let ordered = true;
		for (const [digest, minute] of this.seen) {
			this.scannedRecords++;
			if (minute + windowMinutes < nowMinute) {
				this.seen.delete(digest);
				if (digest === this.front) this.front = undefined;
				this.holes = true;
			} else {
				if (minute < previous) ordered = false;
				previous = minute;
			}
		}
		if (ordered) {
			this.outOfOrder = false;
			this.maxMinute = previous;
		}
	}

	/** The id that arrived first among those remembered. */
	private peekFront(): string | undefined {
		// Every deletion from `seen` clears `front` when it deletes that id.
		if (this.front !== undefined) return this.front;
		if (this.seen.size === 0) return undefined;
		for (;;) {
			this.cursor ??= this.seen.keys();
			const next = this.cursor.next();
			if (!next.done) {
				this.front = next.value;
				return this.front;
			}
			this.cursor = undefined;
		}
	}

	/** Drops the id that arrived first (expiry in time order, and the cap's policy). */
	private dropFront(): void {
		const front = this.peekFront();
		if (front === undefined) return;
		this.seen.delete(front);
		this.front = undefined;
		if (this.records.dropFirst()) this.fold();
	}

	private append(digest: string, minute: number): void {
		if (minute - this.base < 0 || minute - this.base > MAX_OFFSET) {
			this.rewrite(Math.max(minute - MAX_OFFSET, Math.min(minute, this.oldestMinute())));
		}
		if (minute < this.maxMinute) {
			this.outOfOrder = true;
			// The id may expire within this very minute: the next expiry scans again.
			this.lastScanMinute = NaN;
		}
		this.maxMinute = Math.max(this.maxMinute, minute);
		this.seen.set(digest, minute);
		if (this.records.append(digest + encodeOffset(minute - this.base), this.seen.size)) this.fold();
	}

	/** Folds the records' tail in (amortized O(1)); with holes, rewrites them instead. */
	private fold(): void {
		if (this.holes) this.rewrite(this.base);
		else this.records.fold();
	}

	private oldestMinute(): number {
		let oldest = Infinity;
		for (const minute of this.seen.values()) oldest = Math.min(oldest, minute);
		return oldest;
	}

	/**
	 * Rewrites the records from the remembered ids against a new `base` (on first use, after a
	 * clock step back before the base, every ~half year, and after ids were forgotten out of
	 * order). Ids too old to encode against it are far beyond any window and are dropped.
	 */
	private rewrite(base: number): void {
		const kept = [...this.seen].filter(
			([, minute]) => minute - base >= 0 && minute - base <= MAX_OFFSET,
		);
		this.seen.clear();
		this.cursor = undefined;
		this.front = undefined;
		this.base = base;
		this.outOfOrder = false;
		this.maxMinute = -Infinity;
		let records = '';
		for (const [digest, minute] of kept) {
			if (minute < this.maxMinute) this.outOfOrder = true;
			this.maxMinute = Math.max(this.maxMinute, minute);
			this.seen.set(digest, minute);
			records += digest + encodeOffset(minute - base);
		}
		this.records.reset(records, kept.length);
		this.holes = false;
		this.lastScanMinute = NaN;
	}
}
