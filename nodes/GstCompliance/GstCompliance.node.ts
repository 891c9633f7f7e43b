import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testGstComplianceCredentials } from './credential/connectionCheck';
import { gstComplianceWebhookSecretCheck } from './trigger/credentialTests';
import * as einvoiceGet from './actions/einvoice/get.operation';
import * as ewaybillGet from './actions/ewaybill/get.operation';
import { getOptions } from './actions/getResources';
import { router } from './actions/router';
import * as testEventSend from './actions/testEvent/send.operation';

/**
 * Reads e-invoices and e-way bills, and sends a signed test event to a GST Compliance Trigger;
 * each operation lives in actions/<resource>/<operation>.
 */
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
			'Read the current state of India GST e-invoices (IRN) and e-way bills from the GST Compliance API, or send a signed test event to a GST Compliance Trigger',
		defaults: { name: 'GST Compliance' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'gstComplianceApi',
				required: true,
				// Hidden, not "shown for e-invoices and e-way bills": a saved node may omit its
				// Resource (the default), and n8n reads only a credential it shows.
				displayOptions: { hide: { resource: ['testEvent'] } },
				testedBy: 'testGstComplianceCredentials',
			},
			{
				// The trigger's own credential and label: a test event is signed with the very secret
				// the trigger verifies with, never a copy of it.
				name: 'gstComplianceWebhookApi',
				displayName: 'Webhook Signing Secret',
				required: true,
				displayOptions: { show: { resource: ['testEvent'] } },
				testedBy: 'gstComplianceWebhookSecretCheck',
			},
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
					{
						name: 'Test Event',
						value: 'testEvent',
						description:
							'A signed sample event for a GST Compliance Trigger, as the service sends one; needs only the signing secret',
					},
				],
				default: 'einvoice',
			},
			...einvoiceGet.description,
			...ewaybillGet.description,
			getOptions,
			...testEventSend.description,
		],
	};

	methods = {
		credentialTest: { testGstComplianceCredentials, gstComplianceWebhookSecretCheck },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
