/**
 * The resource ID parameter of both Get operations, in the two shapes the node has: a plain string
 * in node version 1, and a resource locator ("By ID") in version 2 so the editor checks the ID as
 * it is typed. The parameter name is the same in both versions, so saved version 1 workflows keep
 * their values, and `readResourceId` reads either.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { GstResource } from '../resources';
import { RESOURCES } from '../resources';

const V1 = { '@version': [1] };
const V2_ON = { '@version': [{ _cnd: { gte: 2 } }] };

/**
 * What the editor accepts in "By ID" (n8n anchors it with ^…$): what `checkResourceId` accepts,
 * surrounding whitespace included. Empty matches too, so an empty field shows only n8n's
 * "required" issue.
 */
export const ID_PATTERN: Record<GstResource, string> = {
	einvoice: `(\\s*${RESOURCES.einvoice.idPrefix}[^/?#\\s]*\\s*)?`,
	ewaybill: '(\\s*[^/?#\\s]+\\s*)?',
};

export const ID_ERROR: Record<GstResource, string> = {
	einvoice:
		'An e-invoice ID starts with einv_ and has no slash, "?", "#" or space (the IRN or the invoice number is not the ID)',
	ewaybill: 'An e-way bill ID has no slash, "?", "#" or space',
};

interface IdParameter {
	resource: GstResource;
	name: string;
	/** Version 1 label, kept as it is. */
	displayName: string;
	/** Version 2 label: n8n names a resource locator after the resource. */
	locatorName: string;
	description: string;
	/** Version 1 placeholder (none for e-way bills) and the "By ID" placeholder. */
	placeholder?: string;
	locatorPlaceholder: string;
	hint: string;
}

/** Both versions' ID parameter, each shown only for its node version. */
export function idParameters(parameter: IdParameter): INodeProperties[] {
	const show = { resource: [parameter.resource], operation: ['get'] };
	return [
		{
			displayName: parameter.displayName,
			name: parameter.name,
			type: 'string',
			required: true,
			default: '',
			...(parameter.placeholder ? { placeholder: parameter.placeholder } : {}),
			displayOptions: { show: { ...show, ...V1 } },
			description: parameter.description,
		},
		{
			displayName: parameter.locatorName,
			name: parameter.name,
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '' },
			displayOptions: { show: { ...show, ...V2_ON } },
			description: parameter.description,
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: parameter.locatorPlaceholder,
					hint: parameter.hint,
					validation: [
						{
							type: 'regex',
							properties: {
								regex: ID_PATTERN[parameter.resource],
								errorMessage: ID_ERROR[parameter.resource],
							},
						},
					],
				},
			],
		},
	];
}

/**
 * The ID of one item: `extractValue` makes n8n return a resource locator's value and leaves the
 * version 1 string as it is. The value is checked again before any request (`checkResourceId`),
 * because the editor's check skips expressions.
 */
export function readResourceId(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
): unknown {
	return context.getNodeParameter(name, itemIndex, '', { extractValue: true });
}
