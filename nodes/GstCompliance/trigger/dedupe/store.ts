/**
 * Which store keeps a trigger's ledger (lifecycle.ts): Redis when a GST Compliance Dedupe Redis
 * credential is attached (redis/, shared by every n8n process, keyed by workflow, node id and
 * namespace; static data unused), otherwise the process's own (memory/, kept in the workflow's
 * static data). The lifecycle is the same whichever it is.
 */
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { CREDENTIAL } from '../../credentialNames';

import { ledgerScope, triggerKey, type TriggerId } from './keys';
import type { AcceptanceMark, EventLedger } from './lifecycle';
import type { DedupeOptions } from './memory/memoryStore';
import { memoryLedger, type MemorySite } from './memory/persistence';
import { redisClients } from './redis/redisClients';
import { redisDedupeStore } from './redis/redisCredential';
import { RedisCredentialMissingError } from './redis/redisSettings';
import { thisProcess } from './thisProcess';

/**
 * The most ids the built-in store keeps (its memory and static data; docs/trigger.md has the
 * measured sizes). It asks for Redis long before, from memory/capacity.ts's ATTACH_REDIS_FROM.
 */
export const DEDUPE_CAPACITY = 125_000;

/** A ledger as the trigger uses it: the lifecycle's steps, and what to tell the user about it. */
export interface TriggerLedger extends EventLedger {
	/** A note for the started item when the built-in store should give way to Redis. */
	notice?(): string | undefined;
	/**
	 * Whether the delivery of `eventId` may be answered 2xx, its acceptance kept where a restart
	 * finds it: true when it is already (Redis ran the script), or a promise (the built-in store:
	 * true once a request's static data or its execution shows n8n saved it, false when nothing
	 * does in time; memory/unsavedAcceptances.ts).
	 */
	durable(eventId: string): true | Promise<boolean>;
}

/** The trigger as the dedupe code needs it: the built-in store's view, and the Redis credential. */
export interface DedupeSite extends MemorySite {
	/** The attached GST Compliance Dedupe Redis credential's data (a lazy read); absent without one. */
	redisCredential?: () => Promise<ICredentialDataDecryptedObject>;
}

/** This process, accepting a delivery now, as the acceptance's mark names it. */
export function thisAcceptor(nowMs: number): Pick<AcceptanceMark, 'process' | 'acceptedMs'> {
	return { process: thisProcess.id, acceptedMs: nowMs };
}

/**
 * The ledger for this delivery or execution: Redis when a Redis credential is attached (throws
 * DedupeUnavailableError when it does not answer), otherwise the process's own.
 */
export async function openLedger(site: DedupeSite, options: DedupeOptions): Promise<TriggerLedger> {
	if (site.redisCredential)
		return await redisDedupeStore(await site.redisCredential(), {
			scope: ledgerScope(site),
			windowMs: options.windowMs,
			user: triggerKey(site),
			warn: site.warn,
		});
	return memoryLedger(site, options);
}

/**
 * Lets go of what this process holds for a trigger n8n deactivated: the Redis client no other
 * trigger uses, once no work runs on it. The built-in store stays (registry.ts): a publish
 * deactivates and activates the trigger, and the static data may hold an older copy of its ids.
 */
export function releaseTrigger(trigger: TriggerId): void {
	redisClients.release(triggerKey(trigger));
}

/**
 * Whether the trigger uses Redis: version 3 says so in Dedupe Store (a credential left attached
 * after choosing Built-In is not used, n8n hides it), versions 1 and 2 by attaching the credential.
 * Throws RedisCredentialMissingError when Redis is chosen and no credential is selected.
 */
export function usesRedis(node: INode): boolean {
	const attached = !!node.credentials?.[CREDENTIAL.redis];
	const chosen = node.parameters?.dedupeStore;
	if (chosen === 'builtIn') return false;
	if (chosen === 'redis' && !attached) throw new RedisCredentialMissingError();
	return attached;
}
