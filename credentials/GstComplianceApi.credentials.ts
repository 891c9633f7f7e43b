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
			placeholder: 'svc_test_…',
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
			placeholder: 'https://auth.example.com',
			description:
				'Base URL of the token service, without /realms/…. The same for Production and Sandbox.',
		},
		{
			displayName: 'Realm',
			name: 'realm',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'gst',
			description:
				'Realm name in the token URL {Auth URL}/realms/{Realm}/protocol/openid-connect/token',
		},
		{
			displayName: 'Production API URL',
			name: 'productionApiUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com',
			description:
				'Base URL of the production API host (without /v1). Needed when Environment is Production.',
		},
		{
			displayName: 'Sandbox API URL',
			name: 'sandboxApiUrl',
			type: 'string',
			default: '',
			placeholder: 'https://sandbox.api.example.com',
			description:
				'Base URL of the sandbox API host (without /v1). Needed when Environment is Sandbox.',
		},
	];

	authenticate: IAuthenticate = authenticateRequest;
}
