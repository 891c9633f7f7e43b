/**
 * The action node run by n8n-core's own ExecuteContext over a real n8n-workflow Workflow:
 * parameters (expressions included) are resolved by n8n, credentials come through the credentials
 * helper, and `helpers.httpRequest` / `httpRequestWithAuthentication` / `requestWithAuthentication`
 * are n8n's axios-based request helpers, so requests reach the emulator over real HTTP.
 */
import { ExecuteContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRunExecutionData,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { additionalData, NODE_TYPE, nodeTypes, TestCredentialsHelper } from './n8nHost';

export interface ExecuteOptions {
	/** Node parameters as saved in a workflow; `={{ $json.id }}` is an n8n expression. */
	parameters: INodeParameters;
	items?: INodeExecutionData[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The node's "On Error" setting: continueRegularOutput is what continueOnFail() reads. */
	continueOnFail?: boolean;
	/** The execution's cancel signal (n8n aborts it when the user stops the execution). */
	abortSignal?: AbortSignal;
}

export interface NodeRun {
	context: ExecuteContext;
	credentialsHelper: TestCredentialsHelper;
}

export function executeContext(options: ExecuteOptions): NodeRun {
	const items = options.items ?? [{ json: {} }];
	const credentials = options.credentials ?? {};
	const node: INode = {
		id: 'node-1',
		name: 'GST Compliance',
		type: NODE_TYPE.action,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: Object.fromEntries(
			Object.keys(credentials).map((type) => [type, { id: `cred-${type}`, name: type }]),
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const workflow = new Workflow({
		id: 'wf-unit',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const credentialsHelper = new TestCredentialsHelper(credentials);
	const inputData = { main: [items] };
	const runExecutionData: IRunExecutionData = createRunExecutionData({});
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData(credentialsHelper),
		'manual',
		runExecutionData,
		0,
		items,
		inputData,
		{ node, data: inputData, source: null },
		[],
		options.abortSignal,
	);
	return { context, credentialsHelper };
}
