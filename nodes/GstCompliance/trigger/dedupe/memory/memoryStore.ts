/**
 * The lifecycle's ledger (../lifecycle.ts) in one process: which event ids were started, and which
 * were accepted and are on their way to their execution.
 *
 * Started ids are kept as a compact digest (66 bits of its SHA-256, eventDigest.ts) with the
 * minute they started, expire after the window and are evicted oldest first beyond a cap.
 * Accepted ids wait in acceptedEvents.ts until their execution starts. Every check and mark happens with
 * no `await` between them, so within one process concurrent deliveries or executions of one id
 * cannot both win. `snapshot()` gives a small JSON value of both for workflow static data and
 * `fromSnapshot()` rebuilds the store from it after a restart.
 */
import { eventDigest } from '../eventDigest';
import type { Acceptance, EventLedger, OverdueEvent, Start, StartMark } from '../lifecycle';
import { AcceptedEvents } from './acceptedEvents';
import { PersistedRecords } from './persistedRecords';
import {
	DIGEST_CHARS,
	encodeOffset,
	isSnapshot,
	MAX_OFFSET,
	pendingFromSnapshot,
	startedRecords,
	type DedupeSnapshot,
} from './snapshotRecords';
import { StartTokens } from './startTokens';

export interface DedupeOptions {
	windowMs: number;
	/** Most ids kept; the oldest go first beyond it. */
	capacity: number;
}

const MINUTE_MS = 60_000;

export function digestEventId(eventId: string): string {
	return eventDigest(eventId).slice(0, DIGEST_CHARS);
}

export class MemoryDedupeStore implements EventLedger {
	/** Accepted events whose execution has not started (acceptedEvents.ts). */
	private readonly pending = new AcceptedEvents();
	/** digest → minute started; Map order is order of arrival, like the persisted records. */
	private readonly seen = new Map<string, number>();
	/**
	 * One iterator over `seen` for the life of the store, standing at the id that arrived first
	 * (`front`, read but not yet dropped). A fresh `keys()` per eviction would walk past every
	 * deleted entry again; this one passes each entry once (amortized O(1) per claim).
	 */
	private cursor?: Iterator<string>;
	private front?: string;
	/** Some id arrived with an earlier minute than one before it (a clock step back). */
	private outOfOrder = false;
	private maxMinute = -Infinity;
	private lastScanMinute = NaN;
	/** The persisted records, in order of arrival (persistedRecords.ts). */
	private readonly records = new PersistedRecords();
	/**
	 * Ids forgotten out of order (after a clock step back): the records are rewritten before the
	 * next snapshot.
	 */
	private holes = false;
	private base = 0;
	/** Ids looked at by the full expiry scans after a clock step back; for tests and the bench. */
	scannedRecords = 0;
	/** Ids dropped while still inside the window because the cap was reached. */
	evictedInWindow = 0;

	/** Records copied by folds and rewrites; for tests and the bench (the amortized cost). */
	get copiedRecords(): number {
		return this.records.copied;
	}

	constructor(private options: DedupeOptions) {}

	static fromSnapshot(snapshot: unknown, options: DedupeOptions): MemoryDedupeStore {
		const store = new MemoryDedupeStore(options);
		store.merge(snapshot);
		return store;
	}

	/**
	 * Adds what a snapshot holds that this store does not know: its started ids, and its accepted
	 * events not started here. Nothing this store knows is lost, so a snapshot read late (the
	 * static data of a webhook after an execution without any) or twice changes no decision.
	 */
	merge(snapshot: unknown): void {
		if (!isSnapshot(snapshot)) return;
		if (this.seen.size === 0) this.base = snapshot.base;
		for (const [digest, minute] of startedRecords(snapshot))
			if (!this.seen.has(digest)) this.append(digest, minute);
		this.pending.restore(pendingFromSnapshot(snapshot), (eventId) =>
			this.seen.has(digestEventId(eventId)),
		);
	}

