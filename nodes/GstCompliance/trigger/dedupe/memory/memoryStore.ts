/**
 * The lifecycle's ledger (../lifecycle.ts) in one process: which event ids were started
 * (startedIds.ts: digests by minute, expiry, eviction, persisted records), and which were accepted
 * and are on their way to their execution (acceptedEvents.ts). Every check and mark happens with
 * no `await` between them, so within one process concurrent deliveries or executions of one id
 * cannot both win. `snapshot()` gives a small JSON value of both for workflow static data and
 * `fromSnapshot()` rebuilds the store from it after a restart.
 */
import type { Acceptance, EventLedger, OverdueEvent, Start, AcceptanceMark } from '../lifecycle';
import { AcceptedEvents } from './acceptedEvents';
import {
	isSnapshot,
	pendingFromSnapshot,
	startedRecords,
	type DedupeSnapshot,
} from './snapshotFormat';
import { digestEventId, MINUTE_MS, StartedIds } from './startedIds';
import { StartTokens } from './startTokens';

export interface DedupeOptions {
	windowMs: number;
	/** Most ids kept; the oldest go first beyond it. */
	capacity: number;
}

/** The lifecycle's steps over the process's memory; memoryLedger.ts is the door that saves them. */
export class MemoryDedupeStore
	implements Pick<EventLedger, 'accept' | 'start' | 'startedElsewhere' | 'overdue'>
{
	/** Accepted events whose execution has not started (acceptedEvents.ts). */
	private readonly pending = new AcceptedEvents();
	/** The started ids (startedIds.ts). */
	private readonly started = new StartedIds();

	/** Ids looked at by the full expiry scans after a clock step back; for tests and the bench. */
	get scannedRecords(): number {
		return this.started.scannedRecords;
	}

	/** Ids dropped while still inside the window because the cap was reached. */
	get evictedInWindow(): number {
		return this.started.evictedInWindow;
	}

	/** Records copied by folds and rewrites; for tests and the bench (the amortized cost). */
	get copiedRecords(): number {
		return this.started.copiedRecords;
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
		this.started.merge(snapshot.base, startedRecords(snapshot));
		this.pending.restore(pendingFromSnapshot(snapshot), (eventId) =>
			this.started.has(digestEventId(eventId)),
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
		return this.started.size;
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
		this.started.expire(Math.floor(nowMs / MINUTE_MS), this.options.windowMs);
		const earlier = this.pending.acceptedAt(eventId, nowMs, this.options.windowMs);
		if (this.started.has(digestEventId(eventId))) return { kind: 'duplicate' };
		if (earlier !== undefined && nowMs - earlier < startWithinMs)
			return { kind: 'onItsWay', acceptedMs: earlier };
		this.pending.add(eventId, nowMs, this.options.capacity);
		return earlier !== undefined ? { kind: 'retaken', acceptedMs: earlier } : { kind: 'accepted' };
	}

	/**
	 * `mark`: the acceptance's (lifecycle.ts); the same item started again (a Retry from the
	 * executions list) is `started` again while this process remembers its token.
	 */
	async start(
		eventId: string,
		nowMs: number,
		mark?: Pick<AcceptanceMark, 'token'>,
	): Promise<Start> {
		if (this.startedAtAnswer.delete(eventId)) return 'started';
		if (!this.claimNow(eventId, nowMs))
			return this.startTokens.startedBy(eventId, mark?.token) ? 'started' : 'duplicate';
		if (mark) this.startTokens.record(eventId, mark.token);
		this.unsavedStarts++;
		return 'started';
	}

	async startedElsewhere(eventId: string, mark?: Pick<AcceptanceMark, 'token'>): Promise<boolean> {
		if (this.startedAtAnswer.has(eventId) || !this.started.has(digestEventId(eventId)))
			return false;
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
		this.started.expire(minute, this.options.windowMs);
		const digest = digestEventId(eventId);
		this.pending.delete(eventId);
		if (this.started.has(digest)) return false;
		this.started.add(digest, minute, this.options.capacity);
		return true;
	}

	snapshot(): DedupeSnapshot {
		this.unsavedStarts = 0;
		const snapshot: DedupeSnapshot = { v: 1, ...this.started.persisted() };
		if (this.pending.size > 0) snapshot.p = this.pending.records();
		return snapshot;
	}
}
