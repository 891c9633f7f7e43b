/**
 * The trigger's `execute()`: the first step of every execution its webhook started, after n8n's
 * concurrency queue, on the process that runs it (a worker in queue mode), also for executions n8n
 * runs again after a restart. It builds the event's item (output shape, Refetch Latest State) and
 * decides "once" there (dedupe/lifecycle.ts): the first execution of an event to start goes on with
 * its item; any other ends at once without items and says why. Events accepted and never started
 * are named here too (overdue.ts), in n8n's log and on the item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { readTrigger, type Trigger } from './context';
import { overdueNotes } from './overdue';
import { settle, type Settled } from '../settle';
import { settings } from '../settings';
import { messageParts } from '../errors/messageParts';
import { duplicateStartMessage, type EventLedger, type Start } from './dedupe/lifecycle';
import { openLedger } from './dedupe/store';
import type { EventEnvelope } from './delivery';
import { normaliseOptions, type RawTriggerOptions, type TriggerOptions } from './options';
import { buildOutput, deliveredEvent, type DeliveredEvent } from './output';
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
	const run = executionRun(this);
	const out: INodeExecutionData[] = [];
	for (const [index, item] of this.getInputData().entries()) {
		// A Test-URL delivery the webhook refused: the editor shows why, as this step's error.
		const shown = run.trigger.test ? readShown(item.json) : undefined;
		if (shown)
			throw new NodeOperationError(run.trigger.node, shown.title, {
				description: shown.description,
				itemIndex: index,
			});
		const delivered = deliveredEvent(item.json);
		// Not an item of this node's webhook (an execution queued by an earlier version): as is.
		if (!delivered) out.push(item);
		// A Test-URL event is not deduplicated (webhook.ts): its execution starts it as it is.
		else if (run.trigger.test)
			out.push({ json: await run.output(delivered.event), pairedItem: { item: index } });
		// A production event: its item if this execution starts it, nothing if another did.
		else {
			const started = await startOnce(run, delivered, index);
			if (started) out.push(started);
		}
	}
	return [out];
}

/** What the items of one execution share: the trigger, its options, one ledger opened lazily. */
interface ExecutionRun {
	context: IExecuteFunctions;
	trigger: Trigger;
	options: TriggerOptions;
	refetch: boolean;
	ledger(): Promise<EventLedger>;
	/** The ledger if an item opened it. */
	opened(): EventLedger | undefined;
	output(event: EventEnvelope): Promise<IDataObject>;
}

function executionRun(context: IExecuteFunctions): ExecutionRun {
	const trigger = readTrigger(context, (name, fallback) =>
		context.getNodeParameter(name, 0, fallback),
	);
	const options = normaliseOptions(trigger.parameter<RawTriggerOptions>('options', {}));
	const refetch = trigger.parameter('refetch', false);
	let ledger: EventLedger | undefined;
	return {
		context,
		trigger,
		options,
		refetch,
		ledger: async () =>
			(ledger ??= await openLedger(
				{
					...trigger.site(false),
					probe: async (url) =>
						await probe({ getNodeWebhookUrl: () => url, helpers: context.helpers }),
				},
				options.dedupeWindowMs,
			)),
		opened: () => ledger,
		output: async (event) =>
			await buildOutput(context, event, { shape: options.outputShape, refetch }),
	};
}

/**
 * A production event's item, if this execution is the first to start it; undefined when another
 * did (the execution ends empty and says why). Throws where the start cannot be decided.
 */
async function startOnce(
	run: ExecutionRun,
	{ event, acceptance, notice }: DeliveredEvent,
	index: number,
): Promise<INodeExecutionData | undefined> {
	// An execution that would end empty spends no GET of the client's budget: a look first (a
	// store that cannot answer it is left to the start).
	if (
		run.refetch &&
		(await run.ledger().then(
			async (ledger) => await ledger.startedElsewhere(event.id, acceptance),
			() => false,
		))
	)
		return endsEmpty(run, event.id);
	// The item first: a step that fails before the start (the refetch's budget is its own) leaves
	// the event unstarted, so retrying the execution from n8n's list starts it.
	const output = await run.output(event);
	const start = await startRetried(
		async () => await (await run.ledger()).start(event.id, Date.now(), acceptance),
	);
	if (!start.ok) throw startFailed(run.trigger, start.error, index);
	if (start.value === 'duplicate') return endsEmpty(run, event.id);
	return withNotice(run, output, index, notice);
}

/** An execution of an event another execution started: ends without items, saying why. */
function endsEmpty(run: ExecutionRun, eventId: string): undefined {
	const message = duplicateStartMessage(eventId);
	run.context.logger.info(logLine(run.trigger, message));
	run.context.addExecutionHints({ message, location: 'outputPane' });
	return undefined;
}

/**
 * The started item, with what the user should know: the delivery's notice (the store's) and the
 * events accepted and never started (overdue.ts).
 */
async function withNotice(
	run: ExecutionRun,
	output: IDataObject,
	index: number,
	delivered: string | undefined,
): Promise<INodeExecutionData> {
	const ledger = run.opened();
	const overdue = ledger
		? await overdueNotes(run.trigger, ledger, run.options.startWithinMs, { shown: true })
		: [];
	const notice = [delivered, ...overdue].filter(Boolean).join(' ');
	// Version 3 says it beside the output (an execution hint), so it never reaches a sheet or a
	// message mapped from the item; versions 1 and 2 keep the field they were built with.
	const asHint = run.trigger.node.typeVersion >= 3;
	if (notice && asHint)
		run.context.addExecutionHints({ message: notice, type: 'warning', location: 'outputPane' });
	return {
		json: notice && !asHint ? { ...output, dedupeNotice: notice } : output,
		pairedItem: { item: index },
	};
}

/**
 * The step's error for a start that could not be decided: what happened, what to do, and when a
 * Retry from the executions list works.
 */
function startFailed(trigger: Trigger, error: unknown, index: number): NodeOperationError {
	const refusal = storeRefusal(error);
	const { title, remedy } = messageParts((error as Error).message);
	const retry = refusal
		? `This execution holds the event: retry it from the executions list once ${RETRY_ONCE[refusal.reason] ?? 'the store answers'}.`
		: undefined;
	const advice = refusal?.advice && `${refusal.advice}.`;
	return new NodeOperationError(trigger.node, title, {
		itemIndex: index,
		description: [remedy, advice, retry].filter(Boolean).join(' ') || undefined,
	});
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
