/**
 * The item an accepted event starts the workflow with. The webhook hands the execution the
 * envelope (`deliveredItem`); the execution's first step (execution.ts) builds what the workflow
 * sees from it: the envelope (so `{{$json.data.status}}` works) or its `data` alone, plus the
 * resource as it is now when "Refetch Latest State" is on, fetched there so it never delays the
 * answer to the service.
 */
import type { IDataObject } from 'n8n-workflow';

import { checkResourceId, resourcePath } from '../resources';
import { gstApiRequest, type GstRequestContext } from '../transport/apiRequest';
import type { AcceptanceMark } from './dedupe/lifecycle';
import { envelopeFields, readEnvelope, type EventEnvelope } from './delivery';
import { isJsonObject } from '../text/json';
import { eventResource } from './events';

export type OutputShape = 'envelope' | 'data';

/** The longest the refetch is waited for; past it the workflow starts with `refetchError`. */
export const REFETCH_BUDGET_MS = 60_000;

/** The field of the webhook's item that carries the accepted event to its execution. */
export const DELIVERED_FIELD = 'gstComplianceDelivery';

/**
 * The webhook's item: the accepted envelope, for the execution's first step (which may run on
 * another process, a worker in queue mode), with its acceptance.
 */
export function deliveredItem(
	event: EventEnvelope,
	acceptance: AcceptanceMark & {
		/** What the accepting process has to tell the user about its store. */
		notice?: string;
	},
): IDataObject {
	const { notice, ...mark } = acceptance;
	return {
		[DELIVERED_FIELD]: {
			...(envelopeFields(event) as IDataObject),
			acceptance: { ...mark },
			...(notice ? { notice } : {}),
		},
	};
}

/** An event as its webhook's item carries it to the execution. */
export interface DeliveredEvent {
	event: EventEnvelope;
	/** What the store and the overdue look had to say when it was accepted. */
	notice?: string;
	/** Its acceptance; absent on items queued by an earlier version. */
	acceptance?: AcceptanceMark;
}

/**
 * What a webhook's item carries; undefined for any other item (pinned, or foreign). Items queued
 * by an earlier version carry no acceptance.
 */
export function deliveredEvent(item: IDataObject): DeliveredEvent | undefined {
	const carried = item[DELIVERED_FIELD];
	if (!isJsonObject(carried)) return undefined;
	const event = readEnvelope(carried);
	if (!event) return undefined;
	const { notice, acceptance } = carried;
	const mark = acceptance as Partial<AcceptanceMark> | undefined;
	return {
		event,
		...(typeof notice === 'string' ? { notice } : {}),
		...(typeof mark?.token === 'string' &&
		typeof mark.process === 'string' &&
		Number.isFinite(mark.acceptedMs)
			? {
					acceptance: {
						token: mark.token,
						process: mark.process,
						acceptedMs: mark.acceptedMs as number,
						...(typeof mark.url === 'string' ? { url: mark.url } : {}),
					},
				}
			: {}),
	};
}

export async function buildOutput(
	context: GstRequestContext,
	event: EventEnvelope,
	options: { shape: OutputShape; refetch: boolean },
): Promise<IDataObject> {
	const item: IDataObject =
		options.shape === 'data'
			? { ...(event.data as IDataObject) }
			: (envelopeFields(event) as IDataObject);
	if (options.refetch) Object.assign(item, await refetch(context, event));
	return item;
}

/**
 * A failed, refused or overlong GET does not fail the delivery: the event is real, so the workflow
 * starts with `refetched: null` and the reason in `refetchError`.
 */
async function refetch(context: GstRequestContext, event: EventEnvelope): Promise<IDataObject> {
	const resource = eventResource(event.type);
	if (!resource)
		return {
			refetched: null,
			refetchError: `Events of type ${event.type} name no resource this node can fetch`,
		};
	const check = checkResourceId(resource, event.data.id);
	if (!check.ok) return { refetched: null, refetchError: check.message };
	const deadline = AbortSignal.timeout(REFETCH_BUDGET_MS);
	const timedOut = new Promise<never>((_, reject) =>
		deadline.addEventListener('abort', () =>
			reject(new Error(`The API did not answer within ${REFETCH_BUDGET_MS / 1000} s`)),
		),
	);
	try {
		const resourceNow = await Promise.race([
			gstApiRequest.call(context, 'GET', resourcePath(resource, check.id)),
			timedOut,
		]);
		return { refetched: resourceNow as IDataObject };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { refetched: null, refetchError: message };
	}
}
