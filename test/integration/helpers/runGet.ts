/**
 * The GST Compliance node's Get, run by n8n-core for items whose `id` field feeds the ID parameter
 * (as `{{ $json.id }}` maps it), with a client of the test file's emulator as its credential.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { ClientInfo, RunningEmulator } from '../../emulator';
import { GstCompliance } from '../../../nodes/GstCompliance/GstCompliance.node';
import { credentialData } from './emulatorForPackage';
import { executeContext } from './executeNode';

/** The ID parameter as a user maps it from the incoming item. */
export const ID_FROM_ITEM = '={{ $json.id }}';

export interface GetOptions {
	resource?: string;
	continueOnFail?: boolean;
	nodeOptions?: Record<string, unknown>;
	/** n8n before 1.123.50 (1.x) and 2.6 (2.x): `sendCredentialsOnCrossOriginRedirect` unknown. */
	n8nWithoutRedirectOption?: boolean;
}

const node = new GstCompliance();

export async function runGet(
	emulator: RunningEmulator,
	client: ClientInfo,
	ids: unknown[],
	options: GetOptions = {},
) {
	const items: INodeExecutionData[] = ids.map((id) => ({ json: { id } as never }));
	const { context, credentialsHelper } = executeContext({
		items,
		continueOnFail: options.continueOnFail,
		credentials: { gstComplianceApi: credentialData(emulator, client) },
		parameters: {
			resource: options.resource ?? 'einvoice',
			operation: 'get',
			einvoiceId: ID_FROM_ITEM,
			ewaybillId: ID_FROM_ITEM,
			options: (options.nodeOptions ?? {}) as INodeParameters,
		},
	});
	if (options.n8nWithoutRedirectOption) {
		const send = context.helpers.httpRequest;
		context.helpers.httpRequest = async (request) => {
			const known = { ...request };
			delete known.sendCredentialsOnCrossOriginRedirect;
			return await send(known);
		};
	}
	const [output] = await node.execute.call(context);
	return { output, context, credentialReads: credentialsHelper.reads };
}
