/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The e-way bill Get operation on its own: the parameters it adds to the node (the Operation option
 * shown for e-way bills, the E-Way Bill ID field of each node version) and what `execute` asks for:
 * the e-way bill ID parameter, checked as an e-way bill ID (no prefix), fetched from
 * /v1/ewaybills/{id}. The transport is faked (gstApiRequest is spied on); n8n-core runs the node in
 * test/integration/nodes/GstCompliance/actions/getResources.test.ts.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { description, execute } from '@/nodes/GstCompliance/actions/ewaybill/get.operation';
import { ID_ERROR, ID_PATTERN } from '@/nodes/GstCompliance/actions/resourceId';
import { CREDENTIAL, NODE, operationContext } from '@/test/unit/helpers/operationContext';

/** The operation with one item whose ID parameters are `ids` (by parameter name). */
const run = (ids: Record<string, unknown>, answer?: (path: string) => IDataObject) =>
	operationContext(execute, ids, answer);

afterEach(() => jest.restoreAllMocks());

const byName = (name: string) => description.filter((property) => property.name === name);

describe('the parameters the e-way bill Get operation adds', () => {
	it('description → the Operation option, then the E-Way Bill ID of version 1 and of version 2', () => {
		expect(description.map((property) => [property.name, property.type])).toEqual([
			['operation', 'options'],
			['ewaybillId', 'string'],
			['ewaybillId', 'resourceLocator'],
		]);
	});

	it('Operation → shown for e-way bills only, one option "Get", the default, no expression', () => {
		expect(byName('operation')).toStrictEqual<INodeProperties[]>([
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['ewaybill'] } },
				options: [
					{
						name: 'Get',
						value: 'get',
						action: 'Get e-way bill',
						description:
							'Retrieve one e-way bill (EWB) by its ID with its current status (generated, cancelled, expired or rejected) and its fields. Needs a plan that includes e-way bills.',
					},
				],
				default: 'get',
			},
		]);
	});

	it('E-Way Bill ID of version 1 → a required string with no placeholder, for ewaybill / get', () => {
		expect(byName('ewaybillId')[0]).toStrictEqual<INodeProperties>({
			displayName: 'E-Way Bill ID',
			name: 'ewaybillId',
			type: 'string',
			required: true,
			default: '',
			displayOptions: {
				show: { resource: ['ewaybill'], operation: ['get'], '@version': [1] },
			},
			description:
				'ID of the e-way bill as the API returns it. After a GST Compliance Trigger, map the ID of the event data.',
		});
	});

	it('E-Way Bill of version 2 → a "By ID" locator with the hint to drag data.id, checked as an e-way bill ID', () => {
		expect(byName('ewaybillId')[1]).toStrictEqual<INodeProperties>({
			displayName: 'E-Way Bill',
			name: 'ewaybillId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			displayOptions: {
				show: {
					resource: ['ewaybill'],
					operation: ['get'],
					'@version': [{ _cnd: { gte: 2 } }],
				},
			},
			description:
				'ID of the e-way bill as the API returns it. After a GST Compliance Trigger, map the ID of the event data.',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'ID of the e-way bill',
					hint: 'The ID as the API returns it. After a GST Compliance Trigger, drag data.id from the input here.',
					validation: [
						{
							type: 'regex',
							properties: { regex: ID_PATTERN.ewaybill, errorMessage: ID_ERROR.ewaybill },
						},
					],
				},
			],
		});
	});
});

describe('what execute fetches', () => {
	it('execute() with ewaybillId " 331000123456 " → GET /v1/ewaybills/331000123456, the answer as the item', async () => {
		const answer = { id: '331000123456', status: 'generated' };
		const { context, reads, requests, output } = run(
			{ ewaybillId: ' 331000123456 ' },
			() => answer,
		);
		expect(await output()).toStrictEqual([{ json: answer, pairedItem: { item: 0 } }]);
		expect(requests).toStrictEqual([
			{
				self: context,
				method: 'GET',
				path: '/v1/ewaybills/331000123456',
				opts: { itemIndex: 0, credentialData: CREDENTIAL },
			},
		]);
		expect(reads.filter(([name]) => name !== 'options')).toStrictEqual([
			['ewaybillId', 0, '', { extractValue: true }],
		]);
	});

	it('execute() with ewaybillId "einv_01J8ZK" (no prefix is required) → GET /v1/ewaybills/einv_01J8ZK', async () => {
		const { requests, output } = run({ ewaybillId: 'einv_01J8ZK' });
		expect(await output()).toStrictEqual([
			{ json: { path: '/v1/ewaybills/einv_01J8ZK' }, pairedItem: { item: 0 } },
		]);
		expect(requests.map((request) => request.path)).toStrictEqual(['/v1/ewaybills/einv_01J8ZK']);
	});

	it('execute() with ewaybillId "ewb_é" → the id percent-encoded in one path segment', async () => {
		const { requests, output } = run({ ewaybillId: 'ewb_é' });
		expect(await output()).toStrictEqual([
			{ json: { path: '/v1/ewaybills/ewb_%C3%A9' }, pairedItem: { item: 0 } },
		]);
		expect(requests.map((request) => request.path)).toStrictEqual(['/v1/ewaybills/ewb_%C3%A9']);
	});

	it('execute() with the e-invoice ID parameter set and no ewaybillId → "E-way bill ID is empty", no request', async () => {
		const { requests, output } = run({ einvoiceId: '331000123456' });
		const error = await output().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(
			'E-way bill ID is empty: received nothing, expected an id',
		);
		expect(requests).toStrictEqual([]);
	});

	it('execute() with ewaybillId "331/000" → INVALID_ID for item 0, no request', async () => {
		const { requests, output } = run({ ewaybillId: '331/000' });
		const error = await output().catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect({
			message: (error as NodeOperationError).message,
			description: (error as NodeOperationError).description,
		}).toEqual({
			message:
				'E-way bill ID "331/000" is not a valid id: it contains a slash, backslash, "?", "#", "%", ";", whitespace or a control character, or is only dots.',
			description: 'Expected an id',
		});
		expect((error as NodeOperationError).node).toBe(NODE);
		expect((error as NodeOperationError).context).toMatchObject({
			itemIndex: 0,
			gstCode: 'INVALID_ID',
		});
		expect(requests).toStrictEqual([]);
	});
});
