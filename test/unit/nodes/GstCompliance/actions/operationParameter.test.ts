/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The Operation selector of each resource, in n8n's shape. */
import { operationParameter } from '@/nodes/GstCompliance/actions/operationParameter';

describe('operationParameter: one Get per resource, shown for that resource only', () => {
	it('→ an options parameter named operation, Get by default, no expression, the action and description given', () => {
		expect(operationParameter('ewaybill', { action: 'Get one', description: 'Reads one' })).toEqual(
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['ewaybill'] } },
				options: [{ name: 'Get', value: 'get', action: 'Get one', description: 'Reads one' }],
				default: 'get',
			},
		);
	});
});
