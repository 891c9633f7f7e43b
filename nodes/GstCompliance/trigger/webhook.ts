/**
 * The trigger's `webhook()`: reads the delivery (raw bytes, header, credentials, parameters) from
 * n8n, lets the pure `judgeDelivery` verify it and the dedupe lifecycle (dedupe/lifecycle.ts)
 * accept it, and turns the outcome into n8n's webhook response: a verified event is answered at
 * once (acknowledgement.ts) and its execution decides whether it does its work (execution.ts).
 * It does not know which store it has: dedupe/store.ts picks it.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import {
	ACCEPTED,
	answerOnceExecutionExists,
	answeredByNode,
	n8nVersion,
	requestBytes,
	writeAnswer,
} from '../n8nCompat';
import { acknowledgeMode, type Acknowledge } from './acknowledgement';
import { readTrigger, type Trigger } from './context';
import type { Acceptance, EventLedger } from './dedupe/lifecycle';
import { openLedger } from './dedupe/store';
import { newAcceptanceMark } from './dedupe/thisProcess';
import { overdueNotes } from './overdue';
import { storeRefusal } from './dedupe/storeRefusal';
import { judgeDelivery, MAX_BODY_BYTES, type EventEnvelope } from './delivery';
import { normaliseOptions, type RawTriggerOptions, type TriggerOptions } from './options';
import { deliveredItem } from './output';
import { usableSigningSecrets } from './secretCheck';
import { refusals, type Refusal } from './refusals';
import { probe, PROBE_HEADER, redeliver } from './ownUrl';
import { shownItem } from './testUrl';
import { settings } from '../settings';
import { logLine, logOnce, sayRefused } from './triggerLog';
import { parseSignatureHeader, SIGNATURE_HEADER } from './signature';

export async function handleWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const trigger = readTrigger(this, (name, fallback) => this.getNodeParameter(name, fallback));
	if (!trigger.test && this.getHeaderData()[PROBE_HEADER] !== undefined)
		return await answerProbe(this, trigger);
	// Refused before the credential is read: a request that cannot verify costs no database read
	// or decryption. judgeDelivery makes the same checks again, with the same answers.
	let body: Buffer;
	try {
		body = await requestBytes(this.getRequestObject());
	} catch (error) {
		// n8n's readRawBody: raw-body's 413 above n8n's payload limit, or a client that went away.
		if ((error as { status?: unknown }).status === 413)
			return refuse(this, trigger, refusals.tooLarge());
		return refuse(this, trigger, refusals.unreadable());
	}
	const signatureHeader = this.getHeaderData()[SIGNATURE_HEADER];
	if (body.length > MAX_BODY_BYTES) return refuse(this, trigger, refusals.tooLarge());
	const parsedHeader = parseSignatureHeader(signatureHeader);
	if (!parsedHeader) return refuse(this, trigger, refusals.noSignature());

	const options = normaliseOptions(trigger.parameter<RawTriggerOptions>('options', {}));
	if (options.notes.length > 0) logOnce(trigger, options.notes);

	let secrets: string[];
	try {
		const usable = usableSigningSecrets(await trigger.credential(CREDENTIAL.webhook));
		if (usable.ignored)
			logOnce(trigger, [
				`${usable.ignored}: it is ignored, deliveries verify with Signing Secret only`,
			]);
		if (usable.unusable) return refuse(this, trigger, refusals.unusableSecret(usable.unusable));
		secrets = usable.secrets;
	} catch {
		return refuse(this, trigger, refusals.noCredential());
	}

	const nowMs = Date.now();
	const outcome = judgeDelivery({
		body,
		signatureHeader,
		secrets,
		nowMs,
		toleranceMs: options.toleranceMs,
		selectedEvents: trigger.parameter<string[]>('events', []),
	});
	switch (outcome.kind) {
		case 'rejected':
			this.logger.debug(logLine(trigger, `delivery rejected (${outcome.reason})`));
			switch (outcome.reason) {
				case 'tooLarge':
					return refuse(this, trigger, refusals.tooLarge());
				case 'notEnvelope':
					return refuse(this, trigger, refusals.notEnvelope());
				case 'mismatch':
					return refuse(this, trigger, refusals.mismatch());
				case 'stale': {
					const offsetS = Math.round(Math.abs(nowMs / 1000 - Number(parsedHeader.timestamp)));
					return refuse(this, trigger, refusals.stale(offsetS, options.toleranceMs / 1000));
				}
				case 'malformed':
					return refuse(this, trigger, refusals.noSignature());
			}
			break;
		case 'ignored':
			if (trigger.test) return refuse(this, trigger, refusals.notSelected(outcome.event.type));
			await nameOverdue(trigger, options, redeliverWith(this, secrets[0]));
			return { webhookResponse: { received: true, ignored: 'event type not selected' } };
		case 'verified':
			return await accept(this, trigger, { event: outcome.event, body }, options, {
				redeliver: redeliverWith(this, secrets[0]),
			});
	}
}

/** Delivers a kept delivery to this trigger's Production URL again, signed with `secret`. */
const redeliverWith = (context: IWebhookFunctions, secret: string) => async (delivery: Buffer) =>
	await redeliver(context, secret, delivery);

/**
 * A verified event: accept it and answer. A copy of an event already started, or accepted and on
 * its way to its execution, creates no execution; anything that fails before the acceptance is
 * recorded answers 5xx, so the service retries. A Test-URL delivery is not deduplicated: n8n stops
 * listening after the first delivery that starts an execution, so each listening session runs the
 * event it gets, a sample sent again included, and production's memory never sees test events.
 */
