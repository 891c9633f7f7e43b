/**
 * The built-in store's memory between deliveries: one store per workflow, trigger node and
 * namespace (production or test) for the life of the process, with the watch that says when it
 * should give way to Redis. Process-wide because n8n gives a webhook no state of its own between
 * requests, and because the execution that starts an event runs in the same process as the
 * delivery that accepted it (regular mode).
 */
import { randomUUID } from 'crypto';

import { CapacityWatch } from './capacity';
import type { DedupeOptions, MemoryDedupeStore } from './memoryStore';

/**
 * A store no delivery or execution has used this long is dropped, unless an accepted event waits
 * in it or a start is not saved yet (it would be lost).
 */
export const IDLE_STORE_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface RegistryEntry {
	store: MemoryDedupeStore;
	watch: CapacityWatch;
	workflowId: string;
	nodeId: string;
	production: boolean;
	lastUsedMs: number;
	otherProcessWarnedMs: number;
	/** What the last acceptance found of another process (processMarkers.ts), for the next item. */
	otherProcess?: string;
}

/**
 * One store per key (workflow, node and namespace). A store of a trigger n8n deactivated, or that
 * nothing used for IDLE_STORE_MS, is dropped once everything it knows is in the static data (no
 * accepted event waits in it, every start saved); the next delivery reads them again.
 */
export class DedupeRegistry {
	private readonly stores = new Map<string, RegistryEntry>();
	private sweptMs = -Infinity;
	/**
	 * This process as its marker in the static data names it (processMarkers.ts), from its first
	 * delivery on.
	 */
	process = newProcess();

	get(
		key: string,
		options: DedupeOptions,
		create: () => MemoryDedupeStore,
		nowMs = Date.now(),
	): RegistryEntry {
		this.process.startedMs ??= nowMs;
		this.dropIdle(nowMs);
		let entry = this.stores.get(key);
		if (!entry) {
			const [workflowId, nodeId, namespace] = key.split(':');
			entry = {
				store: create(),
				watch: new CapacityWatch(),
				workflowId,
				nodeId,
				production: namespace === 'production',
				lastUsedMs: nowMs,
				otherProcessWarnedMs: -Infinity,
			};
			this.stores.set(key, entry);
		}
		entry.lastUsedMs = nowMs;
		entry.store.configure(options);
		return entry;
	}

	/** The production stores this process holds for one workflow (every trigger node of it). */
	production(workflowId: string): RegistryEntry[] {
		return [...this.stores.values()].filter(
			(entry) => entry.production && entry.workflowId === workflowId,
		);
	}

	/**
	 * Drops a trigger's stores (n8n deactivated it); the next delivery reads its static data. A
	 * store with accepted events waiting for their execution stays until it is idle and empty.
	 */
	release(workflowId: string, nodeId: string): void {
		for (const [key, entry] of this.stores)
			if (entry.workflowId === workflowId && entry.nodeId === nodeId && settled(entry))
				this.stores.delete(key);
	}

	get size(): number {
		return this.stores.size;
	}

	/** Forgets every store, as a process restart does. */
	clear(): void {
		this.stores.clear();
		this.process = newProcess();
	}

	private dropIdle(nowMs: number): void {
		// A look at every store, at most once a minute: a busy instance holds many.
		if (nowMs - this.sweptMs < SWEEP_EVERY_MS && nowMs >= this.sweptMs) return;
		this.sweptMs = nowMs;
		for (const [key, entry] of this.stores)
			if (nowMs - entry.lastUsedMs > IDLE_STORE_MS && settled(entry)) this.stores.delete(key);
	}
}

/** Everything the store knows is in the static data: nothing would be lost by dropping it. */
const settled = (entry: RegistryEntry) =>
	entry.store.pendingCount === 0 && entry.store.unsavedStarts === 0;

export const dedupeRegistry = new DedupeRegistry();

function newProcess(): { id: string; startedMs?: number } {
	return { id: randomUUID().slice(0, 8) };
}
