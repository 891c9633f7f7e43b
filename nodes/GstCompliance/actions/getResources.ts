/**
 * The Get operation of both resources: one output item per input item, in input order, fetched by
 * a bounded pool so a large input does not flood the service (which answers floods with 429).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { errorSummary, gstError } from '../errors/apiError';
import { getCredentialData, gstApiRequest } from '../transport/apiRequest';
import type { GstResource } from '../resources';
import { checkResourceId, resourcePath } from '../resources';
import { runPool } from './workerPool';
import { readResourceId } from './resourceId';

export const MAX_CONCURRENCY = 20;
export const DEFAULT_CONCURRENCY = 5;

/** Options shared by both resources' Get operation. */
export const getOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { operation: ['get'] } },
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many items are fetched at the same time. Lower it if the service says it is rate-limiting this client.',
		},
		{
			displayName: 'Ignore Not Found',
			name: 'ignoreNotFound',
			type: 'boolean',
			default: false,
			description:
				'Whether an ID that does not exist outputs an item with the ID and notFound set to true, instead of failing the item',
		},
	],
};

interface GetOptions {
	concurrency?: number;
	ignoreNotFound?: boolean;
}

export function concurrencyOf(value: unknown): number {
	const number = Math.floor(Number(value));
	if (!Number.isFinite(number) || number < 1) return DEFAULT_CONCURRENCY;
	return Math.min(number, MAX_CONCURRENCY);
}

/**
 * Fetches each item's resource. Without "continue on fail" the first failure (lowest item index
 * among those that failed) stops the run; with it, a failed item outputs `{ error, code,
 * httpStatus }` in its place: `error` is the message as text, as n8n's own nodes give it, so a
 * next node maps `{{ $json.error }}` into an alert as it is.
 */
export async function getResources(
	context: IExecuteFunctions,
	resource: GstResource,
	idParameter: string,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	if (items.length === 0) return [];
	const continueOnFail = context.continueOnFail();
	const options = context.getNodeParameter('options', 0, {}) as GetOptions;
	// One credential read per execution, not one per item (each is a database read in n8n).
	const credentialData = await getCredentialData(context);
	const output: INodeExecutionData[] = new Array(items.length);
	const failures: Array<{ index: number; error: unknown }> = [];

	const getOne = async (itemIndex: number): Promise<IDataObject> => {
		const itemOptions = context.getNodeParameter('options', itemIndex, {}) as GetOptions;
		const raw = readResourceId(context, idParameter, itemIndex);
		const check = checkResourceId(resource, raw);
		if (!check.ok) {
			throw gstError(context.getNode(), { code: 'INVALID_ID', message: check.message, itemIndex });
		}
		// Errors from gstApiRequest are already NodeApiError / NodeOperationError with the item index.
		const path = resourcePath(resource, check.id);
		return await gstApiRequest
			.call(context, 'GET', path, { itemIndex, credentialData })
			.catch((error: unknown) => {
				if (itemOptions.ignoreNotFound && errorSummary(error).code === 'NOT_FOUND') {
					return { id: check.id, notFound: true };
				}
				throw error;
			});
	};

	const concurrency = concurrencyOf(options.concurrency ?? DEFAULT_CONCURRENCY);
	await runPool(items.length, concurrency, async (index) => {
		try {
			output[index] = { json: await getOne(index), pairedItem: { item: index } };
			return true;
		} catch (error) {
			if (continueOnFail) {
				const { message, code, httpStatus } = errorSummary(error);
				output[index] = { json: { error: message, code, httpStatus }, pairedItem: { item: index } };
				return true;
			}
			failures.push({ index, error });
			return false;
		}
	});

	if (failures.length > 0) {
		failures.sort((a, b) => a.index - b.index);
		throw failures[0].error;
	}
	return output;
}
