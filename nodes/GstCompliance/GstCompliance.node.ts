import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testGstComplianceCredentials } from './credential/connectionCheck';
import * as einvoiceGet from './actions/einvoice/get.operation';
import * as ewaybillGet from './actions/ewaybill/get.operation';
import { getOptions } from './actions/getResources';
import { router } from './actions/router';

/** Reads e-invoices and e-way bills; each operation lives in actions/<resource>/<operation>. */
export class GstCompliance implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'GST Compliance',
		name: 'gstCompliance',
		icon: {
			light: 'file:../../icons/gstCompliance.svg',
			dark: 'file:../../icons/gstCompliance.dark.svg',
		},
		group: ['transform'],
		// Version 2 makes the ID fields resource locators checked in the editor
		// (actions/resourceId.ts); version 1 keeps plain strings so saved workflows open and run as
		// they are.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read the current state of India GST e-invoices (IRN) and e-way bills from the GST Compliance API',
		defaults: { name: 'GST Compliance' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'gstComplianceApi', required: true, testedBy: 'testGstComplianceCredentials' },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'E-Invoice',
						value: 'einvoice',
						description:
							'A GST e-invoice with its IRN (invoice reference number); IDs start with einv_',
					},
					{
						name: 'E-Way Bill',
						value: 'ewaybill',
						description:
							'A GST e-way bill (EWB) for moving goods; needs a plan that includes e-way bills',
					},
				],
				default: 'einvoice',
			},
			...einvoiceGet.description,
			...ewaybillGet.description,
			getOptions,
		],
	};

	methods = { credentialTest: { testGstComplianceCredentials } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
