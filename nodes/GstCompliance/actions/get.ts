import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { errorSummary, gstError } from '../../../transport/apiError';
import type { GstResource } from '../../../transport/resources';
import { checkResourceId, resourcePath } from '../../../transport/resources';
import { gstApiRequest, getCredentialData } from '../../../transport/apiRequest';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './options';
import { runPool } from '../helpers/workerPool';

const ID_PARAMETER: Record<GstResource, string> = {
	einvoice: 'einvoiceId',
	ewaybill: 'ewaybillId',
};

interface GetOptions {
	concurrency?: number;
	ignoreNotFound?: boolean;
}

/** Fetches one item's resource; an invalid id fails the item before any network call. */
async function getOne(
	context: IExecuteFunctions,
	itemIndex: number,
	credentialData: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const resource = context.getNodeParameter('resource', itemIndex) as GstResource;
	const options = context.getNodeParameter('options', itemIndex, {}) as GetOptions;
	const check = checkResourceId(
		resource,
		context.getNodeParameter(ID_PARAMETER[resource], itemIndex, ''),
	);
	if (!check.ok) {
		throw gstError(context.getNode(), { code: 'INVALID_ID', message: check.message, itemIndex });
	}
	// Errors from gstApiRequest are already NodeApiError / NodeOperationError with the item index.
	return await gstApiRequest
		.call(context, 'GET', resourcePath(resource, check.id), { itemIndex, credentialData })
		.catch((error: unknown) => {
			if (options.ignoreNotFound && errorSummary(error).code === 'NOT_FOUND')
				return { id: check.id, notFound: true };
			throw error;
		});
}

export function concurrencyOf(value: unknown): number {
	const number = Math.floor(Number(value));
	if (!Number.isFinite(number) || number < 1) return DEFAULT_CONCURRENCY;
	return Math.min(number, MAX_CONCURRENCY);
}

/**
 * One output item per input item, in input order, each paired to its input. Without "continue on
 * fail" the first failure (lowest item index among those that failed) stops the run.
 */
export async function executeGet(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	if (items.length === 0) return [];
	const continueOnFail = context.continueOnFail();
	const options = context.getNodeParameter('options', 0, {}) as GetOptions;
	// One credential read per execution, not one per item (each is a database read in n8n).
	const credentialData = await getCredentialData(context);
	const output: INodeExecutionData[] = new Array(items.length);
	const failures: Array<{ index: number; error: unknown }> = [];

	await runPool(
		items.length,
		concurrencyOf(options.concurrency ?? DEFAULT_CONCURRENCY),
		async (index) => {
			try {
				output[index] = {
					json: await getOne(context, index, credentialData),
					pairedItem: { item: index },
				};
				return true;
			} catch (error) {
				if (continueOnFail) {
					output[index] = { json: { error: errorSummary(error) }, pairedItem: { item: index } };
					return true;
				}
				failures.push({ index, error });
				return false;
			}
		},
	);

	if (failures.length > 0) {
		failures.sort((a, b) => a.index - b.index);
		throw failures[0].error;
	}
	return output;
}
