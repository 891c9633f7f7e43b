import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeCredentialDescription,
	INodeExecutionData,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, VersionedNodeType } from 'n8n-workflow';

import { CREDENTIAL } from './credentialNames';

import { testGstComplianceCredentials } from './credential/connectionCheck';
import {
	gstComplianceRedisCheck,
	gstComplianceWebhookSecretCheck,
} from './trigger/credentialTests';
import { releaseTrigger, usesRedis } from './trigger/dedupe/store';
import {
	activationMessage,
	eventTriggerDescription,
	properties,
	triggerPanel,
} from './trigger/description';
import { triggerOf } from './trigger/context';
import { runExecution } from './trigger/execution';
import { usableSigningSecrets } from './trigger/secretCheck';
import { unusableSecretRemedy, unusableSecretTitle } from './trigger/refusals';
import { unreachableHost, unreachableUrlMessage } from './trigger/reachability';
import { handleWebhook } from './trigger/webhook';
import { logLine } from './trigger/triggerLog';
import { triggerId } from './trigger/dedupe/keys';

/** Each credential's Test, which every version and the node type itself offer. */
const triggerMethods = {
	credentialTest: {
		testGstComplianceCredentials,
		gstComplianceWebhookSecretCheck,
		gstComplianceRedisCheck,
	},
};

/**
 * Version 3's Redis slot: shown where Dedupe Store is Redis and required there, so n8n flags the
 * node and refuses to publish it while the slot is empty. A saved node leaves the default
 * (`builtIn`) out, and n8n's publish check reads it so: the slot is then not shown, as wanted.
 */
const requiredWhereRedis = (slot: INodeCredentialDescription): INodeCredentialDescription =>
	slot.name === CREDENTIAL.redis
		? { ...slot, required: true, displayOptions: { show: { dedupeStore: ['redis'] } } }
		: slot;

/** One version of the trigger, or versions that share one description (1 and 2). */
class TriggerVersion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GST Compliance Trigger',
		name: 'gstComplianceTrigger',
		icon: {
			light: 'file:../../icons/gstCompliance.svg',
			dark: 'file:../../icons/gstCompliance.dark.svg',
		},
		group: ['trigger'],
		// Version 2 is version 1 unchanged: n8n skips a per-request expression for nodes above
		// version 1 (n8nCompat.ts, 3.). Version 3 asks which dedupe store (the Redis slot shows only
		// for Redis, and is required there) and says store notices as execution hints, not in the
		// item.
		version: [1, 2],
		defaultVersion: 3,
		subtitle:
			'={{$parameter["events"].includes("*") ? "All Events" : $parameter["events"].join(", ")}}',
		description: 'Starts the workflow on verified e-invoice and e-way bill events',
		defaults: { name: 'GST Compliance Trigger' },
		eventTriggerDescription,
		activationMessage,
		triggerPanel,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'gstComplianceWebhookApi',
				displayName: 'Webhook Signing Secret',
				required: true,
				testedBy: 'gstComplianceWebhookSecretCheck',
			},
			{
				name: 'gstComplianceApi',
				displayName: 'API Access (for Refetch Latest State)',
				// Shown only with Refetch on; required there, so n8n flags the node while it is empty.
				// `hide`, not `show`: n8n 1.x and 2.0–2.33 editors hide a field a slot `show`s on
				// (n8nCompat.ts, 15.). `undefined` too: a saved node leaves the default out, and n8n's
				// publish check reads the parameters as saved.
				required: true,
				displayOptions: { hide: { refetch: [false, undefined] } },
				testedBy: 'testGstComplianceCredentials',
			},
			{
				name: 'gstComplianceRedisApi',
				displayName: 'Shared Dedupe Store (Redis)',
				// Versions 1 and 2 have no Dedupe Store parameter: the slot is always shown and
				// optional there (empty: the built-in store). Version 3: requiredWhereRedis.
				required: false,
				testedBy: 'gstComplianceRedisCheck',
			},
		],
		// One POST webhook, answered by the node itself (n8nCompat.ts, 5.), or on n8n 2.0–2.33 by n8n
		// once the execution exists, with the node's answer (`responseData: ''`: 1. and 2.).
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties,
	};

	methods = triggerMethods;

	constructor(version: [1, 2] | 3) {
		if (version === 3)
			this.description = {
				...this.description,
				version,
				credentials: this.description.credentials!.map(requiredWhereRedis),
			};
	}

	// Subscriptions are made in the service's dashboard only (docs/service-api.md: no API for
	// them), so activation registers nothing remotely. n8n runs checkExists when the workflow is
	// published and when the editor starts listening on the Test URL: a Signing Secret the webhook
	// would refuse every delivery with fails both there, in the message (n8n shows no description).
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const { unusable } = usableSigningSecrets(
					await this.getCredentials<Record<string, unknown>>(CREDENTIAL.webhook),
				);
				if (unusable)
					throw new NodeOperationError(
						this.getNode(),
						`${unusableSecretTitle}: ${unusableSecretRemedy(unusable)}`,
					);
				try {
					usesRedis(this.getNode());
				} catch (error) {
					throw new NodeOperationError(this.getNode(), (error as Error).message);
				}
				sayUnreachable(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				releaseTrigger(triggerOf(this));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleWebhook.call(this);
	}

	// The first step of the execution the webhook started (n8nCompat.ts, 6.).
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runExecution.call(this);
	}
}

