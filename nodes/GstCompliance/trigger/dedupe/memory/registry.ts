/**
 * The built-in store's memory between deliveries: one store per workflow and trigger node
 * (production's: Test-URL deliveries keep no ids) for the life of the process, with the watch
 * that says when it should give way to Redis. Process-wide because n8n gives a webhook no state of its own between
 * requests, and because the execution that starts an event runs in the same process as the
 * delivery that accepted it (regular mode).
 */
import { ledgerScope, type TriggerId } from '../keys';
import { CapacityWatch } from './capacity';
import { OtherProcesses } from './processMarkers';
import { UnsavedAcceptances } from './unsavedAcceptances';
import type { DedupeOptions, MemoryDedupeStore } from './memoryStore';
import { isDue } from '../../../throttle';
import { renewThisProcess, thisProcess } from '../thisProcess';

/**
 * A store no delivery or execution has used for this long, and for longer than its dedupe window,
 * is dropped, unless an accepted event waits in it or a start is not saved yet (it would be lost).
 * By then every id it holds has expired, so reading the static data again loses nothing, even a
 * copy another node's execution saved over newer ids (memoryLedger.ts).
 */
export const IDLE_STORE_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface RegistryEntry {
	store: MemoryDedupeStore;
	/**
	 * Which saved snapshot the store holds (memoryLedger.ts): none yet; an execution's copy, which
	 * may be none at all (n8n runs recovered, retried and queue-mode executions without static
	 * data); or the row's, which a webhook loads. The row's is read into it once.
	 */
	read: 'nothing' | 'executionCopy' | 'row';
	watch: CapacityWatch;
	workflowId: string;
	nodeId: string;
	lastUsedMs: number;
	/** The other processes that save this trigger's ids, as this one sees them (processMarkers.ts). */
	others: OtherProcesses;
	/** Acceptances not yet shown to be in the database, and the deliveries waiting on them. */
	unsaved: UnsavedAcceptances;
}

/**
 * One store per trigger (its production ledger: Test-URL deliveries keep no ids), kept while n8n deactivates and activates the
 * trigger (a publish), since the static data may hold an older copy of its ids by then. A store
 * idle for longer than IDLE_STORE_MS and its window is dropped once everything it knows is in the
 * static data (no accepted event waits in it, every start saved); the next delivery reads them.
 */
export class DedupeRegistry {
	private readonly stores = new Map<string, RegistryEntry>();
	private sweptMs = -Infinity;

	get(
		trigger: TriggerId,
		options: DedupeOptions,
		create: () => MemoryDedupeStore,
		nowMs = Date.now(),
	): RegistryEntry {
		thisProcess.startedMs ??= nowMs;
		this.dropIdle(nowMs);
		const key = ledgerScope(trigger);
		let entry = this.stores.get(key);
		if (!entry) {
			entry = {
				store: create(),
				read: 'nothing',
				watch: new CapacityWatch(),
				workflowId: trigger.workflowId,
				nodeId: trigger.nodeId,
				lastUsedMs: nowMs,
				others: new OtherProcesses(),
				unsaved: new UnsavedAcceptances(),
			};
			this.stores.set(key, entry);
		}
		entry.lastUsedMs = nowMs;
		entry.store.configure(options);
		return entry;
	}

	/** The stores this process holds for one workflow (every trigger node of it). */
	ofWorkflow(workflowId: string): RegistryEntry[] {
		return [...this.stores.values()].filter((entry) => entry.workflowId === workflowId);
	}

	get size(): number {
		return this.stores.size;
	}

	/** Forgets every store, and this process's id, as a process restart does. */
	clear(): void {
		this.stores.clear();
		renewThisProcess();
	}

	private dropIdle(nowMs: number): void {
		// A look at every store, at most once a minute: a busy instance holds many.
		if (!isDue(this.sweptMs, nowMs, SWEEP_EVERY_MS)) return;
		this.sweptMs = nowMs;
		for (const [key, entry] of this.stores)
			if (nowMs - entry.lastUsedMs > idleFor(entry) && settled(entry)) this.stores.delete(key);
	}
}

/** How long a store stays unused before it may go: until every id it holds has expired. */
const idleFor = (entry: RegistryEntry) => Math.max(IDLE_STORE_MS, entry.store.windowMs);

/** Everything the store knows is in the static data: nothing would be lost by dropping it. */
const settled = (entry: RegistryEntry) =>
	entry.store.pendingCount === 0 && entry.store.unsavedStarts === 0 && entry.unsaved.size === 0;

export const dedupeRegistry = new DedupeRegistry();
