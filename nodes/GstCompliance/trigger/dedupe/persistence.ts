/**
 * Which store remembers the trigger's event ids, and where that memory lives between deliveries
 * and across restarts. The lifecycle (lifecycle.ts) is the same whichever it is.
 *
 * - With a Redis credential attached, the store is Redis (redisStore.ts), shared by every n8n
 *   process, keyed by workflow, node id and namespace; static data is not used.
 * - Otherwise one in-process store per workflow, node id and namespace for the life of the
 *   process (`dedupeRegistry`). Production deliveries write its committed ids into the workflow's
 *   static data at each commit, under the node's id (`dedupe:<node id>` in the global static
 *   data), so renaming the node keeps them; the persisted snapshot is read on first use only, so
 *   the in-process store stays the source of truth afterwards (n8n saves static data without a
 *   lock, and the last writer wins). Ids persisted by version 0.1.0 under the node's name are read
 *   once and moved.
 * - Test-URL deliveries (manual mode) get their own in-memory store: n8n does not save static data
 *   for them, and they must never mark an id that production will receive.
 * - The commit runs when n8n reads the answer, after the execution exists, and its static-data
 *   write lands in the save n8n makes right after that read (n8nCompat.ts). Per event:
 *   execution created → id saved → 200 sent.
 */
import { randomUUID } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { CapacityWatch } from './capacity';
import type { Claim, ClaimStore } from './lifecycle';
import type { DedupeOptions } from './memoryStore';
import { MemoryDedupeStore } from './memoryStore';
import { redisClients } from './redisClients';
import { redisDedupeStore } from './redisCredential';

/**
 * The most ids the store keeps (its memory and static data; docs/trigger.md has the measured sizes).
 * It asks for Redis long before, from capacity.ts's ATTACH_REDIS_FROM.
 */
export const DEDUPE_CAPACITY = 125_000;
/** Where version 0.1.0 kept the snapshot: the node's static data, keyed by node name. */
const LEGACY_NODE_KEY = 'dedupe';
/** A store no delivery has used this long, holding no lease, is dropped (read again on next use). */
export const IDLE_STORE_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 60_000;
/** Another process's marker counts as live this long after it was last written. */
export const PROCESS_LIVE_MS = 60 * 60_000;
const OTHER_PROCESS_WARN_EVERY_MS = 10 * 60_000;

/** The global static-data key of one trigger node's remembered ids. */
export function staticDataKey(nodeId: string): string {
	return `dedupe:${nodeId}`;
}

/** The global static-data key of the processes that saved this trigger's ids: id → [start, last]. */
export function processesKey(nodeId: string): string {
	return `${staticDataKey(nodeId)}:processes`;
}

interface RegistryEntry {
	store: MemoryDedupeStore;
	watch: CapacityWatch;
	workflowId: string;
	nodeId: string;
	production: boolean;
	lastUsedMs: number;
	otherProcessWarnedMs: number;
}

/**
 * One store per key (workflow, node and namespace) for the life of the process, with the watch that
 * says when it should give way to Redis. A store of a trigger n8n deactivated, or that no delivery
 * used for IDLE_STORE_MS, is dropped: its ids are in the static data it was read from.
 */
export class DedupeRegistry {
	private readonly stores = new Map<string, RegistryEntry>();
	private sweptMs = -Infinity;
	/**
	 * This process as its marker in the static data names it, from its first delivery on. A
	 * restarted process is a new one that started after the old one's last save, so the old marker
	 * never counts as another live process.
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
	 * store a delivery still holds a lease in stays until it is idle.
	 */
	release(workflowId: string, nodeId: string, nowMs = Date.now()): void {
		for (const [key, entry] of this.stores)
			if (
				entry.workflowId === workflowId &&
				entry.nodeId === nodeId &&
				!entry.store.holdsLeases(nowMs)
			)
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
			if (nowMs - entry.lastUsedMs > IDLE_STORE_MS && !entry.store.holdsLeases(nowMs))
				this.stores.delete(key);
	}
}

/**
 * Process-wide because n8n gives a webhook no state of its own between requests: the in-process
 * memory must outlive each delivery's context.
 */
export const dedupeRegistry = new DedupeRegistry();

function newProcess(): { id: string; startedMs?: number } {
	return { id: randomUUID().slice(0, 8) };
}

/** A store as the trigger uses it: the lifecycle's steps, and what to tell the user about it. */
export interface TriggerDedupe extends ClaimStore {
	/** A note for the started item when the built-in store should give way to Redis. */
	notice?(): string | undefined;
}

/**
 * The trigger and its delivery as the dedupe code needs them, read from n8n by webhook.ts: plain
 * values, and the few reads that must stay lazy (static data is written back by n8n when touched;
 * a credential read is a database read and a decryption).
 */
export interface DedupeSite {
	/** The workflow's id; `unsaved` before its first save. */
	workflowId: string;
	nodeId: string;
	/** A Test-URL delivery (n8n's manual mode). */
	test: boolean;
	/** The workflow's static data (n8n's `getWorkflowStaticData`), read by the built-in store only. */
	staticData(type: 'global' | 'node'): IDataObject;
	/** The attached GST Compliance Dedupe Redis credential's data; absent without one. */
	redisCredential?: () => Promise<ICredentialDataDecryptedObject>;
	warn(message: string): void;
}

