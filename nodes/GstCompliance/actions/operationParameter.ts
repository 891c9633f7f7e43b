/**
 * The Operation selector each resource shows (one operation, Get, today): written once, so both
 * resources keep n8n's shape for it (noDataExpression, an action label for the node panel).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { GstResource } from '../resources';

export function operationParameter(
	resource: GstResource,
	get: { action: string; description: string },
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: [{ name: 'Get', value: 'get', ...get }],
		default: 'get',
	};
}
