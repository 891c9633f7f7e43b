/**
 * A fake IExecuteFunctions: parameters, input items, credentials and continueOnFail as n8n would
 * provide them, with real HTTP (see n8nHttp.ts). Everything else throws, so a test notices when
 * the node starts to depend on more of n8n than this fake covers.
 */
// @ts-nocheck

import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import { GstComplianceApi } from '../../../credentials/GstComplianceApi.credentials';
import type { HttpLogEntry, HttpStats } from './n8nHttp';
import { authenticatedHelpers, httpRequest } from './n8nHttp';

/** A parameter value, or a function of the item index (an expression such as {{ $json.id }}). */
export type ParameterValue = unknown | ((itemIndex: number) => unknown);

export interface ExecuteContextOptions {
	parameters: Record<string, ParameterValue>;
	items?: INodeExecutionData[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	credentialTypes?: Record<string, ICredentialType>;
	continueOnFail?: boolean;
	node?: Partial<INode>;
}

export interface FakeExecuteContext extends IExecuteFunctions {
	/** Every HTTP request made through the helpers, in order. */
	httpLog: HttpLogEntry[];
	httpStats: HttpStats;
}

export function fakeNode(overrides: Partial<INode> = {}): INode {
	return {
		id: 'node-1',
		name: 'GST Compliance',
		type: 'n8n-nodes-gst-compliance.gstCompliance',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...overrides,
	};
}

function readPath(source: Record<string, unknown>, path: string): unknown {
	let value: unknown = source;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

export function createExecuteContext(options: ExecuteContextOptions): FakeExecuteContext {
	const node = fakeNode(options.node);
	const items = options.items ?? [{ json: {} }];
	const credentialTypes = { gstComplianceApi: new GstComplianceApi(), ...options.credentialTypes };
	const httpLog: HttpLogEntry[] = [];
	const httpStats: HttpStats = { inFlight: 0, maxInFlight: 0 };
	const getCredentials = async (type: string) => {
		const data = options.credentials?.[type];
		if (!data) throw new Error(`Node does not have credentials of type ${type}`);
		return { ...data };
	};
	const context = {
		httpLog,
		httpStats,
		getNode: () => node,
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials,
		getNodeParameter(name: string, itemIndex: number, fallback?: unknown) {
			const [head, ...rest] = name.split('.');
			let value = options.parameters[head];
			if (typeof value === 'function') value = (value as (index: number) => unknown)(itemIndex);
			if (rest.length > 0)
				value = readPath((value ?? {}) as Record<string, unknown>, rest.join('.'));
			if (value === undefined) {
				if (fallback !== undefined) return fallback;
				throw new Error(`Could not get parameter "${name}"`);
			}
			return value;
		},
		helpers: {
			httpRequest: async (request: Parameters<typeof httpRequest>[0]) =>
				await httpRequest(request, httpLog, httpStats),
			...authenticatedHelpers({
				node,
				credentialTypes,
				getCredentials,
				log: httpLog,
				stats: httpStats,
			}),
		},
	};
	return new Proxy(context, {
		get(target, property, receiver) {
			if (property in target || typeof property === 'symbol' || property === 'then') {
				return Reflect.get(target, property, receiver);
			}
			throw new Error(`The fake IExecuteFunctions does not implement ${String(property)}`);
		},
	}) as unknown as FakeExecuteContext;
}
