/**
 * An action operation run on its own: an n8n execute context with one item, the node's parameters
 * as given, every parameter read recorded, and the transport faked (gstApiRequest spied on), so a
 * test sees the request an operation makes and the items it gives. Restore with
 * `jest.restoreAllMocks()` after each test.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import * as apiRequest from '../../../nodes/GstCompliance/transport/apiRequest';

export const NODE: INode = {
	id: 'n1',
	name: 'GST Compliance',
	type: 'n8n-nodes-gst-compliance.gstCompliance',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};
export const CREDENTIAL = {
	clientId: 'client_1',
	clientSecret: 'secret_1',
	environment: 'sandbox',
};

export interface Request {
	self: unknown;
	method: string;
	path: string;
	opts: apiRequest.GstRequestOptions | undefined;
}

/** `execute` with one item whose parameters are `parameters`; the API answers with `answer(path)`. */
export function operationContext(
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>,
	parameters: Record<string, unknown>,
	answer = (path: string): IDataObject => ({ path }),
) {
	const reads: unknown[][] = [];
	const requests: Request[] = [];
	const context = {
		getInputData: (): INodeExecutionData[] => [{ json: {} }],
		continueOnFail: () => false,
		getNode: () => NODE,
		getCredentials: async () => CREDENTIAL,
		getNodeParameter(name: string, itemIndex: number, fallback: unknown, options?: object) {
			reads.push([name, itemIndex, fallback, options]);
			if (name === 'options') return {};
			return name in parameters ? parameters[name] : fallback;
		},
	} as unknown as IExecuteFunctions;
	jest.spyOn(apiRequest, 'gstApiRequest').mockImplementation(async function (
		this: unknown,
		method,
		path,
		opts,
	) {
		requests.push({ self: this, method, path, opts });
		return answer(path);
	});
	return { context, reads, requests, output: async () => await execute.call(context) };
}
