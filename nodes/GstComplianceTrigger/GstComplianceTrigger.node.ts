import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testGstComplianceCredentials } from '../../transport/credential/credentialTest';
import { dedupeRegistry } from './dedupe/persistence';
import { redisClients } from './dedupe/redisClients';
import { testRedisCredential } from './dedupe/redisCredential';
import {
	activationMessage,
	eventTriggerDescription,
	properties,
	triggerPanel,
} from './description';
import {
	TRIGGER_DEFAULT_VERSION,
	TRIGGER_VERSIONS,
	TRIGGER_WEBHOOK,
} from '../../transport/n8nCompat';
import { checkSigningSecrets } from './secretCheck';
import { handleWebhook } from './webhook';

/** Starts a workflow once per verified event; the work happens in webhook.ts. */
export class GstComplianceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GST Compliance Trigger',
		name: 'gstComplianceTrigger',
		icon: {
			light: 'file:../../icons/gstCompliance.svg',
			dark: 'file:../../icons/gstCompliance.dark.svg',
		},
		group: ['trigger'],
		version: TRIGGER_VERSIONS,
		defaultVersion: TRIGGER_DEFAULT_VERSION,
		subtitle: '={{$parameter["events"].join(", ")}}',
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
				required: true,
				testedBy: 'gstComplianceWebhookSecretCheck',
			},
			{
				name: 'gstComplianceApi',
				required: false,
				displayOptions: { show: { refetch: [true] } },
				testedBy: 'testGstComplianceCredentials',
			},
			{
				name: 'gstComplianceRedisApi',
				required: false,
				testedBy: 'gstComplianceRedisCheck',
			},
		],
		webhooks: [TRIGGER_WEBHOOK],
		properties,
	};

	methods = {
		credentialTest: {
			testGstComplianceCredentials,
			async gstComplianceWebhookSecretCheck(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkSigningSecrets(credential.data);
			},
			async gstComplianceRedisCheck(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return await testRedisCredential(credential.data);
			},
		},
	};

	// Subscriptions are made in the service's dashboard only (docs/service-api.md: no API for
	// them), so activation registers nothing remotely; these hooks satisfy n8n's trigger lifecycle.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				// The built-in store's ids are in the static data; its memory goes with the trigger,
				// and so does a Redis client no other trigger uses.
				const workflowId = this.getWorkflow().id ?? 'unsaved';
				dedupeRegistry.release(workflowId, this.getNode().id);
				redisClients.release(`${workflowId}:${this.getNode().id}`);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleWebhook.call(this);
	}
}
