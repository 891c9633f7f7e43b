/**
 * The built-in store's accepted events not started yet: by their own id (so an overdue one can be
 * named), with the time each was accepted, in order of acceptance (a retake moves it last). Few at
 * a time (the executions n8n has not run yet), bounded by the store's cap; one older than the
 * window is forgotten once it has been named overdue. memoryStore.ts owns it.
 */
import type { OverdueEvent } from '../lifecycle';
import type { PendingRecord } from './snapshotFormat';

/**
 * An accepted event waiting for its execution; `named` once said overdue; `restored` when read
 * from a snapshot (a start since that snapshot's save would not be in it).
 */
interface Accepted {
	acceptedMs: number;
	named: boolean;
	restored?: boolean;
}

export class AcceptedEvents {
	private readonly events = new Map<string, Accepted>();

	get size(): number {
		return this.events.size;
	}

	/**
	 * Read back from a snapshot: a start since it was saved would not be in it. Events waiting
	 * here already keep what they know; the order of acceptance holds for both.
	 */
	restore(records: readonly PendingRecord[], started: (eventId: string) => boolean): void {
		const read = records
			.filter(([eventId]) => !this.events.has(eventId) && !started(eventId))
			.map(([eventId, acceptedMs]): [string, Accepted] => [
				eventId,
				{ acceptedMs, named: false, restored: true },
			]);
		if (read.length === 0) return;
		const all = [...this.events, ...read].sort(([, a], [, b]) => a.acceptedMs - b.acceptedMs);
		this.events.clear();
		for (const [eventId, entry] of all) this.events.set(eventId, entry);
	}

	/** When `eventId` was accepted, if it waits (one older than `windowMs` is dropped). */
	acceptedAt(eventId: string, nowMs: number, windowMs: number): number | undefined {
		this.expire(nowMs, windowMs);
		const entry = this.events.get(eventId);
		if (entry && nowMs - entry.acceptedMs > windowMs) {
			this.events.delete(eventId);
			return undefined;
		}
		return entry?.acceptedMs;
	}

	/** Records `eventId` as accepted now, last in order; the oldest go beyond `capacity`. */
	add(eventId: string, nowMs: number, capacity: number): void {
		this.events.delete(eventId);
		while (this.events.size >= capacity && this.events.size > 0)
			this.events.delete(this.events.keys().next().value as string);
		this.events.set(eventId, { acceptedMs: nowMs, named: false });
	}

	/** Its execution started. */
	delete(eventId: string): void {
		this.events.delete(eventId);
	}

	/** The events accepted `startWithinMs` or longer ago, not named before: each named once. */
	overdue(nowMs: number, startWithinMs: number, windowMs: number): OverdueEvent[] {
		const found: OverdueEvent[] = [];
		for (const [eventId, entry] of this.events) {
			if (nowMs - entry.acceptedMs < startWithinMs) break; // in order of acceptance
			if (entry.named) continue;
			entry.named = true;
			found.push(
				entry.restored
					? { eventId, acceptedMs: entry.acceptedMs, uncertain: true }
					: { eventId, acceptedMs: entry.acceptedMs },
			);
		}
		this.expire(nowMs, windowMs);
		return found;
	}

	/** As the snapshot keeps them. */
	records(): PendingRecord[] {
		return [...this.events].map(([id, entry]): PendingRecord => [id, entry.acceptedMs]);
	}

	/**
	 * Accepted ids older than the window, once named overdue, are forgotten: a copy of one is
	 * accepted afresh. One not named yet stays until `overdue` names it.
	 */
	private expire(nowMs: number, windowMs: number): void {
		for (const [eventId, entry] of this.events) {
			if (nowMs - entry.acceptedMs <= windowMs) return;
			if (!entry.named) return;
			this.events.delete(eventId);
		}
	}
}
