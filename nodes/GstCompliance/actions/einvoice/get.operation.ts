import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getResources } from '../get';

const showFor = { resource: ['einvoice'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: showFor },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an e-invoice',
				description:
					'Retrieve one e-invoice (IRN) by its ID with its current status (generated, cancelled or failed_terminal), IRN, acknowledgement number and date, seller GSTIN, invoice number and total value',
			},
		],
		default: 'get',
	},
	{
		displayName: 'E-Invoice ID',
		name: 'einvoiceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'einv_…',
		displayOptions: { show: { ...showFor, operation: ['get'] } },
		description:
			'ID of the e-invoice, starting with einv_ (not the IRN or the invoice number). After a GST Compliance Trigger, map the ID of the event data.',
	},
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await getResources(this, 'einvoice', 'einvoiceId');
}
