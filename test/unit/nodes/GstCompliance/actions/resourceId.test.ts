/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The action node's two versions: version 1 keeps the plain string ID fields of saved workflows,
 * version 2 (the default for new nodes) has resource locators that the editor validates. The
 * editor's checks are n8n-workflow's own (NodeHelpers), run here on the node's description.
 */
import type {
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeProperties,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import { ID_ERROR, readResourceId } from '@/nodes/GstCompliance/actions/resourceId';
import { checkResourceId } from '@/nodes/GstCompliance/resources';

const { description } = new GstCompliance();

function node(typeVersion: number, parameters: INodeParameters): INode {
	return {
		id: 'n1',
		name: 'GST Compliance',
		type: 'n8n-nodes-gst-compliance.gstCompliance',
		typeVersion,
		position: [0, 0],
		parameters,
	};
}

const locator = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'id',
	value,
});

/** The ID field n8n shows for this version and resource. */
function displayedIdField(typeVersion: number, resource: 'einvoice' | 'ewaybill') {
	const values = { resource, operation: 'get' };
	return NodeHelpers.findDisplayedProperty(
		`${resource}Id`,
		description.properties,
		values,
		{ typeVersion },
		description,
	) as INodeProperties;
}

/** The parameter issues the editor shows for this node (n8n-workflow's getNodeParametersIssues). */
function idIssues(typeVersion: number, resource: 'einvoice' | 'ewaybill', id: unknown) {
	const parameters = { resource, operation: 'get', [`${resource}Id`]: id, options: {} };
	const issues = NodeHelpers.getNodeParametersIssues(
		description.properties,
		node(typeVersion, parameters as INodeParameters),
		description,
	);
	return issues?.parameters?.[`${resource}Id`] ?? [];
}

describe('GST Compliance node versions', () => {
	it('has versions 1 and 2 under the same name; new nodes get version 2', () => {
		expect(description.name).toBe('gstCompliance');
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	it.each(['einvoice', 'ewaybill'] as const)(
		'%s: version 1 shows a string field, version 2 a resource locator with only "By ID"',
		(resource) => {
			expect(displayedIdField(1, resource).type).toBe('string');
			const v2 = displayedIdField(2, resource);
			expect(v2.type).toBe('resourceLocator');
			expect(v2.required).toBe(true);
			expect(v2.modes?.map((mode) => mode.name)).toEqual(['id']);
			expect(v2.modes?.[0].hint).toMatch(/data\.id/);
		},
	);

	it('a saved version 1 node keeps its string ID, expression included', () => {
		const saved = { resource: 'einvoice', operation: 'get', einvoiceId: '={{ $json.data.id }}' };
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			saved,
			true,
			false,
			{ typeVersion: 1 },
			description,
		);
		expect(resolved?.einvoiceId).toBe('={{ $json.data.id }}');
		expect(idIssues(1, 'einvoice', '={{ $json.data.id }}')).toEqual([]);
		// Version 1 has no editor check of the format (the node checks it when it runs).
		expect(idIssues(1, 'einvoice', 'INV-2024-001')).toEqual([]);
	});

	it('a new version 2 node starts with an empty "By ID" locator that is flagged as required', () => {
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'einvoice', operation: 'get' },
			true,
			false,
			{ typeVersion: 2 },
			description,
		);
		expect(resolved?.einvoiceId).toMatchObject({ mode: 'id', value: '' });
		expect(idIssues(2, 'einvoice', resolved?.einvoiceId)).toEqual([
			'Parameter "E-Invoice" is required.',
		]);
	});

	it('version 2 flags an e-invoice ID without einv_ or with a slash, and accepts einv_ IDs and expressions', () => {
		expect(idIssues(2, 'einvoice', locator('INV-2024-001'))).toEqual([ID_ERROR.einvoice]);
		expect(idIssues(2, 'einvoice', locator('einv_1/../x'))).toEqual([ID_ERROR.einvoice]);
		expect(idIssues(2, 'einvoice', locator('einv_01J8ZK'))).toEqual([]);
		expect(idIssues(2, 'einvoice', locator(' einv_01J8ZK '))).toEqual([]);
		expect(idIssues(2, 'einvoice', locator('={{ $json.data.id }}'))).toEqual([]);
	});

	it('version 2 flags an e-way bill ID with a slash or a space only (no prefix is documented)', () => {
		expect(idIssues(2, 'ewaybill', locator('ewb_1'))).toEqual([]);
		expect(idIssues(2, 'ewaybill', locator('331000123456'))).toEqual([]);
		expect(idIssues(2, 'ewaybill', locator('a/b'))).toEqual([ID_ERROR.ewaybill]);
		expect(idIssues(2, 'ewaybill', locator('a b'))).toEqual([ID_ERROR.ewaybill]);
	});

	it.each(['einvoice', 'ewaybill'] as const)(
		'%s: the editor accepts exactly the non-empty IDs the node accepts when it runs',
		(resource) => {
			const samples = [
				'einv_1',
				' einv_2 ',
				'ewb_1',
				'123',
				'INV-1',
				'einv_',
				'einv_a/b',
				'a?b',
				'a#b',
				'a b',
				'\teinv_3\n',
			];
			for (const id of samples) {
				const editorAccepts = idIssues(2, resource, locator(id)).length === 0;
				expect({ id, editorAccepts }).toEqual({
					id,
					editorAccepts: checkResourceId(resource, id).ok,
				});
			}
		},
	);
});

describe('readResourceId', () => {
	/**
	 * getNodeParameter with `extractValue`, as n8n-core resolves it: the displayed property decides;
	 * a resource locator gives its value (no mode here has an extractValue regex), anything else
	 * is returned as it is.
	 */
	function context(typeVersion: number, parameters: INodeParameters) {
		const calls: unknown[][] = [];
		const fake = {
			getNodeParameter(name: string, itemIndex: number, fallback: unknown, options?: object) {
				calls.push([name, itemIndex, fallback, options]);
				const value = parameters[name] ?? fallback;
				if (!(options as { extractValue?: boolean })?.extractValue) return value;
				const property = NodeHelpers.findDisplayedProperty(
					name,
					description.properties,
					parameters,
					{ typeVersion },
					description,
				) as INodeProperties;
				if (property.type === 'resourceLocator' && value && typeof value === 'object')
					return (value as INodeParameterResourceLocator).value;
				return value;
			},
		};
		return { fake: fake as unknown as IExecuteFunctions, calls };
	}

	it('reads a version 1 string and a version 2 locator value, asking n8n to extract the value', () => {
		const v1 = context(1, { resource: 'einvoice', operation: 'get', einvoiceId: 'einv_1' });
		expect(readResourceId(v1.fake, 'einvoiceId', 3)).toBe('einv_1');
		expect(v1.calls).toEqual([['einvoiceId', 3, '', { extractValue: true }]]);
		const v2 = context(2, {
			resource: 'ewaybill',
			operation: 'get',
			ewaybillId: locator('ewb_9'),
		});
		expect(readResourceId(v2.fake, 'ewaybillId', 0)).toBe('ewb_9');
	});
});