	get windowMs(): number {
		return this.options.windowMs;
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

	/** Accepted events whose execution has not started. */
	get pendingCount(): number {
		return this.pending.size;
	}

	/**
	 * Starts since the last `snapshot()`: the snapshot is what a restart reads back, so a store
	 * with unsaved starts must stay in memory until the next one.
	 */
	unsavedStarts = 0;
	/** Ids marked started when n8n read their answer, whose execution has not started yet. */
	private readonly startedAtAnswer = new Set<string>();
	/** Which acceptance made the latest starts (startTokens.ts). */
	private readonly startTokens = new StartTokens();

	async accept(eventId: string, nowMs: number, startWithinMs: number): Promise<Acceptance> {
		return this.acceptNow(eventId, nowMs, startWithinMs);
	}

	/** Synchronous core of `accept`: the acceptance is in `snapshot()` when this returns. */
	acceptNow(eventId: string, nowMs: number, startWithinMs: number): Acceptance {
		this.expire(Math.floor(nowMs / MINUTE_MS));
		const earlier = this.pending.acceptedAt(eventId, nowMs, this.options.windowMs);
		if (this.seen.has(digestEventId(eventId))) return { kind: 'duplicate' };
		if (earlier !== undefined && nowMs - earlier < startWithinMs)
			return { kind: 'onItsWay', acceptedMs: earlier };
		this.pending.add(eventId, nowMs, this.options.capacity);
		return earlier !== undefined ? { kind: 'retaken', acceptedMs: earlier } : { kind: 'accepted' };
	}

	/**
	 * `mark`: the acceptance's (lifecycle.ts); the same item started again (a Retry from the
	 * executions list) is `started` again while this process remembers its token.
	 */
	async start(eventId: string, nowMs: number, mark?: Pick<StartMark, 'token'>): Promise<Start> {
		if (this.startedAtAnswer.delete(eventId)) return 'started';
		if (!this.claimNow(eventId, nowMs))
			return this.startTokens.startedBy(eventId, mark?.token) ? 'started' : 'duplicate';
		if (mark) this.startTokens.record(eventId, mark.token);
		this.unsavedStarts++;
		return 'started';
	}

	async startedElsewhere(eventId: string, mark?: Pick<StartMark, 'token'>): Promise<boolean> {
		if (this.startedAtAnswer.has(eventId) || !this.seen.has(digestEventId(eventId))) return false;
		return !this.startTokens.startedBy(eventId, mark?.token);
	}

	/**
	 * Marks the event started as n8n reads its answer, once its execution exists (n8n 2.0–2.33), so
	 * the save n8n makes right then carries it; that execution's own start then goes on, any
	 * other's is a duplicate. False when it was started already.
	 */
	startAtAnswer(eventId: string, nowMs: number): boolean {
		if (!this.claimNow(eventId, nowMs)) return false;
		this.startedAtAnswer.add(eventId);
		return true;
	}

	async overdue(nowMs: number, startWithinMs: number): Promise<OverdueEvent[]> {
		return this.pending.overdue(nowMs, startWithinMs, this.options.windowMs);
	}

	/**
	 * Remembers `eventId` as started at `nowMs` unless it already is; true when it was new. The
	 * check and the mark in one synchronous step.
	 */
	claimNow(eventId: string, nowMs: number): boolean {
		const minute = Math.floor(nowMs / MINUTE_MS);
		this.expire(minute);
		const digest = digestEventId(eventId);
		this.pending.delete(eventId);
		if (this.seen.has(digest)) return false;
		while (this.seen.size >= this.options.capacity && this.seen.size > 0) {
			this.evictedInWindow++;
			this.dropFront();
		}
		this.append(digest, minute);
		return true;
	}

	snapshot(): DedupeSnapshot {
		this.unsavedStarts = 0;
		if (this.holes) this.rewrite(this.base);
		const snapshot: DedupeSnapshot = {
			v: 1,
			base: this.base,
			d: this.records.text(),
		};
		if (this.pending.size > 0) snapshot.p = this.pending.records();
		return snapshot;
	}

	/**
	 * Forgets every id whose own minute is more than the window before `nowMinute`, whatever order
	 * the ids came in. In time order (the usual case) those are at the front. After a clock step
	 * back every id is checked, once per minute of the clock, until the ids are in order again.
	 */
	private expire(nowMinute: number): void {
		const windowMinutes = Math.ceil(this.options.windowMs / MINUTE_MS);
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
