// @ts-nocheck
import type { Clock } from './types';

const MINUTE = 60_000;

/**
 * Fixed one-minute windows aligned to the clock's minute, per key (an OAuth client id).
 * Every request counts, rejected ones included, as a real limiter would.
 */
export class MinuteLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(
		private readonly limit: number,
		private readonly clock: Clock,
	) {}

	/** Counts one request; returns the Retry-After seconds when over budget, else 0. */
	hit(key: string): number {
		const now = this.clock.now();
		const start = Math.floor(now / MINUTE) * MINUTE;
		let window = this.windows.get(key);
		if (!window || window.start !== start) {
			window = { start, count: 0 };
			this.windows.set(key, window);
		}
		window.count++;
		return window.count > this.limit ? Math.max(1, Math.ceil((start + MINUTE - now) / 1000)) : 0;
	}
}
