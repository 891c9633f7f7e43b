/**
 * The trigger's `webhook()`: reads the delivery (raw bytes, header, credentials, parameters) from
 * n8n, lets the pure `judgeDelivery` verify it and the dedupe lifecycle (dedupe/lifecycle.ts)
 * accept it, and turns the outcome into n8n's webhook response: a verified event is answered at
 * once (acknowledgement.ts) and its execution decides whether it does its work (execution.ts).
 * It does not know which store it has: dedupe/store.ts picks it.
 */
import { randomUUID } from 'crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import { answerAtOnce, answerOnceExecutionExists, n8nVersion, requestBytes } from '../n8nCompat';
import { acknowledgeMode } from './acknowledgement';
import { dedupeSite, loggedTrigger, readCredential, type TriggerContext } from './context';
import type { Acceptance } from './dedupe/lifecycle';
import { DEDUPE_CAPACITY, openLedger, thisAcceptor, type TriggerLedger } from './dedupe/store';
import { overdueNotes } from './overdue';
import { storeRefusal } from './storeErrors';
import {
	judgeDelivery,
	MAX_BODY_BYTES,
	SIGNATURE_ERROR,
	SIZE_ERROR,
	UNREADABLE_ERROR,
	type EventEnvelope,
} from './delivery';
import { normaliseOptions, type RawTriggerOptions, type TriggerOptions } from './options';
import { deliveredItem } from './output';
import { usableSigningSecrets } from './secretCheck';
import { logOnce, MISMATCH_ADVICE, sayRefused } from './triggerLog';
import { parseSignatureHeader, SIGNATURE_HEADER } from './signature';

const NOT_CONFIGURED = 'Trigger is not configured';

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
	if (!parsedHeader) {
		sayRefused(
			loggedTrigger(asTrigger(this)),
			401,
			'header',
			'it has no readable Service-Signature header (missing, or not "t=<seconds>,v1=<hex>"), so it is not from the service: check what else posts to this URL',
		);
		return respond(this, 401, { error: SIGNATURE_ERROR });
	}

	const options = normaliseOptions(this.getNodeParameter('options', {}) as RawTriggerOptions);
	if (options.notes.length > 0) logOnce(loggedTrigger(asTrigger(this)), options.notes);

	let secrets: string[];
	try {
		const usable = usableSigningSecrets(await readCredential(asTrigger(this), CREDENTIAL.webhook));
		if (usable.ignored)
			logOnce(loggedTrigger(asTrigger(this)), [
				`${usable.ignored}: it is ignored, deliveries verify with Signing Secret only`,
			]);
		if (usable.unusable) {
			sayRefused(
				loggedTrigger(asTrigger(this)),
				500,
				'secret',
				`${usable.unusable}: every delivery is refused until the credential is fixed`,
			);
			return respond(this, 500, { error: NOT_CONFIGURED });
		}
		secrets = usable.secrets;
	} catch {
		sayRefused(
			loggedTrigger(asTrigger(this)),
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
				sayRefused(loggedTrigger(asTrigger(this)), outcome.status, 'mismatch', MISMATCH_ADVICE);
			if (outcome.reason === 'stale')
				sayRefused(
					loggedTrigger(asTrigger(this)),
					outcome.status,
					'stale',
					`its timestamp is ${Math.round(Math.abs(nowMs / 1000 - Number(parsedHeader.timestamp)))} s from this server's clock, beyond the Timestamp Tolerance of ${options.toleranceMs / 1000} s. Check this server's clock (NTP), or raise the trigger's Timestamp Tolerance option`,
				);
			return respond(this, outcome.status, { error: outcome.error });
		case 'ignored':
			await nameOverdue(asTrigger(this), options);
			return { webhookResponse: { received: true, ignored: 'event type not selected' } };
		case 'verified':
			return await accept(this, outcome.event, options);
	}
}

/**
 * A verified event: accept it and answer. A copy of an event already started, or accepted and on
 * its way to its execution, creates no execution; anything that fails before the acceptance is
 * recorded answers 5xx, so the service retries.
 */
async function accept(
	context: IWebhookFunctions,
	event: EventEnvelope,
	options: TriggerOptions,
): Promise<IWebhookResponseData> {
	const mode = acknowledgeMode(options.acknowledge, await n8nVersion());
	let ledger: TriggerLedger;
	let acceptance: Acceptance;
	const nowMs = Date.now();
	const token = randomUUID();
	try {
		ledger = await openLedger(dedupeSite(asTrigger(context), true), {
			windowMs: options.dedupeWindowMs,
			capacity: DEDUPE_CAPACITY,
		});
		acceptance = await ledger.accept(event.id, nowMs, options.startWithinMs, token);
	} catch (error) {
		const refusal = storeRefusal(error);
		if (!refusal) throw new NodeOperationError(context.getNode(), error as Error);
		context.logger.debug(
			`GST Compliance Trigger: ${refusal.why}; delivery answered ${refusal.status}`,
		);
		sayRefused(loggedTrigger(asTrigger(context)), refusal.status, refusal.reason, refusal.why);
		return respond(context, refusal.status, { error: refusal.answer });
	}

	const overdue = await overdueNotes(asTrigger(context), ledger, options.startWithinMs);
	switch (acceptance.kind) {
		case 'duplicate':
			return { webhookResponse: { received: true, duplicate: true } };
		case 'onItsWay':
			// Acknowledged already (at once): this copy adds nothing. Answered only once the execution
			// exists, the first may have been stranded by a restart before its answer, so this copy gets
			// an execution of its own, which ends at once if the first started (execution.ts).
			if (mode === 'atOnce') return respond(context, 202, { received: true, duplicate: true });
			break;
		case 'retaken':
			context.logger.warn(
				`GST Compliance Trigger: event ${JSON.stringify(event.id)} was accepted at ${new Date(acceptance.acceptedMs).toISOString()} and never started; this delivery of it starts it now`,
			);
			break;
	}
	const item = deliveredItem(event, {
		token,
		...thisAcceptor(nowMs),
		notice: [ledger.notice?.(), ...overdue].filter(Boolean).join(' ') || undefined,
	});
	if (mode === 'atOnce') return answerAtOnce(context.getResponseObject(), item);
	return answerOnceExecutionExists(item, () => ledger.answered?.(event.id));
}

/**
 * A delivery that reaches no acceptance (an event type not selected) still names the events
 * accepted and never started (overdue.ts); a store that cannot be opened is left for the next.
 */
async function nameOverdue(context: TriggerContext, options: TriggerOptions): Promise<void> {
	const ledger = await openLedger(dedupeSite(context, true), {
		windowMs: options.dedupeWindowMs,
		capacity: DEDUPE_CAPACITY,
	}).catch(() => undefined);
	if (ledger) await overdueNotes(context, ledger, options.startWithinMs);
}

/** The webhook context as the trigger reads it (context.ts). */
const asTrigger = (context: IWebhookFunctions) => context as unknown as TriggerContext;

/** Answers the request directly; n8n then sends nothing else and starts nothing. */
function respond(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	context.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}
