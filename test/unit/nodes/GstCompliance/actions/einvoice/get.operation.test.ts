/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The e-invoice Get operation on its own: the parameters it adds to the node (the Operation option
 * shown for e-invoices, the E-Invoice ID field of each node version) and what `execute` asks for:
 * the e-invoice ID parameter, checked as an e-invoice ID, fetched from /v1/einvoices/{id}. The
 * transport is faked (gstApiRequest is spied on); n8n-core runs the node in
 * test/integration/nodes/GstCompliance/actions/getResources.test.ts.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { description, execute } from '@/nodes/GstCompliance/actions/einvoice/get.operation';
import { ID_ERROR, ID_PATTERN } from '@/nodes/GstCompliance/actions/resourceId';
import { CREDENTIAL, NODE, operationContext } from '@/test/unit/helpers/operationContext';

/** The operation with one item whose ID parameters are `ids` (by parameter name). */
const run = (ids: Record<string, unknown>, answer?: (path: string) => IDataObject) =>
	operationContext(execute, ids, answer);

afterEach(() => jest.restoreAllMocks());

const byName = (name: string) => description.filter((property) => property.name === name);

describe('the parameters the e-invoice Get operation adds', () => {
	it('description → the Operation option, then the E-Invoice ID of version 1 and of version 2', () => {
		expect(description.map((property) => [property.name, property.type])).toEqual([
			['operation', 'options'],
			['einvoiceId', 'string'],
			['einvoiceId', 'resourceLocator'],
		]);
	});

	it('Operation → shown for e-invoices only, one option "Get", the default, no expression', () => {
		expect(byName('operation')).toStrictEqual<INodeProperties[]>([
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['einvoice'] } },
				options: [
					{
						name: 'Get',
						value: 'get',
						action: 'Get e-invoice',
						description:
							'Retrieve one e-invoice (IRN) by its ID with its current status (generated, cancelled or failed), IRN, acknowledgement number and date, seller GSTIN, invoice number and total value',
					},
				],
				default: 'get',
			},
		]);
	});

	it('E-Invoice ID of version 1 → a required string with the einv_ placeholder, for einvoice / get', () => {
		expect(byName('einvoiceId')[0]).toStrictEqual<INodeProperties>({
			displayName: 'E-Invoice ID',
			name: 'einvoiceId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'einv_…',
			displayOptions: {
				show: { resource: ['einvoice'], operation: ['get'], '@version': [1] },
			},
			description:
				'ID of the e-invoice, starting with einv_ (not the IRN or the invoice number). After a GST Compliance Trigger, map the ID of the event data.',
		});
	});

	it('E-Invoice of version 2 → a "By ID" locator with the hint to drag data.id, checked as an e-invoice ID', () => {
		expect(byName('einvoiceId')[1]).toStrictEqual<INodeProperties>({
			displayName: 'E-Invoice',
			name: 'einvoiceId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			displayOptions: {
				show: {
					resource: ['einvoice'],
					operation: ['get'],
					'@version': [{ _cnd: { gte: 2 } }],
				},
			},
			description:
				'ID of the e-invoice, starting with einv_ (not the IRN or the invoice number). After a GST Compliance Trigger, map the ID of the event data.',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'einv_…',
					hint: 'Starts with einv_. After a GST Compliance Trigger, drag data.id from the input here.',
					validation: [
						{
							type: 'regex',
							properties: { regex: ID_PATTERN.einvoice, errorMessage: ID_ERROR.einvoice },
						},
					],
				},
			],
		});
	});
});

describe('what execute fetches', () => {
	it('execute() with einvoiceId " einv_01J8ZK " → GET /v1/einvoices/einv_01J8ZK, the answer as the item', async () => {
		const answer = { id: 'einv_01J8ZK', status: 'generated' };
		const { context, reads, requests, output } = run({ einvoiceId: ' einv_01J8ZK ' }, () => answer);
		expect(await output()).toStrictEqual([{ json: answer, pairedItem: { item: 0 } }]);
		expect(requests).toStrictEqual([
			{
				self: context,
				method: 'GET',
				path: '/v1/einvoices/einv_01J8ZK',
				opts: { itemIndex: 0, credentialData: CREDENTIAL },
			},
		]);
		expect(reads.filter(([name]) => name !== 'options')).toStrictEqual([
			['einvoiceId', 0, '', { extractValue: true }],
		]);
	});

	it('execute() with einvoiceId "einv_é" → the id percent-encoded in one path segment', async () => {
		const { requests, output } = run({ einvoiceId: 'einv_é' });
		expect(await output()).toStrictEqual([
			{ json: { path: '/v1/einvoices/einv_%C3%A9' }, pairedItem: { item: 0 } },
		]);
		expect(requests.map((request) => request.path)).toStrictEqual(['/v1/einvoices/einv_%C3%A9']);
	});

	it('execute() with the e-way bill ID parameter set and no einvoiceId → "E-invoice ID is empty", no request', async () => {
		const { requests, output } = run({ ewaybillId: 'einv_01J8ZK' });
		const error = await output().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'E-invoice ID is empty: received nothing, expected an id starting with "einv_", for example einv_123',
		);
		expect(requests).toStrictEqual([]);
	});

	it('execute() with einvoiceId "331000123456" (an e-way bill number) → INVALID_ID for item 0, no request', async () => {
		const { requests, output } = run({ einvoiceId: '331000123456' });
		const error = await output().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'E-invoice ID "331000123456" is not valid: expected an id starting with "einv_", for example einv_123',
		);
		expect((error as NodeOperationError).node).toBe(NODE);
		expect((error as NodeOperationError).context).toMatchObject({
			itemIndex: 0,
			gstCode: 'INVALID_ID',
		});
		expect(requests).toStrictEqual([]);
	});
});

describe('a failed item under On Error → Continue', () => {
	it('execute() with einvoiceId "331000123456", continuing on fail → { error: the message as text, code, httpStatus }, no request', async () => {
		const { context, requests, output } = run({ einvoiceId: '331000123456' });
		context.continueOnFail = () => true;
		const [item] = await output();
		expect(item).toStrictEqual({
			json: {
				error:
					'E-invoice ID "331000123456" is not valid: expected an id starting with "einv_", for example einv_123',
				code: 'INVALID_ID',
				httpStatus: null,
			},
			pairedItem: { item: 0 },
		});
		// What a next node's {{ $json.error }} prints: the words, never [object Object].
		expect(`${item.json.error as string}`).toMatch(/^E-invoice ID /);
		expect(requests).toStrictEqual([]);
	});
});