/**
 * Starts a workflow once per verified event: webhook() accepts and answers (trigger/webhook.ts),
 * execute(), the execution's first step, starts each event once (trigger/execution.ts).
 *
 * Each version has its own description (n8nCompat.ts, 16.): version 3 requires the Redis slot
 * where Dedupe Store is Redis, which one description cannot say without also requiring it of the
 * versions 1 and 2 that have no such parameter. Saved version-1 and version-2 nodes keep working
 * as they are.
 */
export class GstComplianceTrigger extends VersionedNodeType {
	// n8n's Credential Test finds a test through `nodeVersions` only where the package shares n8n's
	// n8n-workflow (`instanceof`); with a copy installed beside the package (a manual `npm install`
	// brings the peer along) it reads the type's own slots (`base.credentials`) and these Tests.
	methods = triggerMethods;

	constructor() {
		const earlier = new TriggerVersion([1, 2]);
		const latest = new TriggerVersion(3);
		const { displayName, name, icon, group, subtitle, description, defaultVersion, credentials } =
			latest.description;
		const base: INodeTypeBaseDescription & Pick<INodeTypeDescription, 'credentials'> = {
			displayName,
			name,
			icon,
			group,
			subtitle,
			description,
			defaultVersion,
			credentials,
		};
		super({ 1: earlier, 2: earlier, 3: latest }, base);
	}
}

/**
 * A Production URL the service cannot reach (n8n builds it from its own host where WEBHOOK_URL is
 * unset) fails publishing, as an app trigger's registration would, saying how to fix it. A restart
 * or another main taking over only logs it, so a running workflow stays active; the Test URL is
 * left alone: this n8n's own sender (GST Compliance → Send Test Event) reaches it.
 */
function sayUnreachable(context: IHookFunctions): void {
	const activation = context.getActivationMode();
	if (activation === 'manual') return;
	const options = context.getNodeParameter('options', {}) as { allowLocalUrl?: unknown };
	if (options.allowLocalUrl === true) return;
	const url = context.getNodeWebhookUrl('default');
	const reason = url === undefined ? undefined : unreachableHost(url);
	if (url === undefined || reason === undefined) return;
	const message = unreachableUrlMessage(url, reason);
	if (activation === 'init' || activation === 'leadershipChange')
		context.logger.warn(
			logLine(
				{
					...triggerId(context.getWorkflow().id, context.getNode().id),
					nodeName: context.getNode().name,
				},
				message,
			),
		);
	else throw new NodeOperationError(context.getNode(), message);
}
