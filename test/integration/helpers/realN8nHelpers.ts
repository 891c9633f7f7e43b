/**
 * n8n's own request helpers from n8n-core 2.41.1 (the code that runs inside n8n), with no workflow
 * around them: `httpRequest` (modern, axios) and `request` (legacy, the HTTP Request node's path),
 * both through n8n's OutboundHttp and so under its outbound policy (N8N_SSRF_* settings).
 */
import { CredentialTestContext } from 'n8n-core';
import { getRequestHelperFunctions } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers';
import type {
	ICredentialTestFunctions,
	IHttpRequestOptions,
	INode,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';

export const TEST_NODE: INode = {
	id: 'node-1',
	name: 'GST Compliance',
	type: 'n8n-nodes-gst-compliance.gstCompliance',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export interface RealHelpers {
	httpRequest(options: IHttpRequestOptions): Promise<unknown>;
	request(uriOrObject: string | object, options?: object): Promise<unknown>;
}

export function realN8nHelpers(): RealHelpers {
	const helpers = getRequestHelperFunctions(
		{} as Workflow,
		TEST_NODE,
		{} as IWorkflowExecuteAdditionalData,
	);
	return {
		httpRequest: async (options) => await helpers.httpRequest(options),
		request: async (uriOrObject, options) =>
			await helpers.request(uriOrObject as never, options as never),
	};
}

/**
 * The context n8n gives a credential test (`testedBy`): its `helpers.request` is n8n's legacy
 * helper.
 */
export function realCredentialTestContext(): ICredentialTestFunctions {
	return new CredentialTestContext(
		{} as IWorkflowExecuteAdditionalData,
	) as ICredentialTestFunctions;
}
