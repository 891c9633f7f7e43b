/**
 * The item an accepted event starts the workflow with: the envelope (so `{{$json.data.status}}`
 * works) or its `data` alone, plus the resource as it is now when "Refetch Latest State" is on.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { checkResourceId, resourcePath } from '../resources';
import { gstApiRequest } from '../transport/apiRequest';
import type { EventEnvelope } from './delivery';
import { eventResource } from './events';

export type OutputShape = 'envelope' | 'data';

/**
 * The longest the refetch is waited for. The dedupe lease covers it (dedupe/lifecycle.ts), so no
 * redelivery starts the event meanwhile; past it the workflow starts with `refetchError`.
 */
export const REFETCH_BUDGET_MS = 60_000;

export async function buildOutput(
	context: IWebhookFunctions,
	event: EventEnvelope,
	options: { shape: OutputShape; refetch: boolean },
): Promise<IDataObject> {
	const item: IDataObject =
		options.shape === 'data'
			? { ...(event.data as IDataObject) }
			: {
					id: event.id,
					type: event.type,
					createdAt: event.createdAt,
					data: event.data as IDataObject,
				};
	if (options.refetch) Object.assign(item, await refetch(context, event));
	return item;
}

/**
 * A failed, refused or overlong GET does not fail the delivery: the event is real, so the workflow
 * starts with `refetched: null` and the reason in `refetchError`.
 */
async function refetch(context: IWebhookFunctions, event: EventEnvelope): Promise<IDataObject> {
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
