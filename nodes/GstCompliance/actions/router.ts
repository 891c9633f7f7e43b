import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as einvoice from './einvoice/get.operation';
import * as ewaybill from './ewaybill/get.operation';
import * as testEventSend from './testEvent/send.operation';

type Operation = { execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> };

// Maps, not object literals: a saved or imported workflow can name any string, and an object
// would answer names every object inherits ("constructor") with something that is no operation.
const operations = new Map<string, Map<string, Operation>>([
	['einvoice', new Map([['get', einvoice]])],
	['ewaybill', new Map([['get', ewaybill]])],
	['testEvent', new Map([['send', testEventSend]])],
]);

/** Runs the operation the node is set to; resource and operation are the same for every item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const selected = operations.get(resource)?.get(operation);
	if (!selected) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported by this node version`,
		);
	}
	return [await selected.execute.call(this)];
}
