import {
	NodeConnectionTypes,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { testGstComplianceCredentials } from '../../credentials/GstComplianceApi/credentialTest';
import {
	dedupeRegistry,
	MemoryDedupeStore,
	type DedupeOptions,
	type DedupeStore,
} from './dedupe/memoryStore';
import { ALL_EVENTS, EVENT_TYPES } from './events';
import { SIGNATURE_HEADER } from './signature';
import { handleDelivery } from './delivery';
import { buildOutput, type OutputShape } from './output';
import { checkSigningSecrets } from './secretCheck';

const DEFAULT_TOLERANCE_SECONDS = 300;
const DEFAULT_WINDOW_HOURS = 24;
/** 100,000 ids a day fit with room to spare; see docs/trigger.md for the measured sizes. */
const DEDUPE_CAPACITY = 125_000;
const STATIC_DATA_KEY = 'dedupe';

interface TriggerOptions {
	toleranceSeconds?: number;
	dedupeWindowHours?: number;
	outputShape?: OutputShape;
}

export class GstComplianceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GST Compliance Trigger',
		name: 'gstComplianceTrigger',
		icon: {
			light: 'file:../../icons/gstCompliance.svg',
			dark: 'file:../../icons/gstCompliance.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow on verified e-invoice and e-way bill events',
		defaults: { name: 'GST Compliance Trigger' },
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
				testedBy: 'gstComplianceApiTest',
			},
		],
		webhooks: [
			// responseData '' makes n8n answer with our webhookResponse; left undefined, n8n 2.41 answers the
			// literal text "firstEntryJson" in onReceived mode and never reads webhookResponse.
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Subscriptions are made in the Developer hub of the service, not from n8n: create one with this node\'s Production URL, select the same events as below, and copy its signing secret into the credential. The Test URL answers one delivery only while "Listen for test event" is on.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description:
					'Event types that start the workflow; other verified deliveries are acknowledged and dropped',
				options: [
					{
						name: 'All Events',
						value: ALL_EVENTS,
						description: 'Every event type, including types the service adds later',
					},
					...EVENT_TYPES.map(({ name, value, description }) => ({ name, value, description })),
				],
			},
			{
				displayName: 'Refetch Latest State',
				name: 'refetch',
				type: 'boolean',
				default: false,
				description:
					'Whether to GET the resource through the GST Compliance API credential and add it as "refetched": deliveries can arrive out of order',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Dedupe Window (Hours)',
						name: 'dedupeWindowHours',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 720 },
						default: DEFAULT_WINDOW_HOURS,
						description:
							'How long an event ID is remembered so a redelivery starts nothing; the timestamp tolerance is added. The service retries for 24 hours.',
					},
					{
						displayName: 'Output Shape',
						name: 'outputShape',
						type: 'options',
						default: 'envelope',
						options: [
							{
								name: 'Full Envelope',
								value: 'envelope',
								description: 'ID, type, createdAt and data',
							},
							{ name: 'Data Only', value: 'data', description: 'The resource in the event' },
						],
					},
					{
						displayName: 'Timestamp Tolerance (Seconds)',
						name: 'toleranceSeconds',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 3600 },
						default: DEFAULT_TOLERANCE_SECONDS,
						description:
							'Deliveries signed further than this from the current time are rejected (replay protection)',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			gstComplianceApiTest: testGstComplianceCredentials,
			async gstComplianceWebhookSecretCheck(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkSigningSecrets(credential.data);
			},
		},
	};

	// Subscriptions are created in the service's dashboard only (there is no API for them), so
	// activation registers nothing remotely and these hooks only satisfy n8n's trigger lifecycle.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;

		let secrets: string[];
		try {
			const credentials = await this.getCredentials('gstComplianceWebhookApi');
			secrets = [credentials.signingSecret, credentials.previousSigningSecret].map((s) =>
				typeof s === 'string' ? s : '',
			);
		} catch {
			this.logger.warn('GST Compliance Trigger: no webhook credential, delivery refused');
			return respond(this, 500, { error: 'Trigger is not configured' });
		}

		const dedupe = dedupeStore(this, {
			windowMs:
				((options.dedupeWindowHours ?? DEFAULT_WINDOW_HOURS) * 3600 + toleranceSeconds) * 1000,
			capacity: DEDUPE_CAPACITY,
		});
		const outcome = await handleDelivery(
			{
				body: rawBody(this),
				signatureHeader: this.getHeaderData()[SIGNATURE_HEADER],
				secrets,
				nowMs: Date.now(),
				toleranceSeconds,
				selectedEvents: this.getNodeParameter('events', []) as string[],
			},
			dedupe.store,
		);

		switch (outcome.kind) {
			case 'rejected':
				this.logger.debug(`GST Compliance Trigger: delivery rejected (${outcome.reason})`);
				return respond(this, outcome.status, { error: outcome.error });
			case 'ignored':
				return { webhookResponse: { received: true, ignored: 'event type not selected' } };
			case 'duplicate':
				return { webhookResponse: { received: true, duplicate: true } };
			case 'accepted': {
				const item = await buildOutput(this, outcome.event, {
					shape: options.outputShape ?? 'envelope',
					refetch: this.getNodeParameter('refetch', false) as boolean,
				});
				return acceptedResponse(item, dedupe.persist);
			}
		}
	}
}

/** Answers the request directly; n8n then sends nothing else and starts nothing. */
function respond(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	context.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** n8n keeps the exact bytes received next to the parsed body. */
function rawBody(context: IWebhookFunctions): Buffer {
	const raw = (context.getRequestObject() as { rawBody?: unknown }).rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	return Buffer.from(typeof raw === 'string' ? raw : '');
}

/**
 * Production deliveries share one store per workflow node, read once from static data and written
 * back after each new id. Test-URL deliveries (manual mode) get their own in-memory store: n8n does
 * not save static data for them, and they must never mark an id that production will receive.
 */
function dedupeStore(
	context: IWebhookFunctions,
	options: DedupeOptions,
): { store: DedupeStore; persist: () => void } {
	const node = context.getNode();
	const isTest = context.getMode() === 'manual';
	const key = `${context.getWorkflow().id ?? 'unsaved'}:${node.id}:${isTest ? 'test' : 'production'}`;
	if (isTest)
		return {
			store: dedupeRegistry.get(key, options, () => new MemoryDedupeStore(options)),
			persist: () => {},
		};

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
				return isNew;
			},
		},
		persist,
	};
}

/**
 * Starts the workflow and answers 200 once n8n has created the execution. The new event id must be
 * in static data by then, but n8n 2.41 creates the execution from a fresh Workflow over the same
 * static-data object, which resets its "changed" flag, so the write made in webhook() would not be
 * saved (seen in real n8n: after a restart, every event but the first started again). n8n reads
 * `webhookResponse` after creating the execution and saves static data right after that read, so
 * the write is re-applied there. Order per event: execution created → id saved → 200 sent; a crash
 * in between never loses an acknowledged event (at worst one crash between the first two steps
 * starts an event twice). Answering ourselves before the execution exists would lose it instead.
 */
function acceptedResponse(item: IDataObject, persist: () => void): IWebhookResponseData {
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
