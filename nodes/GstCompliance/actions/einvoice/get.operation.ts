import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getResources } from '../getResources';
import { operationParameter } from '../operationParameter';
import { idParameters } from '../resourceId';

export const description: INodeProperties[] = [
	operationParameter('einvoice', {
		action: 'Get e-invoice',
		description:
			'Retrieve one e-invoice (IRN) by its ID with its current status (generated, cancelled or failed), IRN, acknowledgement number and date, seller GSTIN, invoice number and total value',
	}),
	...idParameters({
		resource: 'einvoice',
		name: 'einvoiceId',
		displayName: 'E-Invoice ID',
		locatorName: 'E-Invoice',
		placeholder: 'einv_…',
		locatorPlaceholder: 'einv_…',
		description:
			'ID of the e-invoice, starting with einv_ (not the IRN or the invoice number). After a GST Compliance Trigger, map the ID of the event data.',
		hint: 'Starts with einv_. After a GST Compliance Trigger, drag data.id from the input here.',
	}),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await getResources(this, 'einvoice', 'einvoiceId');
}
