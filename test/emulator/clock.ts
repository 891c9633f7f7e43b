/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the service emulator is a Node server for tests, never loaded by n8n */
import type { Clock } from './types';

/** Where a manual clock starts: 2025-01-15T04:30:00Z (10:00 IST), a realistic weekday morning. */
export const MANUAL_CLOCK_START = Date.UTC(2025, 0, 15, 4, 30, 0);

interface Timer {
	at: number;
	seq: number;
	fn: () => void | Promise<unknown>;
	handle?: NodeJS.Timeout;
}

/**
 * The emulator's clock plus clock-driven timers. It also tracks asynchronous work (delivery
 * attempts) so `settle()` and the manual `advance()` can wait for real I/O between steps: that is
 * what lets a test walk through 24 h of retries in milliseconds of wall time.
 */
export class Scheduler implements Clock {
	private readonly timers = new Set<Timer>();
	private readonly inFlight = new Set<Promise<unknown>>();
	private seq = 0;
	private stopped = false;
	private manualNow: number | null;

	constructor(
		private readonly source: 'real' | 'manual' | Clock = 'real',
		manualStart = MANUAL_CLOCK_START,
	) {
		this.manualNow = source === 'manual' ? manualStart : null;
	}

	get isManual(): boolean {
		return this.manualNow !== null;
	}

	now(): number {
		if (this.manualNow !== null) return this.manualNow;
		return this.source === 'real' || this.source === 'manual' ? Date.now() : this.source.now();
	}

	/** Runs `fn` once the clock reaches `at`; returns a cancel function. */
	schedule(at: number, fn: () => void | Promise<unknown>): () => void {
		const timer: Timer = { at, seq: this.seq++, fn };
		if (this.stopped) return () => undefined; // work finishing after stop() must not reschedule
		this.timers.add(timer);
		// A manual clock fires only in advance()/settle(), except work due now, which must not wait.
		const delay = at - this.now();
		if (!this.isManual || delay <= 0)
			timer.handle = setTimeout(() => this.fire(timer), Math.max(0, delay));
		return () => {
			clearTimeout(timer.handle);
			this.timers.delete(timer);
		};
	}

	/** Registers async work that `settle()`/`advance()` must wait for. */
	track<T>(promise: Promise<T>): Promise<T> {
		const tracked = promise.finally(() => this.inFlight.delete(tracked));
		this.inFlight.add(tracked);
		tracked.catch(() => undefined);
		return tracked;
	}

	/** Resolves when nothing is in flight and no timer is due at the current clock time. */
	async settle(): Promise<void> {
		for (;;) {
			await this.drain();
			const due = this.nextDue(this.now());
			if (!due) return;
			this.fire(due);
		}
	}

	/** Manual clock only: steps through every timer due before now + ms, in time order. */
	async advance(ms: number): Promise<void> {
		if (this.manualNow === null) throw new Error('advance() needs the manual clock');
		if (!(ms >= 0)) throw new Error('advance() needs a non-negative number of milliseconds');
		const target = this.manualNow + ms;
		for (;;) {
			await this.settle();
			const next = this.nextDue(target);
			if (!next) break;
			this.manualNow = Math.max(this.manualNow, next.at);
			this.fire(next);
		}
		this.manualNow = target;
		await this.settle();
	}

	/** Resolves when no tracked work is in flight (due timers are left alone). */
	async drain(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	/** Drops every timer and refuses new ones; in-flight work may still finish (see drain()). */
	stop(): void {
		this.stopped = true;
		for (const timer of this.timers) clearTimeout(timer.handle);
		this.timers.clear();
	}

	private nextDue(limit: number): Timer | undefined {
		let best: Timer | undefined;
		for (const t of this.timers) {
			if (t.at <= limit && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)))
				best = t;
		}
		return best;
	}

	private fire(timer: Timer): void {
		if (!this.timers.delete(timer)) return;
		clearTimeout(timer.handle);
		const result = timer.fn();
		if (result instanceof Promise) void this.track(result);
	}
}
