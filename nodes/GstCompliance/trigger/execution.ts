/**
 * The trigger's `execute()`: the first step of every execution its webhook started, after n8n's
 * concurrency queue, on the process that runs it (a worker in queue mode), also for executions n8n
 * runs again after a restart. It builds the event's item (output shape, Refetch Latest State) and
 * decides "once" there (dedupe/lifecycle.ts): the first execution of an event to start goes on with
 * its item; any other ends at once without items and says why. Events accepted and never started are named
 * here too (overdue.ts), in n8n's log and on the item.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { readTrigger } from './context';
import { overdueNotes } from './overdue';
import { settle, type Settled } from '../settle';
import { settings } from '../settings';
import { messageParts } from '../errors/messageParts';
import { duplicateStartMessage, type Start } from './dedupe/lifecycle';
import { DEDUPE_CAPACITY, openLedger, type TriggerLedger } from './dedupe/store';
import { normaliseOptions, type RawTriggerOptions } from './options';
import { buildOutput, deliveredEvent } from './output';
import { storeRefusal } from './dedupe/storeRefusal';
import { readShown } from './testUrl';
import { probe } from './ownUrl';
import { logLine } from './triggerLog';

/**
 * Waits between attempts at the start while the store does not answer (a Redis restart or
 * failover takes seconds): about 30 s in all, then the execution fails holding its event.
 */
export const START_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000];

export async function runExecution(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const trigger = readTrigger(this, (name, fallback) => this.getNodeParameter(name, 0, fallback));
	const options = normaliseOptions(trigger.parameter<RawTriggerOptions>('options', {}));
	const refetch = trigger.parameter('refetch', false);
	const out: INodeExecutionData[] = [];
	let ledger: TriggerLedger | undefined;
	const open = async () =>
		(ledger ??= await openLedger(
			{
				...trigger.site(false),
				probe: async (url) => await probe({ getNodeWebhookUrl: () => url, helpers: this.helpers }),
			},
			{
				windowMs: options.dedupeWindowMs,
				capacity: DEDUPE_CAPACITY,
			},
		));
	const endsEmpty = (eventId: string) => {
		const message = duplicateStartMessage(eventId);
		this.logger.info(logLine(trigger, message));
		this.addExecutionHints({ message, location: 'outputPane' });
	};
	const noticeAsHint = trigger.node.typeVersion >= 3;
	for (const [index, item] of items.entries()) {
		const shown = trigger.test ? readShown(item.json) : undefined;
		if (shown)
			throw new NodeOperationError(trigger.node, shown.title, {
				description: shown.description,
				itemIndex: index,
			});
		const delivered = deliveredEvent(item.json);
		// Not an item of this node's webhook (an execution queued by an earlier version): as is.
		if (!delivered) {
			out.push(item);
			continue;
		}
		const { event, acceptance } = delivered;
		// A Test-URL event is not deduplicated (webhook.ts): its execution starts it as it is.
		if (trigger.test) {
			const output = await buildOutput(this, event, { shape: options.outputShape, refetch });
			out.push({ json: output, pairedItem: { item: index } });
			continue;
		}
		// An execution that would end empty spends no GET of the client's budget: a look first (a
		// store that cannot answer it is left to the start).
		if (
			refetch &&
			(await open().then(
				async (it) => await it.startedElsewhere(event.id, acceptance),
				() => false,
			))
		) {
			endsEmpty(event.id);
			continue;
		}
		// The item first: a step that fails before the start (the refetch's budget is its own) leaves
		// the event unstarted, so retrying the execution from n8n's list starts it.
		const output = await buildOutput(this, event, { shape: options.outputShape, refetch });
		try {
			const start = await startRetried(
				async () => await (await open()).start(event.id, Date.now(), acceptance),
			);
			if (!start.ok) throw start.error;
			if (start.value === 'duplicate') {
				endsEmpty(event.id);
				continue;
			}
		} catch (error) {
			const refusal = storeRefusal(error);
			const { title, remedy } = messageParts((error as Error).message);
			const retry = refusal
				? `This execution holds the event: retry it from the executions list once ${RETRY_ONCE[refusal.reason] ?? 'the store answers'}.`
				: undefined;
			const advice = refusal?.advice && `${refusal.advice}.`;
			throw new NodeOperationError(trigger.node, title, {
				itemIndex: index,
				description: [remedy, advice, retry].filter(Boolean).join(' ') || undefined,
			});
		}
		const notes = [
			delivered.notice,
			...(ledger
				? await overdueNotes(trigger, ledger, options.startWithinMs, { shown: true })
				: []),
		];
		const notice = notes.filter(Boolean).join(' ');
		// Version 3 says it beside the output (an execution hint), so it never reaches a sheet or a
		// message mapped from the item; versions 1 and 2 keep the field they were built with.
		if (notice && noticeAsHint)
			this.addExecutionHints({ message: notice, type: 'warning', location: 'outputPane' });
		out.push({
			json: notice && !noticeAsHint ? { ...output, dedupeNotice: notice } : output,
			pairedItem: { item: index },
		});
	}
	return [out];
}

/** When a Retry of an execution that failed at its start can succeed, by the refusal's reason. */
const RETRY_ONCE: Partial<Record<string, string>> = {
	acceptedElsewhere: 'the credential is attached',
	savedIdsUnread: 'a delivery has reached the trigger (the store then reads its saved ids)',
};

/** The start (opening the store too), tried again while the store is unreachable; else its failure. */
async function startRetried(start: () => Promise<Start>): Promise<Settled<Start>> {
	for (let attempt = 0; ; attempt++) {
		const result = await settle(start());
		if (result.ok) return result;
		const retriable = storeRefusal(result.error)?.retriable === true;
		if (!retriable || attempt >= START_RETRY_DELAYS_MS.length) return result;
		await settings.sleep(START_RETRY_DELAYS_MS[attempt]);
	}
}
