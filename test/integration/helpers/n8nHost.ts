/**
 * What n8n's server (packages/cli) hands to n8n-core when it runs a node, and nothing more: the
 * node types, a credentials helper and the per-execution `additionalData` (the environment
 * n8n-core reads is set in ../setupN8nCore.ts). Everything a node calls (contexts, parameters and
 * expressions, request helpers, error wrapping) is n8n-core's own.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	INodeCredentialsDetails,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers } from 'n8n-workflow';

import { GstComplianceApi } from '../../../credentials/GstComplianceApi.credentials';
import { GstComplianceRedisApi } from '../../../credentials/GstComplianceRedisApi.credentials';
import { GstComplianceWebhookApi } from '../../../credentials/GstComplianceWebhookApi.credentials';
import { GstCompliance } from '../../../nodes/GstCompliance/GstCompliance.node';
import { GstComplianceTrigger } from '../../../nodes/GstCompliance/GstComplianceTrigger.node';

export const PACKAGE = 'n8n-nodes-gst-compliance';

export const NODE_TYPE = {
	action: `${PACKAGE}.gstCompliance`,
	trigger: `${PACKAGE}.gstComplianceTrigger`,
} as const;

/** The package's node types as n8n's NodeTypes service serves them after loading the package. */
export const nodeTypes: INodeTypes = (() => {
	const types: Record<string, INodeType | IVersionedNodeType> = {
		[NODE_TYPE.action]: new GstCompliance(),
		[NODE_TYPE.trigger]: new GstComplianceTrigger(),
	};
	const get = (name: string): INodeType | IVersionedNodeType => {
		const type = types[name];
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	};
	return {
		getByName: get,
		// As n8n's NodeTypes does (node-types.js): a versioned type answers with the version asked.
		getByNameAndVersion: (name: string, version?: number): INodeType =>
			NodeHelpers.getVersionedNodeType(get(name), version),
		getKnownTypes: () => ({}),
	};
})();

const credentialTypes: Record<string, ICredentialType> = {
	gstComplianceApi: new GstComplianceApi(),
	gstComplianceWebhookApi: new GstComplianceWebhookApi(),
	gstComplianceRedisApi: new GstComplianceRedisApi(),
};

/**
 * n8n's server-side CredentialsHelper, minus the database: `getDecrypted` returns the test's data
 * for the type (a copy, as each decryption is), `authenticate` applies the credential type's own
 * `authenticate`. Every call to `getDecrypted` is counted (n8n reads the database for each).
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	reads = 0;
	readsByType: Record<string, number> = {};

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes[typeName] ?? {};
		if (typeof authenticate === 'function')
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		if (authenticate) throw new Error(`${typeName}: only function authenticate is used here`);
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not used by these nodes');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.reads++;
		this.readsByType[type] = (this.readsByType[type] ?? 0) + 1;
		const data = this.data[type];
		if (!data) throw new Error(`No credential of type ${type} in this test`);
		return structuredClone(data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}

/** The part of n8n's `WorkflowExecuteAdditionalData.getBase()` that node contexts read. */
export function additionalData(
	credentialsHelper: ICredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		executionId: 'test-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		...extra,
	} as IWorkflowExecuteAdditionalData;
}
