import {
	NodeConnectionTypes,
	NodeOperationError,
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
import { parseSignatureHeader, SIGNATURE_HEADER } from './signature';
import { handleDelivery, MAX_BODY_BYTES, SIGNATURE_ERROR, SIZE_ERROR } from './delivery';
import { cachedCredentials } from './credentialCache';
import { checkCapacity } from './dedupe/capacity';
import { DedupeUnavailableError } from './dedupe/redisClient';
import { hasRedisCredential, redisDedupeStore, testRedisCredential } from './dedupe/redisDedupe';
import { DedupeInProgressError } from './dedupe/redisStore';
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
			{
				name: 'gstComplianceRedisApi',
				required: false,
				testedBy: 'gstComplianceRedisCheck',
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
				displayName:
					'Running n8n in queue mode with webhook processes, or with several main processes? Attach a GST Compliance Dedupe Redis credential: the event IDs then live in Redis, shared by every process. Without it each process remembers IDs on its own (at most 125,000 within the window), which is right for a single n8n process only.',
				name: 'dedupeNotice',
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
			async gstComplianceRedisCheck(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return await testRedisCredential(credential.data);
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
		const body = rawBody(this);
		const signatureHeader = this.getHeaderData()[SIGNATURE_HEADER];

		// Refused before any credential is read: no database read or decryption for a request that
		// cannot verify. handleDelivery makes the same checks again, with the same answers.
		if (body.length > MAX_BODY_BYTES) return respond(this, 413, { error: SIZE_ERROR });
		if (!parseSignatureHeader(signatureHeader))
			return respond(this, 401, { error: SIGNATURE_ERROR });

		let secrets: string[];
		try {
			const credentials = await cachedCredentials(this, 'gstComplianceWebhookApi');
			secrets = [credentials.signingSecret, credentials.previousSigningSecret].map((s) =>
				typeof s === 'string' ? s : '',
			);
		} catch {
			this.logger.warn('GST Compliance Trigger: no webhook credential, delivery refused');
			return respond(this, 500, { error: 'Trigger is not configured' });
		}

		const windowMs =
			((options.dedupeWindowHours ?? DEFAULT_WINDOW_HOURS) * 3600 + toleranceSeconds) * 1000;
		let dedupe: { store: DedupeStore; started: (eventId: string) => void };
		let outcome: Awaited<ReturnType<typeof handleDelivery>>;
		try {
			dedupe = hasRedisCredential(this)
				? await sharedDedupeStore(this, windowMs)
				: dedupeStore(this, { windowMs, capacity: DEDUPE_CAPACITY });
			outcome = await handleDelivery(
				{
					body,
					signatureHeader,
					secrets,
					nowMs: Date.now(),
					toleranceSeconds,
					selectedEvents: this.getNodeParameter('events', []) as string[],
				},
				dedupe.store,
			);
		} catch (error) {
			// Nothing started: the service retries a non-2xx delivery later.
			if (error instanceof DedupeInProgressError)
				return respond(this, 409, { error: 'Delivery of this event in progress, retry later' });
			if (error instanceof DedupeUnavailableError) {
				this.logger.error(`GST Compliance Trigger: ${error.message}; delivery answered 503`);
				return respond(this, 503, { error: 'Dedupe store unavailable, retry later' });
			}
			throw new NodeOperationError(this.getNode(), error as Error);
		}

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
				const eventId = outcome.event.id;
				return acceptedResponse(item, () => dedupe.started(eventId));
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
): { store: DedupeStore; started: (eventId: string) => void } {
	const isTest = context.getMode() === 'manual';
	const key = dedupeScope(context);
	if (isTest)
		return {
			store: dedupeRegistry.get(key, options, () => new MemoryDedupeStore(options)),
			started: () => {},
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
				checkCapacity(context.logger, key, store);
				return isNew;
			},
		},
		started: persist,
	};
}

/**
 * The Redis store (a Redis credential is attached): the same key scope as above, shared by every
 * n8n process. `started` is its second step, once the execution exists (see dedupe/redisStore.ts);
 * it runs inside n8n's read of `webhookResponse`, so it is not awaited: a failure is logged, and
 * the id then stays claimed for the pending time only.
 */
async function sharedDedupeStore(
	context: IWebhookFunctions,
	windowMs: number,
): Promise<{ store: DedupeStore; started: (eventId: string) => void }> {
	const store = await redisDedupeStore(context, dedupeScope(context), windowMs);
	return {
		store,
		started: (eventId) => {
			store
				.confirm(eventId)
				.catch((error: Error) =>
					context.logger.warn(
						`GST Compliance Trigger: ${error.message} (confirming a started event)`,
					),
				);
		},
	};
}

function dedupeScope(context: IWebhookFunctions): string {
	const isTest = context.getMode() === 'manual';
	return `${context.getWorkflow().id ?? 'unsaved'}:${context.getNode().id}:${isTest ? 'test' : 'production'}`;
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