/**
 * The store for this delivery: Redis when a Redis credential is attached (throws
 * DedupeUnavailableError when it does not answer), otherwise the process's own.
 */
export async function nodeDedupe(site: DedupeSite, options: DedupeOptions): Promise<TriggerDedupe> {
	const { workflowId, nodeId } = site;
	const key = `${workflowId}:${nodeId}:${site.test ? 'test' : 'production'}`;
	if (site.redisCredential)
		return await redisDedupeStore(await site.redisCredential(), {
			scope: key,
			windowMs: options.windowMs,
			user: `${workflowId}:${nodeId}`,
			warn: site.warn,
		});
	if (site.test)
		return dedupeRegistry.get(key, options, () => new MemoryDedupeStore(options)).store;

	const global = site.staticData('global');
	const persistedKey = staticDataKey(nodeId);
	const entry = dedupeRegistry.get(key, options, () => {
		if (global[persistedKey] === undefined) moveLegacySnapshot(site, global, persistedKey);
		return MemoryDedupeStore.fromSnapshot(global[persistedKey], options);
	});
	const { store, watch } = entry;
	const otherProcess = otherLiveProcess(global[processesKey(nodeId)], Date.now());
	if (otherProcess && Date.now() - entry.otherProcessWarnedMs >= OTHER_PROCESS_WARN_EVERY_MS) {
		entry.otherProcessWarnedMs = Date.now();
		site.warn(`${otherProcess} (${key})`);
	}
	return {
		claim: async (eventId, nowMs, leaseMs) => await store.claim(eventId, nowMs, leaseMs),
		renew: async (claim, nowMs, leaseMs) => await store.renew(claim, nowMs, leaseMs),
		release: async (claim) => await store.release(claim),
		notice: () => [otherProcess, watch.notice(store)].filter(Boolean).join(' ') || undefined,
		// Synchronous up to the write: n8n saves static data right after reading the answer.
		commit: async (claim: Claim, nowMs: number) => {
			store.commitNow(claim, nowMs);
			saveAll(global, workflowId);
			global[persistedKey] = store.snapshot() as unknown as IDataObject;
			markThisProcess(global, nodeId, nowMs);
			// A save that overlapped the move may have brought the legacy snapshot back.
			const nodeData = site.staticData('node');
			if (nodeData[LEGACY_NODE_KEY] !== undefined) delete nodeData[LEGACY_NODE_KEY];
			watch.check(site, key, store);
		},
	};
}

/**
 * Forgets what this process holds for a trigger n8n deactivated: its built-in store (its ids are
 * in the static data) and the Redis client no other trigger uses.
 */
export function releaseTrigger(workflowId: string, nodeId: string): void {
	dedupeRegistry.release(workflowId, nodeId);
	redisClients.release(`${workflowId}:${nodeId}`);
}

/**
 * Writes the snapshot of every trigger of the workflow this process holds, not only the committing
 * one's: n8n saves the whole static data it loaded for this request (unlocked, last writer wins),
 * so a key left as loaded would overwrite what another trigger's request saved meanwhile.
 */
function saveAll(global: IDataObject, workflowId: string): void {
	for (const entry of dedupeRegistry.production(workflowId))
		global[staticDataKey(entry.nodeId)] = entry.store.snapshot() as unknown as IDataObject;
}

/** Writes this process's marker (start, last save), dropping markers not written for a long time. */
function markThisProcess(global: IDataObject, nodeId: string, nowMs: number): void {
	const loaded = global[processesKey(nodeId)];
	const markers: IDataObject = {};
	if (typeof loaded === 'object' && loaded !== null)
		for (const [id, marker] of Object.entries(loaded))
			if (isMarker(marker) && nowMs - marker[1] < PROCESS_LIVE_MS) markers[id] = marker;
	const { id, startedMs = nowMs } = dedupeRegistry.process;
	markers[id] = [startedMs, nowMs];
	global[processesKey(nodeId)] = markers;
}

/**
 * What to tell the user when another process saved this trigger's ids since this one started:
 * both receive its deliveries, and each remembers ids in its own memory only.
 */
function otherLiveProcess(markers: unknown, nowMs: number): string | undefined {
	if (typeof markers !== 'object' || markers === null) return undefined;
	const { id: self, startedMs = nowMs } = dedupeRegistry.process;
	const others = Object.entries(markers).filter(
		([id, marker]) =>
			id !== self &&
			isMarker(marker) &&
			marker[1] >= startedMs &&
			nowMs - marker[1] < PROCESS_LIVE_MS,
	);
	if (others.length === 0) return undefined;
	return `Another n8n process is receiving this GST Compliance Trigger's deliveries too (${others.length + 1} processes, e.g. several webhook processes or mains), and the built-in dedupe store remembers event ids in each process's own memory: a redelivery that reaches another process starts the workflow again. Attach a GST Compliance Dedupe Redis credential to the trigger, so every process shares one record.`;
}

function isMarker(value: unknown): value is [number, number] {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		Number.isFinite(value[0]) &&
		Number.isFinite(value[1])
	);
}

/** Moves the snapshot of an earlier version to its new key; both changes land in one save. */
function moveLegacySnapshot(site: DedupeSite, global: IDataObject, key: string): void {
	const nodeData = site.staticData('node');
	const legacy = nodeData[LEGACY_NODE_KEY];
	if (legacy === undefined) return;
	global[key] = legacy;
	delete nodeData[LEGACY_NODE_KEY];
}
