/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The action node's router on its own: it reads Resource and Operation of item 0, runs the one
 * operation they name with the node's context, gives its items as the node's single output, and
 * refuses a pair it has no operation for with an error naming both. The operations are spied on;
 * what each one does is in its own test file (actions/<resource>/get.operation.test.ts).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as einvoiceGet from '@/nodes/GstCompliance/actions/einvoice/get.operation';
import * as ewaybillGet from '@/nodes/GstCompliance/actions/ewaybill/get.operation';
import { router } from '@/nodes/GstCompliance/actions/router';
import * as testEventSend from '@/nodes/GstCompliance/actions/testEvent/send.operation';
import { NODE } from '@/test/unit/helpers/operationContext';

/** A context whose node is set to `resource` and `operation`, recording each parameter read. */
function contextFor(resource: unknown, operation: unknown) {
	const reads: unknown[][] = [];
	const context = {
		getNode: () => NODE,
		getNodeParameter(name: string, itemIndex: number) {
			reads.push([name, itemIndex]);
			return { resource, operation }[name];
		},
	} as unknown as IExecuteFunctions;
	return { context, reads };
}

/** Every operation spied on: each records the context it ran with and gives its own items. */
function spyOnOperations() {
	const ran: Array<[string, unknown]> = [];
	const items = {
		einvoice: [{ json: { id: 'einv_1' }, pairedItem: { item: 0 } }] as INodeExecutionData[],
		ewaybill: [{ json: { id: '331000123456' }, pairedItem: { item: 0 } }] as INodeExecutionData[],
		testEvent: [{ json: { statusCode: 202 }, pairedItem: { item: 0 } }] as INodeExecutionData[],
	};
	jest.spyOn(einvoiceGet, 'execute').mockImplementation(async function (this: unknown) {
		ran.push(['einvoice', this]);
		return items.einvoice;
	});
	jest.spyOn(ewaybillGet, 'execute').mockImplementation(async function (this: unknown) {
		ran.push(['ewaybill', this]);
		return items.ewaybill;
	});
	jest.spyOn(testEventSend, 'execute').mockImplementation(async function (this: unknown) {
		ran.push(['testEvent', this]);
		return items.testEvent;
	});
	return { ran, items };
}

afterEach(() => jest.restoreAllMocks());

describe('running the operation Resource and Operation name', () => {
	it('router() set to einvoice / get → the e-invoice Get runs once with the context; its items are the one output', async () => {
		const { ran, items } = spyOnOperations();
		const { context } = contextFor('einvoice', 'get');
		const output = await router.call(context);
		expect(output).toStrictEqual([items.einvoice]);
		expect(output[0]).toBe(items.einvoice);
		expect(ran).toStrictEqual([['einvoice', context]]);
	});

	it('router() set to ewaybill / get → the e-way bill Get runs once with the context; its items are the one output', async () => {
		const { ran, items } = spyOnOperations();
		const { context } = contextFor('ewaybill', 'get');
		const output = await router.call(context);
		expect(output).toStrictEqual([items.ewaybill]);
		expect(output[0]).toBe(items.ewaybill);
		expect(ran).toStrictEqual([['ewaybill', context]]);
	});

	it('router() set to testEvent / send → Test Event → Send runs once with the context; its items are the one output', async () => {
		const { ran, items } = spyOnOperations();
		const { context } = contextFor('testEvent', 'send');
		const output = await router.call(context);
		expect(output).toStrictEqual([items.testEvent]);
		expect(ran).toStrictEqual([['testEvent', context]]);
	});

	it('router() → reads resource and operation once each, of item 0', async () => {
		spyOnOperations();
		const { context, reads } = contextFor('ewaybill', 'get');
		await router.call(context);
		expect(reads).toStrictEqual([
			['resource', 0],
			['operation', 0],
		]);
	});

	it('router() whose operation fails → the same error, not caught or wrapped', async () => {
		const failure = new NodeOperationError(NODE, 'E-invoice einv_1 was not found');
		jest.spyOn(einvoiceGet, 'execute').mockRejectedValue(failure);
		const { context } = contextFor('einvoice', 'get');
		await expect(router.call(context)).rejects.toBe(failure);
	});
});

describe('refusing a resource and operation it has no operation for', () => {
	it.each<[unknown, unknown]>([
		['einvoice', 'list'],
		['ewaybill', 'create'],
		['testEvent', 'get'],
		['einvoice', 'send'],
		['gstr1', 'get'],
		['get', 'einvoice'],
		['EInvoice', 'get'],
		['einvoice', 'Get'],
		['', ''],
		[undefined, undefined],
		// Names every object inherits: a lookup in a plain object finds them.
		['einvoice', 'constructor'],
		['toString', 'get'],
		['__proto__', 'get'],
		['einvoice', 'hasOwnProperty'],
	])(
		'router() set to %p / %p → NodeOperationError naming both, no operation run',
		async (resource, operation) => {
			const { ran } = spyOnOperations();
			const { context } = contextFor(resource, operation);
			const error = await router.call(context).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe(
				`The operation "${String(operation)}" of resource "${String(resource)}" is not supported by this node version`,
			);
			expect((error as NodeOperationError).node).toBe(NODE);
			expect(ran).toStrictEqual([]);
		},
	);
});
