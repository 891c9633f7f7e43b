/**
 * Every name the trigger keeps state under, built here and read back here only (BullMQ's
 * `QueueKeys` is the model): the process's maps and log runs, the workflow's static data, and
 * Redis. A trigger is its workflow and node ids; the node's id survives a rename, so everything
 * keyed by it does too. Test-URL deliveries keep no ids, so every ledger name is production's.
 */
import { eventDigest } from './eventDigest';

/** One trigger: the workflow (`unsaved` before its first save) and the node's id. */
export interface TriggerId {
	readonly workflowId: string;
	readonly nodeId: string;
}

/** The trigger of a node in a workflow, saved (with an id) or not yet. */
export function triggerId(workflowId: string | undefined, nodeId: string): TriggerId {
	return { workflowId: workflowId ?? 'unsaved', nodeId };
}

/** The trigger in this process's maps (Redis clients' users, log runs, overdue looks). */
export function triggerKey({ workflowId, nodeId }: TriggerId): string {
	return `${workflowId}:${nodeId}`;
}

/** One thing said or done per trigger and `what` (a note, a refusal's reason, a mode). */
export function triggerRunKey(trigger: TriggerId, what: string): string {
	return `${triggerKey(trigger)}:${what}`;
}

/** A saved credential in the process's cache of decrypted credentials (credentialCache.ts). */
export function credentialKey(type: string, credentialId: string): string {
	return `${type}:${credentialId}`;
}

/**
 * A ledger's name: the built-in store's registry entry and the Redis keys' scope. Only this file
 * makes one, so a store cannot be handed any other string.
 */
export type LedgerScope = string & { readonly __ledgerScope: true };

/** The trigger's ledger. */
export function ledgerScope(trigger: TriggerId): LedgerScope {
	return triggerKey(trigger) as LedgerScope;
}

/**
 * A ledger of the credential test's own (`id` fresh per test), which no trigger ever reads: three
 * segments, where a trigger's has two (n8n's node ids hold no colon).
 */
export function probeScope(id: string): LedgerScope {
	return `credential-test:probe:${id}` as LedgerScope;
}

/** Where version 0.1.0 kept the snapshot: the node's static data, keyed by the node's name. */
export const LEGACY_SNAPSHOT_KEY = 'dedupe';

/** The global static-data key of one trigger's remembered ids (memory/snapshotFormat.ts). */
export function snapshotKey(nodeId: string): string {
	return `dedupe:${nodeId}`;
}

/** The global static-data key of the processes that saved them (memory/processMarkers.ts). */
export function processesKey(nodeId: string): string {
	return `${snapshotKey(nodeId)}:processes`;
}

/**
 * What a global static-data key names, when it has this package's shape: a node's snapshot or
 * its process markers. Whether the value is this package's own is for its reader to check.
 */
export function readStaticDataKey(
	key: string,
): { nodeId: string; holds: 'snapshot' | 'processes' } | undefined {
	const [, nodeId, markers] = /^dedupe:(.+?)(:processes)?$/.exec(key) ?? [];
	if (nodeId === undefined) return undefined;
	return { nodeId, holds: markers ? 'processes' : 'snapshot' };
}

/** Every Redis key the package writes starts with this; `v1` changes with their meaning. */
export const REDIS_PREFIX = 'n8n-gst-compliance:dedupe:v1';

/**
 * The key a Redis master's replica barrier writes (redis/replicaWait.ts); on a cluster, with the
 * hash tag `{tag}` that puts it on that master's slots.
 */
export function replicaMarkerKey(tag?: number): string {
	const key = `${REDIS_PREFIX}:replica-barrier`;
	return tag === undefined ? key : `${key}:{${tag}}`;
}

/**
 * One event's key in a ledger scope: 132 bits of its id's SHA-256, base64url, so ids of any
 * length make keys of one size.
 */
export function redisEventKey(scope: LedgerScope, eventId: string): string {
	return `${REDIS_PREFIX}:${scope}:${eventDigest(eventId).slice(0, 22)}`;
}

/**
 * The delivery an event was accepted with (its body, base64), kept until its start so a lost
 * execution can be delivered again (redis/redisStore.ts).
 */
export function redisDeliveryKey(scope: LedgerScope, eventId: string): string {
	return `${redisEventKey(scope, eventId)}:delivery`;
}

/** The sorted set of one ledger scope's accepted ids. */
export function redisAcceptedKey(scope: LedgerScope): string {
	return `${REDIS_PREFIX}:${scope}:accepted`;
}