async function accept(
	context: IWebhookFunctions,
	trigger: Trigger,
	{ event, body }: { event: EventEnvelope; body: Buffer },
	options: TriggerOptions,
	{ redeliver }: { redeliver: (delivery: Buffer) => Promise<void> },
): Promise<IWebhookResponseData> {
	const nowMs = Date.now();
	const mark = newAcceptanceMark(nowMs);
	if (trigger.test)
		return answerWhenKept(context, trigger, true, ACCEPTED, deliveredItem(event, mark));
	let ledger: EventLedger;
	let acceptance: Acceptance;
	let mode: Acknowledge;
	try {
		const site = trigger.site(true);
		mode = acknowledgeMode(options.acknowledge, await n8nVersion(), !!site.redisCredential);
		ledger = await openLedger(
			{ ...site, probe: async () => await probe(context) },
			options.dedupeWindowMs,
		);
		acceptance = await ledger.accept(event.id, nowMs, options.startWithinMs, mark.token, body);
	} catch (error) {
		const refusal = storeRefusal(error);
		if (!refusal) throw new NodeOperationError(trigger.node, error as Error);
		context.logger.debug(logLine(trigger, `${refusal.why}; delivery answered ${refusal.status}`));
		sayRefused(trigger, refusal.status, refusal.reason, refusal.why);
		return respond(context, refusal.status, { error: refusal.answer });
	}

	// Shown on the item only where this delivery starts an execution.
	const starts =
		acceptance.kind === 'accepted' ||
		acceptance.kind === 'retaken' ||
		(acceptance.kind === 'onItsWay' && mode !== 'atOnce');
	const overdue = await overdueNotes(trigger, ledger, options.startWithinMs, {
		shown: starts,
		redeliver,
	});
	switch (acceptance.kind) {
		case 'duplicate':
			return { webhookResponse: { received: true, duplicate: true } };
		case 'onItsWay':
			// Acknowledged already (at once): this copy adds nothing. Answered only once the execution
			// exists, the first may have been stranded by a restart before its answer, so this copy gets
			// an execution of its own, which ends at once if the first started (execution.ts).
			if (mode === 'atOnce')
				return answerWhenKept(context, trigger, ledger.durable(event.id), ON_ITS_WAY);
			break;
		case 'retaken':
			trigger.warn(
				`event ${JSON.stringify(event.id)} was accepted at ${new Date(acceptance.acceptedMs).toISOString()} and never started; this delivery of it starts it now`,
			);
			break;
	}
	const item = deliveredItem(event, {
		...mark,
		url: context.getNodeWebhookUrl('default'),
		notice: [ledger.notice(), ...overdue].filter(Boolean).join(' ') || undefined,
	});
	if (mode === 'atOnce')
		return answerWhenKept(context, trigger, ledger.durable(event.id), ACCEPTED, item);
	return answerOnceExecutionExists(item, () => ledger.answered(event.id, Date.now()));
}

const ON_ITS_WAY = { status: 202, body: { received: true, duplicate: true } };

/**
 * Answers `answer` once the acceptance is kept where a restart finds it (`kept`: at once when it
 * already is), else 503 so the service retries; `item`, when given, starts the workflow either way
 * (n8n goes on meanwhile: it saves the static data, then creates the execution, whose start keeps
 * the event once).
 */
function answerWhenKept(
	context: IWebhookFunctions,
	trigger: Trigger,
	kept: true | Promise<boolean>,
	answer: { status: number; body: IDataObject },
	item?: IDataObject,
): IWebhookResponseData {
	const response = context.getResponseObject();
	const send = (ok: boolean) => {
		if (ok) return writeAnswer(response, answer.status, answer.body);
		const refusal = refusals.unsaved(settings.acceptanceSaveWithinMs);
		sayRefused(trigger, refusal.status, refusal.logged!.reason, refusal.logged!.why);
		writeAnswer(response, refusal.status, refusal.body);
	};
	if (kept === true) send(true);
	else void kept.then(send, () => send(false));
	return answeredByNode(item);
}

/**
 * The trigger's own probe (ownUrl.ts): n8n loaded the static data from the database for it, and
 * opening the built-in store shows which acceptances that holds (memory/unsavedAcceptances.ts).
 * Answered 204; nothing else happens, whoever sent it.
 */
async function answerProbe(
	context: IWebhookFunctions,
	trigger: Trigger,
): Promise<IWebhookResponseData> {
	const options = normaliseOptions(trigger.parameter<RawTriggerOptions>('options', {}));
	await openLedger(trigger.site(true), options.dedupeWindowMs).catch(() => undefined);
	context.getResponseObject().status(204).end();
	return answeredByNode();
}

/**
 * A delivery that reaches no acceptance (an event type not selected) still names the events
 * accepted and never started, delivering again those whose delivery the store kept (overdue.ts);
 * a store that cannot be opened is left for the next.
 */
async function nameOverdue(
	trigger: Trigger,
	options: TriggerOptions,
	redeliver: (delivery: Buffer) => Promise<void>,
): Promise<void> {
	const ledger = await openLedger(trigger.site(true), options.dedupeWindowMs).catch(
		() => undefined,
	);
	if (ledger)
		await overdueNotes(trigger, ledger, options.startWithinMs, { shown: false, redeliver });
}

/**
 * Answers a delivery the trigger does no work for, and logs why where the user must act. On the
 * Test URL it also starts an execution that shows why in the editor (testUrl.ts).
 */
function refuse(
	context: IWebhookFunctions,
	trigger: Trigger,
	refusal: Refusal,
): IWebhookResponseData {
	if (refusal.logged)
		sayRefused(trigger, refusal.status, refusal.logged.reason, refusal.logged.why);
	const answered = respond(context, refusal.status, refusal.body);
	if (!trigger.test) return answered;
	return { ...answered, workflowData: [[{ json: shownItem(refusal.shown) }]] };
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
