/**
 * The trigger as n8n shows it to both of its entry points, webhook() (webhook.ts) and the
 * execution's first step (execution.ts): which trigger it is, its credentials (cached a few
 * seconds), and the dedupe code's view of it (`DedupeSite`). The only place besides those two
 * that reads n8n's context.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	Logger,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import { workflowNodeIds } from '../n8nCompat';
import { cachedCredentials } from './credentialCache';
import { RedisCredentialMissingError } from './dedupe/redis/redisSettings';
import type { DedupeSite } from './dedupe/store';
import type { LoggedTrigger } from './triggerLog';

/** What webhook() and execute() contexts both offer and the trigger reads. */
export interface TriggerContext {
	getNode(): INode;
	getWorkflow(): { id?: string };
	getMode(): WorkflowExecuteMode;
	getWorkflowStaticData(type: string): IDataObject;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(type: string): Promise<T>;
	logger: Pick<Logger, 'warn' | 'debug' | 'error' | 'info'>;
}

/**
 * The trigger as its logs and stores name it: the workflow (`unsaved` before its first save) and
 * the node's id, which survives a rename.
 */
export function triggerOf(context: Pick<TriggerContext, 'getWorkflow' | 'getNode'>): {
	workflowId: string;
	nodeId: string;
} {
	return { workflowId: context.getWorkflow().id ?? 'unsaved', nodeId: context.getNode().id };
}

/** A Test-URL delivery, or the execution it started (n8n's manual mode). */
export const isTest = (context: Pick<TriggerContext, 'getMode'>) => context.getMode() === 'manual';

/**
 * A credential of the trigger, cached for a few seconds (credentialCache.ts); a Test-URL delivery
 * reads afresh, since the user may just have edited the credential.
 */
export async function readCredential(
	context: TriggerContext,
	type: string,
): Promise<ICredentialDataDecryptedObject> {
	const id = context.getNode().credentials?.[type]?.id;
	const key = id && !isTest(context) ? `${type}:${id}` : undefined;
	return await cachedCredentials(key, async () => await context.getCredentials(type));
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

/** The dedupe code's view; `writable` for a webhook, whose static data n8n saves after it. */
export function dedupeSite(context: TriggerContext, writable: boolean): DedupeSite {
	let hasRedis: boolean;
	let missing: Error | undefined;
	try {
		hasRedis = usesRedis(context.getNode());
	} catch (error) {
		[hasRedis, missing] = [true, error as Error];
	}
	return {
		...triggerOf(context),
		writable,
		staticData: (type) => context.getWorkflowStaticData(type),
		nodeIds: () => workflowNodeIds(context),
		redisCredential: hasRedis
			? async () => {
					if (missing) throw missing;
					return await readCredential(context, CREDENTIAL.redis);
				}
			: undefined,
		warn: (message) => context.logger.warn(message),
	};
}

/** The trigger as its log lines name it (triggerLog.ts). */
export function loggedTrigger(context: TriggerContext): LoggedTrigger {
	return {
		...triggerOf(context),
		nodeName: context.getNode().name,
		warn: (message) => context.logger.warn(message),
	};
}
