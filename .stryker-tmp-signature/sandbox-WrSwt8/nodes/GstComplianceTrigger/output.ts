/**
 * The item an accepted event starts the workflow with: the envelope (so `{{$json.data.status}}`
 * works) or its `data` alone, plus the resource as it is now when "Refetch Latest State" is on.
 */
// @ts-nocheck

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { eventResourcePath } from './events';
import { gstApiRequest } from '../../transport/apiRequest';
import type { EventEnvelope } from './delivery';

export type OutputShape = 'envelope' | 'data';

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
 * The id is already claimed when this runs, so a failed GET must not fail the delivery (the
 * sender's retry would be a duplicate and the event lost): the workflow starts with the error.
 */
async function refetch(context: IWebhookFunctions, event: EventEnvelope): Promise<IDataObject> {
	const resourceId = event.data.id;
	const path =
		typeof resourceId === 'string' ? eventResourcePath(event.type, resourceId) : undefined;
	if (!path)
		return { refetched: null, refetchError: 'The event names no resource this node can fetch' };
	try {
		return { refetched: (await gstApiRequest.call(context, 'GET', path)) as IDataObject };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { refetched: null, refetchError: message };
	}
}
