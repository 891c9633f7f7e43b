/**
 * The trigger's `webhook()`: the one place the trigger asks n8n (raw bytes, header, credentials,
 * parameters, mode, static data, logger). It lets the pure `judgeDelivery` verify the delivery and
 * the dedupe lifecycle (dedupe/lifecycle.ts) admit it, hands the dedupe code plain values
 * (`DedupeSite`), and turns the outcome into n8n's webhook response. It does not know which store
 * it has: persistence.ts picks it.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import { cachedCredentials } from './credentialCache';
import { admit, type Admission } from './dedupe/lifecycle';
import { DEDUPE_CAPACITY, nodeDedupe, type DedupeSite } from './dedupe/persistence';
import { DedupeUnavailableError, RedisClientMissingError } from './dedupe/redisConnection';
import { RedisCredentialError } from './dedupe/redisSettings';
import {
	judgeDelivery,
	MAX_BODY_BYTES,
	SIGNATURE_ERROR,
	SIZE_ERROR,
	UNREADABLE_ERROR,
	type EventEnvelope,
} from './delivery';
import { answerOnceExecutionExists, requestBytes } from '../n8nCompat';
import { normaliseOptions, type RawTriggerOptions, type TriggerOptions } from './options';
import { buildOutput, REFETCH_BUDGET_MS } from './output';
import { usableSigningSecrets } from './secretCheck';
import { logOnce, MISMATCH_ADVICE, sayRefused, type LoggedTrigger } from './triggerLog';
import { parseSignatureHeader, SIGNATURE_HEADER } from './signature';

const NOT_CONFIGURED = 'Trigger is not configured';

/**
 * Time n8n is given to create the execution once the item is ready (the lease's last part),
 * renewed for as long as n8n keeps the delivery waiting for a concurrency slot.
 */
export const START_MS = 30_000;
/**
 * The longest a started delivery keeps its claim while n8n has not read its answer (its
 * concurrency queue); past it the claim lapses and a redelivery may start the event.
 */
export const MAX_QUEUE_WAIT_MS = 60 * 60_000;
const PREPARE_MS_WITHOUT_REFETCH = 5_000;

export async function handleWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// Refused before the credential is read: a request that cannot verify costs no database read
	// or decryption. judgeDelivery makes the same checks again, with the same answers.
	let body: Buffer;
	try {
		body = await requestBytes(this.getRequestObject());
	} catch (error) {
		// n8n's readRawBody: raw-body's 413 above n8n's payload limit, or a client that went away.
		if ((error as { status?: unknown }).status === 413)
			return respond(this, 413, { error: SIZE_ERROR });
		return respond(this, 400, { error: UNREADABLE_ERROR });
	}
	const signatureHeader = this.getHeaderData()[SIGNATURE_HEADER];
	if (body.length > MAX_BODY_BYTES) return respond(this, 413, { error: SIZE_ERROR });
	const parsedHeader = parseSignatureHeader(signatureHeader);
	if (!parsedHeader) return respond(this, 401, { error: SIGNATURE_ERROR });

	const options = normaliseOptions(this.getNodeParameter('options', {}) as RawTriggerOptions);
	if (options.notes.length > 0) logOnce(loggedTrigger(this), options.notes);

	let secrets: string[];
	try {
		const usable = usableSigningSecrets(await readCredential(this, CREDENTIAL.webhook));
		if (usable.ignored)
			logOnce(loggedTrigger(this), [
				`${usable.ignored}: it is ignored, deliveries verify with Signing Secret only`,
			]);
		if (usable.unusable) {
			sayRefused(
				loggedTrigger(this),
				500,
				'secret',
				`${usable.unusable}: every delivery is refused until the credential is fixed`,
			);
			return respond(this, 500, { error: NOT_CONFIGURED });
		}
		secrets = usable.secrets;
	} catch {
		sayRefused(
			loggedTrigger(this),
			500,
			'credential',
			'the trigger has no GST Compliance Webhook credential it can read. Select one on the trigger',
		);
		return respond(this, 500, { error: NOT_CONFIGURED });
	}

	const nowMs = Date.now();
	const outcome = judgeDelivery({
		body,
		signatureHeader,
		secrets,
		nowMs,
		toleranceMs: options.toleranceMs,
		selectedEvents: this.getNodeParameter('events', []) as string[],
	});
	switch (outcome.kind) {
		case 'rejected':
			this.logger.debug(`GST Compliance Trigger: delivery rejected (${outcome.reason})`);
			if (outcome.reason === 'mismatch')
				sayRefused(loggedTrigger(this), outcome.status, 'mismatch', MISMATCH_ADVICE);
			if (outcome.reason === 'stale')
				sayRefused(
					loggedTrigger(this),
					outcome.status,
					'stale',
					`its timestamp is ${Math.round(Math.abs(nowMs / 1000 - Number(parsedHeader.timestamp)))} s from this server's clock, beyond the Timestamp Tolerance of ${options.toleranceMs / 1000} s. Check this server's clock (NTP), or raise the trigger's Timestamp Tolerance option`,
				);
			return respond(this, outcome.status, { error: outcome.error });
		case 'ignored':
			return { webhookResponse: { received: true, ignored: 'event type not selected' } };
		case 'verified':
			return await start(this, outcome.event, options);
	}
}

/**
 * A verified event: claim its id, build the item, and start the workflow; the id is committed
 * once n8n has created the execution. Anything that fails before then answers 5xx and leaves the
 * id free, so the service's retry starts the event once.
 */
