/**
 * When the single-process store should give way to Redis, and how it says so: in the n8n log (at
 * most one line per store and kind every WARN_EVERY_MS, so a busy trigger does not flood it) and
 * on the item each started execution carries (`dedupeNotice`), where a user who never reads the
 * log sees it.
 *
 * Two reasons: the store has had to forget ids still inside the window (a redelivery of one starts
 * the workflow again), or it remembers so many that every event is slower. n8n saves the whole
 * static data with each started event, so each event costs in proportion to the ids remembered;
 * bench item 9 (docs/benchmarks.md) measures the rate against the empty store on SQLite and
 * Postgres, and ATTACH_REDIS_FROM follows its rows.
 */
import type { MemoryDedupeStore } from './memoryStore';
import { isDue, WARN_EVERY_MS } from '../../../throttle';

/**
 * The most ids the built-in store keeps (its memory and static data; docs/trigger.md has the
 * measured sizes). It asks for Redis long before, from ATTACH_REDIS_FROM.
 */
export const DEDUPE_CAPACITY = 125_000;

/** The largest measured size that keeps ≥ 0.9× of the empty store's rate on every database. */
export const ATTACH_REDIS_FROM = 10_000;
/** Warn from this share of the cap on, when the cap is below ATTACH_REDIS_FROM. */
export const NEAR_CAPACITY = 0.8;

type WatchedStore = Pick<MemoryDedupeStore, 'size' | 'capacity' | 'evictedInWindow'>;

/** Whether the store holds so many ids that each event is slower, or it nears its cap. */
function near(store: WatchedStore): 'near' | undefined {
	const from = Math.min(ATTACH_REDIS_FROM, store.capacity * NEAR_CAPACITY);
	return store.size >= from ? 'near' : undefined;
}

/** What the trigger says, in the log and on the started item. */
export function capacityMessage(kind: 'evicting' | 'near', store: WatchedStore): string {
	const remembers = `The GST Compliance Trigger's built-in dedupe store remembers ${store.size.toLocaleString('en')} event ids (at most ${store.capacity.toLocaleString('en')})`;
	if (kind === 'evicting')
		return `${remembers} and has had to forget ${store.evictedInWindow.toLocaleString('en')} still inside the dedupe window: a redelivery of one of them starts the workflow again. Attach a GST Compliance Dedupe Redis credential to the trigger (no cap), or shorten the Dedupe Window.`;
	if (store.size >= ATTACH_REDIS_FROM)
		return `${remembers}. n8n saves all of them with the workflow on every event, which slows each delivery from about ${ATTACH_REDIS_FROM.toLocaleString('en')} ids on. Attach a GST Compliance Dedupe Redis credential to the trigger, or shorten the Dedupe Window.`;
	return `${remembers}. Beyond the cap it forgets the oldest ids inside the window; attach a GST Compliance Dedupe Redis credential to the trigger before the volume reaches the cap.`;
}

/** One store's warnings: what it last said, and when. Lives as long as the store it watches. */
export class CapacityWatch {
	private readonly lastWarned = new Map<'evicting' | 'near', number>();
	private evictedSeen = 0;

	/**
	 * The note for the item an event starts the workflow with, while there is a concern. The store
	 * forgets ids inside the window only while it is full: once expiry has brought it below the cap,
	 * the ids it forgot (older than any it kept) are past the window too.
	 */
	notice(store: WatchedStore): string | undefined {
		const forgetting = store.evictedInWindow > 0 && store.size >= store.capacity;
		const kind = forgetting ? 'evicting' : near(store);
		return kind && capacityMessage(kind, store);
	}

	/** Logs a warning when the store should give way to Redis, at most every WARN_EVERY_MS. */
	check(
		logger: { warn(message: string): void },
		scope: string,
		store: WatchedStore,
		nowMs = Date.now(),
	): 'evicting' | 'near' | undefined {
		// New evictions since the last warning, or the size.
		const kind = store.evictedInWindow > this.evictedSeen ? 'evicting' : near(store);
		if (!kind) return undefined;
		if (!isDue(this.lastWarned.get(kind), nowMs, WARN_EVERY_MS)) return kind;
		this.lastWarned.set(kind, nowMs);
		this.evictedSeen = store.evictedInWindow;
		logger.warn(`${capacityMessage(kind, store)} (${scope})`);
		return kind;
	}
}
