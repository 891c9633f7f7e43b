import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret of a webhook subscription made in the service's dashboard. It lives here,
 * encrypted, and never in node parameters (workflow JSON is stored in clear). Tested locally by
 * the GST Compliance Trigger node (trigger/secretCheck.ts): the service has no endpoint that checks
 * a signing secret. n8n shows a passed Test only as "Connection tested successfully", so the form
 * itself says what the Test checks.
 */
export class GstComplianceWebhookApi implements ICredentialType {
	name = 'gstComplianceWebhookApi';

	// n8n's scanner requires the "API" suffix on every credential type's name.
	displayName = 'GST Compliance Webhook Signing Secret API';

	icon: Icon = {
		light: 'file:../icons/gstCompliance.svg',
		dark: 'file:../icons/gstCompliance.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance#gst-compliance-webhook-signing-secret';

	properties: INodeProperties[] = [
		{
			displayName:
				'The Test button checks only that each secret was pasted whole (not empty, no spaces at either end, no invisible characters, a plausible length): the service cannot confirm a signing secret, so only an event the trigger accepts proves it.',
			name: 'testNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The subscription's signing secret, shown once in the Developer hub when the subscription is created or its secret rotated",
		},
		{
			displayName: 'Previous Signing Secret',
			name: 'previousSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'During a rotation, the secret being replaced: deliveries signed with either secret are accepted. Clear it once every delivery is signed with the new one.',
		},
	];
}