async function start(
	context: IWebhookFunctions,
	event: EventEnvelope,
	options: TriggerOptions,
): Promise<IWebhookResponseData> {
	const refetch = context.getNodeParameter('refetch', false) as boolean;
	let admission: Admission<IDataObject>;
	try {
		const store = await nodeDedupe(dedupeSite(context), {
			windowMs: options.dedupeWindowMs,
			capacity: DEDUPE_CAPACITY,
		});
		admission = await admit(store, event.id, {
			now: () => Date.now(),
			sleep: async (ms) => await sleep(ms),
			tick: async (ms) => await sleep(ms),
			prepareMs: refetch ? REFETCH_BUDGET_MS : PREPARE_MS_WITHOUT_REFETCH,
			startMs: START_MS,
			maxWaitMs: MAX_QUEUE_WAIT_MS,
			// n8n ends the response itself when it gives up on starting the execution.
			answeredWithoutStart: () => context.getResponseObject().writableEnded === true,
			onHoldProblem: (eventId, problem) =>
				context.logger.warn(
					`GST Compliance Trigger: event ${JSON.stringify(eventId)} is waiting for n8n to start it, but ${problem}: a redelivery meanwhile could start it again`,
				),
			windowMs: options.dedupeWindowMs,
			prepare: async () => {
				const item = await buildOutput(context, event, { shape: options.outputShape, refetch });
				const notice = store.notice?.();
				return notice ? { ...item, dedupeNotice: notice } : item;
			},
			onReleaseFailure: (_, error) =>
				context.logger.warn(
					`GST Compliance Trigger: ${error.message} (releasing event ${JSON.stringify(event.id)}; its claim lapses on its own)`,
				),
			onUnprotected: (eventId, untilMs, error) =>
				context.logger.error(
					`GST Compliance Trigger: event ${JSON.stringify(eventId)} started, but the dedupe store could not remember it (${error.message}): a redelivery until ${new Date(untilMs).toISOString()} would start it again`,
				),
		});
	} catch (error) {
		if (error instanceof DedupeUnavailableError) {
			context.logger.debug(`GST Compliance Trigger: ${error.message}; delivery answered 503`);
			sayRefused(
				loggedTrigger(context),
				503,
				'dedupe',
				`${error.message}. Check that Redis runs and that this n8n process reaches it, and the GST Compliance Dedupe Redis credential's Host, Port, User and Password; the service retries the delivery`,
			);
			return respond(context, 503, { error: 'Dedupe store unavailable, retry later' });
		}
		if (error instanceof RedisClientMissingError) {
			sayRefused(
				loggedTrigger(context),
				503,
				'dedupe',
				`${error.message}. Remove the Redis credential from the trigger, or run n8n with the ioredis module it ships`,
			);
			return respond(context, 503, { error: 'Dedupe store unavailable, retry later' });
		}
		if (error instanceof RedisCredentialError) {
			sayRefused(
				loggedTrigger(context),
				500,
				'redisCredential',
				`${error.message} Every delivery is refused until it is fixed`,
			);
			return respond(context, 500, { error: NOT_CONFIGURED });
		}
		throw new NodeOperationError(context.getNode(), error as Error);
	}

	switch (admission.kind) {
		case 'failed':
			context.logger.error(
				`GST Compliance Trigger: event ${JSON.stringify(event.id)} could not be prepared (${admission.error.message}); delivery answered 500, the service retries it`,
			);
			return respond(context, 500, { error: 'Delivery could not be processed, retry later' });
		case 'duplicate':
			return { webhookResponse: { received: true, duplicate: true } };
		case 'busy':
			return respond(context, 409, { error: 'Delivery of this event in progress, retry later' });
		case 'start':
			return answerOnceExecutionExists(admission.item, () => void admission.commit());
	}
}

/**
 * The trigger as its logs and stores name it: the workflow (`unsaved` before its first save) and
 * the node's id, which survives a rename.
 */
export function triggerOf(context: Pick<IWebhookFunctions, 'getWorkflow' | 'getNode'>): {
	workflowId: string;
	nodeId: string;
} {
	return { workflowId: context.getWorkflow().id ?? 'unsaved', nodeId: context.getNode().id };
}

const isTestDelivery = (context: IWebhookFunctions) => context.getMode() === 'manual';

/**
 * A credential of the trigger, cached for a few seconds (credentialCache.ts); a Test-URL delivery
 * reads afresh, since the user may just have edited the credential.
 */
async function readCredential(
	context: IWebhookFunctions,
	type: string,
): Promise<ICredentialDataDecryptedObject> {
	const id = context.getNode().credentials?.[type]?.id;
	const key = id && !isTestDelivery(context) ? `${type}:${id}` : undefined;
	return await cachedCredentials(key, async () => await context.getCredentials(type));
}

function dedupeSite(context: IWebhookFunctions): DedupeSite {
	const hasRedis = !!context.getNode().credentials?.[CREDENTIAL.redis];
	return {
		...triggerOf(context),
		test: isTestDelivery(context),
		staticData: (type) => context.getWorkflowStaticData(type),
		redisCredential: hasRedis
			? async () => await readCredential(context, CREDENTIAL.redis)
			: undefined,
		warn: (message) => context.logger.warn(message),
	};
}

/** The trigger as its log lines name it (triggerLog.ts). */
function loggedTrigger(context: IWebhookFunctions): LoggedTrigger {
	return {
		...triggerOf(context),
		nodeName: context.getNode().name,
		warn: (message) => context.logger.warn(message),
	};
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
