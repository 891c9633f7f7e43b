/**
 * The trigger as n8n shows it to both of its entry points, webhook() (webhook.ts) and the
 * execution's first step (execution.ts), read once per call (`readTrigger`): which trigger it is,
 * its credentials (cached a few seconds), and the dedupe code's view of it (`DedupeSite`). The
 * only place besides those two that reads n8n's context. n8n's IWebhookFunctions and
 * IExecuteFunctions are both a TriggerContext as they are: no cast.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	Logger,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import { staticParameter, workflowNodeIds } from '../n8nCompat';
import { cachedCredentials } from './credentialCache';
import { credentialKey, triggerId, type TriggerId } from './dedupe/keys';
import { usesRedis, type DedupeSite } from './dedupe/store';
import { logLine, type LoggedTrigger } from './triggerLog';

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
export function triggerOf(context: Pick<TriggerContext, 'getWorkflow' | 'getNode'>): TriggerId {
	return triggerId(context.getWorkflow().id, context.getNode().id);
}

/**
 * The trigger as one call of an entry point reads it from n8n, once: which trigger, whether the
 * call is a Test-URL delivery or the execution it started (n8n's manual mode), where its log
 * lines go, its credentials and the dedupe code's view.
 */
export interface Trigger extends LoggedTrigger {
	/** n8n's copy of the node, taken once: each `getNode()` is a deep copy. */
	readonly node: INode;
	readonly test: boolean;
	/**
	 * A parameter as saved, or as n8n resolves it where it holds an expression (n8nCompat.ts, 13.);
	 * `fallback` where it is not set.
	 */
	parameter<T>(name: string, fallback: T): T;
	/** A credential, cached a few seconds; a Test-URL call reads afresh (it may just be edited). */
	credential(type: string): Promise<ICredentialDataDecryptedObject>;
	/** The dedupe code's view; `writable` for a webhook, whose static data n8n saves after it. */
	site(writable: boolean): DedupeSite;
}

export function readTrigger(
	context: TriggerContext,
	resolve: (name: string, fallback: unknown) => unknown,
): Trigger {
	const node = context.getNode();
	const test = context.getMode() === 'manual';
	const warn = (message: string) => context.logger.warn(logLine(trigger, message));
	const credential = async (type: string) => {
		const id = node.credentials?.[type]?.id;
		const key = id && !test ? credentialKey(type, id) : undefined;
		return await cachedCredentials(key, async () => await context.getCredentials(type));
	};
	const trigger: Trigger = {
		...triggerId(context.getWorkflow().id, node.id),
		nodeName: node.name,
		node,
		test,
		parameter: <T>(name: string, fallback: T) =>
			staticParameter(node.parameters, name, fallback) ?? (resolve(name, fallback) as T),
		warn,
		credential,
		site: (writable) => {
			let hasRedis: boolean;
			let missing: Error | undefined;
			try {
				hasRedis = usesRedis(node);
			} catch (error) {
				[hasRedis, missing] = [true, error as Error];
			}
			return {
				workflowId: trigger.workflowId,
				nodeId: trigger.nodeId,
				writable,
				staticData: (type) => context.getWorkflowStaticData(type),
				nodeIds: () => workflowNodeIds(context),
				redisCredential: hasRedis
					? async () => {
							if (missing) throw missing;
							return await credential(CREDENTIAL.redis);
						}
					: undefined,
				warn,
			};
		},
	};
	return trigger;
}
