import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getResources } from '../getResources';
import { operationParameter } from '../operationParameter';
import { idParameters } from '../resourceId';

export const description: INodeProperties[] = [
	operationParameter('ewaybill', {
		action: 'Get e-way bill',
		description:
			'Retrieve one e-way bill (EWB) by its ID with its current status (generated, cancelled, expired or rejected) and its fields. Needs a plan that includes e-way bills.',
	}),
	...idParameters({
		resource: 'ewaybill',
		name: 'ewaybillId',
		displayName: 'E-Way Bill ID',
		locatorName: 'E-Way Bill',
		locatorPlaceholder: 'ID of the e-way bill',
		description:
			'ID of the e-way bill as the API returns it. After a GST Compliance Trigger, map the ID of the event data.',
		hint: 'The ID as the API returns it. After a GST Compliance Trigger, drag data.id from the input here.',
	}),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await getResources(this, 'ewaybill', 'ewaybillId');
}
