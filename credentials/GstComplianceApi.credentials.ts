/** The credential class only; its machinery is in nodes/GstCompliance/credential/. */
import type { IAuthenticate, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { authenticateRequest } from '../nodes/GstCompliance/credential/authenticate';

/**
 * OAuth 2.0 client credentials for the GST Compliance API. Tokens are minted and cached in memory
 * by nodes/GstCompliance/credential/tokenCache.ts (why not n8n's OAuth2 or preAuthentication: see
 * there), attached by `authenticate`, and the credential is tested by the nodes'
 * `testGstComplianceCredentials` (credential/connectionCheck.ts).
 */
export class GstComplianceApi implements ICredentialType {
	name = 'gstComplianceApi';

	displayName = 'GST Compliance API';

	icon: Icon = {
		light: 'file:../icons/gstCompliance.svg',
		dark: 'file:../icons/gstCompliance.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				"Client ID and Client Secret come from the service's Developer hub (Live tab for Production, Sandbox tab for Sandbox). Auth URL, Realm and the API URL come from the service's onboarding material for your account: the Developer hub does not show them.",
			name: 'sourcesNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'Production',
					value: 'production',
					description: 'Live data. Client ID starts with svc_live_.',
				},
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'Test data. Client ID starts with svc_test_.',
				},
			],
			default: 'sandbox',
			description:
				'Which API host the requests go to. It must match the client: Live tab clients are Production, Sandbox tab clients are Sandbox.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. svc_test_…',
			description:
				'From the Developer hub: Live tab for Production (svc_live_…), Sandbox tab for Sandbox (svc_test_…)',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Shown once when the client is created or its secret rotated. After a rotation the old secret works for 24 more hours.',
		},
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://auth.example.com',
			description:
				'Base URL of the token service, the same for Production and Sandbox. The whole token URL (…/realms/{realm}/protocol/openid-connect/token) works too, with Realm left empty.',
		},
		{
			displayName: 'Realm',
			name: 'realm',
			type: 'string',
			default: '',
			placeholder: 'e.g. gst',
			description:
				'Realm name in the token URL {Auth URL}/realms/{Realm}/protocol/openid-connect/token. Leave empty when Auth URL is that whole token URL.',
		},
		{
			displayName: 'Production API URL',
			name: 'productionApiUrl',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { environment: ['production'] } },
			placeholder: 'e.g. https://api.example.com',
			description: 'Base URL of the production API host; a trailing /v1 is fine',
		},
		{
			displayName: 'Sandbox API URL',
			name: 'sandboxApiUrl',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { environment: ['sandbox'] } },
			placeholder: 'e.g. https://sandbox.api.example.com',
			description: 'Base URL of the sandbox API host; a trailing /v1 is fine',
		},
	];

	authenticate: IAuthenticate = authenticateRequest;
}
