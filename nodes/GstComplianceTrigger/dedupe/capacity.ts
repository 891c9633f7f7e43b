/**
 * Says so, in the n8n log, when the single-process store nears its cap or has had to forget ids
 * still inside the window (a redelivery of a forgotten id starts the workflow again). At most one
 * line per store and kind every WARN_EVERY_MS, so a busy trigger does not flood the log.
 */
import type { Logger } from 'n8n-workflow';

import type { MemoryDedupeStore } from './memoryStore';

/** Warn from this share of the cap on. */
export const NEAR_CAPACITY = 0.8;
const WARN_EVERY_MS = 10 * 60_000;

/** One store's warnings: what it last said, and when. Lives as long as the store it watches. */
export class CapacityWatch {
	private readonly lastWarned = new Map<'evicting' | 'near', number>();
	private evictedSeen = 0;

	/** Logs a warning when the store is near its cap or has forgotten ids inside the window. */
	check(
		logger: Pick<Logger, 'warn'>,
		scope: string,
		store: Pick<MemoryDedupeStore, 'size' | 'capacity' | 'evictedInWindow'>,
		nowMs = Date.now(),
	): 'evicting' | 'near' | undefined {
		const kind =
			store.evictedInWindow > this.evictedSeen
				? 'evicting'
				: store.size >= store.capacity * NEAR_CAPACITY
					? 'near'
					: undefined;
		if (!kind) return undefined;
		if (nowMs - (this.lastWarned.get(kind) ?? -Infinity) < WARN_EVERY_MS) return kind;
		this.lastWarned.set(kind, nowMs);
		this.evictedSeen = store.evictedInWindow;
		const holds = `GST Compliance Trigger (${scope}): the single-process dedupe store holds ${store.size} of at most ${store.capacity} event ids`;
		logger.warn(
			kind === 'evicting'
				? `${holds} and has forgotten ${store.evictedInWindow} ids still inside the dedupe window: a redelivery of one of them starts the workflow again. Attach a GST Compliance Dedupe Redis credential to the trigger (no cap), or shorten the dedupe window.`
				: `${holds}. Beyond the cap it forgets the oldest ids inside the window; attach a GST Compliance Dedupe Redis credential to the trigger before the volume reaches the cap.`,
		);
		return kind;
	}
}
