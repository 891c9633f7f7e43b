import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getResources } from '../get';

const showFor = { resource: ['ewaybill'] };

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
				action: 'Get an e-way bill',
				description:
					'Retrieve one e-way bill (EWB) by its ID with its current status (generated, cancelled, expired or rejected) and its fields. Needs a plan that includes e-way bills.',
			},
		],
		default: 'get',
	},
	{
		displayName: 'E-Way Bill ID',
		name: 'ewaybillId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { ...showFor, operation: ['get'] } },
		description:
			'ID of the e-way bill as the API returns it. After a GST Compliance Trigger, map the ID of the event data.',
	},
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await getResources(this, 'ewaybill', 'ewaybillId');
}
