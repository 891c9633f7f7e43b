/**
 * Which store keeps a trigger's ledger (lifecycle.ts): Redis when a GST Compliance Dedupe Redis
 * credential is attached (redis/, shared by every n8n process, keyed by workflow and node id;
 * static data unused), otherwise the process's own (memory/, kept in the workflow's
 * static data). The lifecycle is the same whichever it is.
 */
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { CREDENTIAL } from '../../credentialNames';

import { ledgerScope, triggerKey, type TriggerId } from './keys';
import type { EventLedger } from './lifecycle';
import { memoryLedger, type MemorySite } from './memory/memoryLedger';
import { redisClients } from './redis/redisClients';
import { redisDedupeStore } from './redis/redisCredential';
import { RedisCredentialMissingError } from './redis/redisSettings';

/** The trigger as the dedupe code needs it: the built-in store's view, and the Redis credential. */
export interface DedupeSite extends MemorySite {
	/** The attached GST Compliance Dedupe Redis credential's data (a lazy read); absent without one. */
	redisCredential?: () => Promise<ICredentialDataDecryptedObject>;
}

/**
 * The ledger for this delivery or execution, remembering ids for `windowMs`: Redis when a Redis
 * credential is attached (throws DedupeUnavailableError when it does not answer), otherwise the
 * process's own (its capacity is the built-in store's, memory/capacity.ts).
 */
export async function openLedger(site: DedupeSite, windowMs: number): Promise<EventLedger> {
	if (site.redisCredential)
		return await redisDedupeStore(await site.redisCredential(), {
			scope: ledgerScope(site),
			windowMs,
			user: triggerKey(site),
			warn: site.warn,
		});
	return memoryLedger(site, { windowMs });
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
