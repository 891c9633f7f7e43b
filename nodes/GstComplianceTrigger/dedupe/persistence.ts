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
 *   write lands in the save n8n makes right after that read (transport/n8nCompat.ts). Per event:
 *   execution created → id saved → 200 sent.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { CapacityWatch } from './capacity';
import type { Claim, ClaimStore } from './lifecycle';
import type { DedupeOptions } from './memoryStore';
import { MemoryDedupeStore } from './memoryStore';
import { hasRedisCredential, redisDedupeStore } from './redisCredential';

/**
 * The most ids the store keeps (its memory and static data; docs/trigger.md has the measured sizes).
 * It asks for Redis long before, from capacity.ts's ATTACH_REDIS_FROM.
 */
export const DEDUPE_CAPACITY = 125_000;
/** Where version 0.1.0 kept the snapshot: the node's static data, keyed by node name. */
const LEGACY_NODE_KEY = 'dedupe';

/** The global static-data key of one trigger node's remembered ids. */
export function staticDataKey(nodeId: string): string {
	return `dedupe:${nodeId}`;
}

/**
 * One store per key (workflow, node and namespace) for the life of the process, with the watch that
 * says when it should give way to Redis.
 */
export class DedupeRegistry {
	private readonly stores = new Map<string, { store: MemoryDedupeStore; watch: CapacityWatch }>();

	get(
		key: string,
		options: DedupeOptions,
		create: () => MemoryDedupeStore,
	): { store: MemoryDedupeStore; watch: CapacityWatch } {
		let entry = this.stores.get(key);
		if (!entry) {
			entry = { store: create(), watch: new CapacityWatch() };
			this.stores.set(key, entry);
		}
		entry.store.configure(options);
		return entry;
	}

	/** Forgets every store, as a process restart does. */
	clear(): void {
		this.stores.clear();
	}
}

/**
 * Process-wide because n8n gives a webhook no state of its own between requests: the in-process
 * memory must outlive each delivery's context.
 */
export const dedupeRegistry = new DedupeRegistry();

/** A store as the trigger uses it: the lifecycle's steps, and what to tell the user about it. */
export interface TriggerDedupe extends ClaimStore {
	/** A note for the started item when the built-in store should give way to Redis. */
	notice?(): string | undefined;
}

/**
 * The store for this delivery: Redis when a Redis credential is attached (throws
 * DedupeUnavailableError when it does not answer), otherwise the process's own.
 */
export async function nodeDedupe(
	context: IWebhookFunctions,
	options: DedupeOptions,
): Promise<TriggerDedupe> {
	const node = context.getNode();
	const isTest = context.getMode() === 'manual';
	const namespace = isTest ? 'test' : 'production';
	const key = `${context.getWorkflow().id ?? 'unsaved'}:${node.id}:${namespace}`;
	if (hasRedisCredential(context)) return await redisDedupeStore(context, key, options.windowMs);
	if (isTest) return dedupeRegistry.get(key, options, () => new MemoryDedupeStore(options)).store;

	const global = context.getWorkflowStaticData('global');
	const persistedKey = staticDataKey(node.id);
	const { store, watch } = dedupeRegistry.get(key, options, () => {
		if (global[persistedKey] === undefined) moveLegacySnapshot(context, global, persistedKey);
		return MemoryDedupeStore.fromSnapshot(global[persistedKey], options);
	});
	return {
		claim: async (eventId, nowMs, leaseMs) => await store.claim(eventId, nowMs, leaseMs),
		renew: async (claim, nowMs, leaseMs) => await store.renew(claim, nowMs, leaseMs),
		release: async (claim) => await store.release(claim),
		notice: () => watch.notice(store),
		// Synchronous up to the write: n8n saves static data right after reading the answer.
		commit: async (claim: Claim, nowMs: number) => {
			store.commitNow(claim, nowMs);
			global[persistedKey] = store.snapshot() as unknown as IDataObject;
			watch.check(context.logger, key, store);
		},
	};
}

/** Moves the snapshot of an earlier version to its new key; both changes land in one save. */
function moveLegacySnapshot(context: IWebhookFunctions, global: IDataObject, key: string): void {
	const nodeData = context.getWorkflowStaticData('node');
	const legacy = nodeData[LEGACY_NODE_KEY];
	if (legacy === undefined) return;
	global[key] = legacy;
	delete nodeData[LEGACY_NODE_KEY];
}
