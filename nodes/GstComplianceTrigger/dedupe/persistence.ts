/**
 * Where the trigger's dedupe memory lives between deliveries and across restarts.
 *
 * - One store per workflow node and namespace for the life of the process (`dedupeRegistry`). The
 *   persisted snapshot is read on first use only, so the in-process store stays the source of
 *   truth afterwards: n8n saves static data without a lock, and the last writer wins.
 * - Production deliveries persist the store in the node's static data after each new id.
 *   Test-URL deliveries (manual mode) get their own in-memory store: n8n does not save static data
 *   for them, and they must never mark an id that production will receive.
 * - The 200 for an accepted event is sent only after n8n has created the execution and the id is
 *   in static data. n8n 2.41 creates the execution from a fresh Workflow over the same static-data
 *   object, which resets its "changed" flag, so the write made while claiming is not saved. n8n
 *   reads `webhookResponse` after creating the execution and saves static data right after that
 *   read, so `acceptedResponse` re-applies the write in a getter. Per event: execution created →
 *   id saved → 200 sent. A crash between the first two steps starts that event again on
 *   redelivery; answering before the execution exists would lose it instead.
 * - With a Redis credential attached, the store is Redis (dedupe/redisStore.ts), shared by every
 *   n8n process, under the same key; static data is not used, and `persist` is the store's second
 *   step (confirm), made in the same getter, once the execution exists.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { checkCapacity } from './capacity';
import type { DedupeOptions, DedupeStore } from './memoryStore';
import { MemoryDedupeStore } from './memoryStore';
import { hasRedisCredential, redisDedupeStore } from './redisDedupe';

export const DEFAULT_WINDOW_HOURS = 24;
/** 100,000 ids a day fit with room to spare; docs/trigger.md has the measured sizes. */
export const DEDUPE_CAPACITY = 125_000;
const STATIC_DATA_KEY = 'dedupe';

/** How long an id is remembered: the window plus the timestamp tolerance (a replay's reach). */
export function dedupeOptions(windowHours: number, toleranceSeconds: number): DedupeOptions {
	return { windowMs: (windowHours * 3600 + toleranceSeconds) * 1000, capacity: DEDUPE_CAPACITY };
}

/** One store per key (workflow, node and namespace) for the life of the process. */
export class DedupeRegistry {
	private readonly stores = new Map<string, MemoryDedupeStore>();

	get(key: string, options: DedupeOptions, create: () => MemoryDedupeStore): MemoryDedupeStore {
		let store = this.stores.get(key);
		if (!store) {
			store = create();
			this.stores.set(key, store);
		}
		store.configure(options);
		return store;
	}

	/** Forgets every store, as a process restart would (tests). */
	clear(): void {
		this.stores.clear();
	}
}

export const dedupeRegistry = new DedupeRegistry();

export interface NodeDedupe {
	store: DedupeStore;
	/**
	 * Called once the execution of a new event exists: writes the store into static data (a no-op
	 * for test deliveries), or confirms the Redis claim of `eventId`.
	 */
	persist: (eventId: string) => void;
}

/**
 * The store for this delivery: Redis when a Redis credential is attached (throws
 * DedupeUnavailableError when it does not answer), otherwise the process's own.
 */
export async function nodeDedupe(
	context: IWebhookFunctions,
	options: DedupeOptions,
): Promise<NodeDedupe> {
	const node = context.getNode();
	const isTest = context.getMode() === 'manual';
	const namespace = isTest ? 'test' : 'production';
	const key = `${context.getWorkflow().id ?? 'unsaved'}:${node.id}:${namespace}`;
	if (hasRedisCredential(context)) {
		const store = await redisDedupeStore(context, key, options.windowMs);
		return {
			store,
			// Runs inside n8n's read of `webhookResponse`, so it is not awaited: a failure is logged,
			// and the id then stays claimed for the pending time only (dedupe/redisStore.ts).
			persist: (eventId) =>
				void store
					.confirm(eventId)
					.catch((error: Error) =>
						context.logger.warn(
							`GST Compliance Trigger: ${error.message} (confirming a started event)`,
						),
					),
		};
	}
	if (isTest) {
		const store = dedupeRegistry.get(key, options, () => new MemoryDedupeStore(options));
		return { store, persist: () => {} };
	}

	const staticData = context.getWorkflowStaticData('node');
	const store = dedupeRegistry.get(key, options, () =>
		MemoryDedupeStore.fromSnapshot(staticData[STATIC_DATA_KEY], options),
	);
	const persist = () => {
		staticData[STATIC_DATA_KEY] = store.snapshot() as unknown as IDataObject;
	};
	return {
		store: {
			async claim(eventId: string, nowMs: number): Promise<boolean> {
				const isNew = store.claimNow(eventId, nowMs);
				if (isNew) persist();
				checkCapacity(context.logger, key, store);
				return isNew;
			},
		},
		persist,
	};
}

/**
 * Starts the workflow with `item`; the 200 is built when n8n reads it, after the execution exists.
 */
export function acceptedResponse(item: IDataObject, persist: () => void): IWebhookResponseData {
	const response: IWebhookResponseData = { workflowData: [[{ json: item }]] };
	Object.defineProperty(response, 'webhookResponse', {
		enumerable: true,
		get() {
			persist();
			return { received: true };
		},
	});
	return response;
}
