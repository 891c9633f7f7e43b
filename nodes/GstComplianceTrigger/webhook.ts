/**
 * The trigger's `webhook()`: reads what n8n holds (raw bytes, header, credential, options), lets
 * the pure `handleDelivery` decide, and turns its outcome into n8n's webhook response.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { cachedCredentials } from './credentialCache';
import {
	acceptedResponse,
	DEFAULT_WINDOW_HOURS,
	dedupeOptions,
	nodeDedupe,
	type NodeDedupe,
} from './dedupe/persistence';
import type { DedupeStore } from './dedupe/memoryStore';
import { DedupeUnavailableError, RedisClientMissingError } from './dedupe/redisClient';
import { DedupeInProgressError } from './dedupe/redisStore';
import {
	DEFAULT_TOLERANCE_SECONDS,
	handleDelivery,
	MAX_BODY_BYTES,
	SIGNATURE_ERROR,
	SIZE_ERROR,
	type DeliveryOutcome,
} from './delivery';
import { buildOutput, type OutputShape } from './output';
import { parseSignatureHeader, SIGNATURE_HEADER } from './signature';

interface TriggerOptions {
	toleranceSeconds?: number;
	dedupeWindowHours?: number;
	outputShape?: OutputShape;
}

export async function handleWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// Refused before the credential is read: a request that cannot verify costs no database read
	// or decryption. handleDelivery makes the same checks again, with the same answers.
	const body = rawBody(this);
	const signatureHeader = this.getHeaderData()[SIGNATURE_HEADER];
	if (body.length > MAX_BODY_BYTES) return respond(this, 413, { error: SIZE_ERROR });
	if (!parseSignatureHeader(signatureHeader)) return respond(this, 401, { error: SIGNATURE_ERROR });

	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;

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

	const windowHours = options.dedupeWindowHours ?? DEFAULT_WINDOW_HOURS;
	// The store is reached only for a verified, selected event: a forged or unselected delivery
	// never touches Redis (and is answered 401/200 even while Redis is down).
	let dedupe: NodeDedupe | undefined;
	const store: DedupeStore = {
		claim: async (eventId, nowMs) => {
			dedupe = await nodeDedupe(this, dedupeOptions(windowHours, toleranceSeconds));
			return await dedupe.store.claim(eventId, nowMs);
		},
	};
	let outcome: DeliveryOutcome;
	try {
		outcome = await handleDelivery(
			{
				body,
				signatureHeader,
				secrets,
				nowMs: Date.now(),
				toleranceSeconds,
				selectedEvents: this.getNodeParameter('events', []) as string[],
			},
			store,
		);
	} catch (error) {
		// Nothing started and nothing marked: the service retries a non-2xx delivery later.
		if (error instanceof DedupeInProgressError)
			return respond(this, 409, { error: 'Delivery of this event in progress, retry later' });
		if (error instanceof DedupeUnavailableError || error instanceof RedisClientMissingError) {
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
			return acceptedResponse(item, () => dedupe?.persist(eventId));
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

/** n8n keeps the exact bytes received next to the parsed body; the signature covers those. */
function rawBody(context: IWebhookFunctions): Buffer {
	const raw = (context.getRequestObject() as { rawBody?: unknown }).rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	return Buffer.from(typeof raw === 'string' ? raw : '');
}
