/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Sample output a builder maps fields from before the first real event: the trigger templates'
 * pinned data (made by test/emulator/sampleEvents.ts) and the action node's output schemas
 * (nodes/GstCompliance/__schema__, served by n8n to the editor's schema preview).
 */
import * as fs from 'fs';
import * as path from 'path';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import {
	DOCUMENTED_FIELDS,
	EXAMPLES_DIR,
	outputShapeOf,
	PINNED_EVENTS,
	sampleEnvelopes,
	triggerItem,
	triggerOf,
} from '@/test/emulator/sampleEvents';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys and value types, recursively: what a mapping depends on. */
function shape(value: Json): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value !== null && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
	return value === null ? 'null' : typeof value;
}

const load = (file: string) => JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));

describe('pinned sample data in the trigger templates', () => {
	const triggerTemplates = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.filter((file) => triggerOf(load(file)));

	it('every template with a GST Compliance Trigger pins sample data on it', () => {
		expect(triggerTemplates.sort()).toEqual(Object.keys(PINNED_EVENTS).sort());
		for (const file of triggerTemplates) {
			const template = load(file);
			const trigger = triggerOf(template)!;
			expect({ file, pinned: Object.keys(template.pinData ?? {}) }).toEqual({
				file,
				pinned: [trigger.name],
			});
		}
	});

	it.each(Object.entries(PINNED_EVENTS))(
		'%s: each pinned item is shaped like the trigger output for a fresh emulator event of its type',
		async (file, types) => {
			const template = load(file);
			const trigger = triggerOf(template)!;
			const items = template.pinData[trigger.name] as Array<{ json: Json & { type: string } }>;
			expect(items.map((item) => item.json.type)).toEqual(types);
			const selected: string[] = trigger.parameters.events as string[];
			const fresh = await sampleEnvelopes(types);
			for (const [index, item] of items.entries()) {
				// The trigger would start the workflow with this type.
				expect(selected.includes(item.json.type) || selected.includes('*')).toBe(true);
				const expected = await triggerItem(fresh[index], outputShapeOf(trigger.parameters));
				expect(shape(item.json)).toEqual(shape(expected as Json));
			}
		},
	);

	it('pinned events → ids marked as samples, resources with only the fields docs/service-api.md lists', () => {
		for (const file of Object.keys(PINNED_EVENTS)) {
			const template = load(file);
			for (const item of template.pinData[triggerOf(template)!.name]) {
				expect({ file, id: item.json.id }).toEqual({
					file,
					id: expect.stringMatching(/^evt_sample_/),
				});
				const data = item.json.data as { object: 'einvoice' | 'ewaybill'; id: string };
				expect(Object.keys(data)).toEqual(DOCUMENTED_FIELDS[data.object]);
				if (data.object === 'einvoice') expect(data.id).toMatch(/^einv_/);
			}
		}
	});
});

describe('output schemas of the action node', () => {
	const schemaDir = path.resolve(__dirname, '../../../nodes/GstCompliance/__schema__');

	it.each([
		['v1.0.0', 'einvoice'],
		['v1.0.0', 'ewaybill'],
		['v2.0.0', 'einvoice'],
		['v2.0.0', 'ewaybill'],
	] as const)(
		'%s/%s/get.json lists the documented fields with their types',
		(version, resource) => {
			const schema = JSON.parse(
				fs.readFileSync(path.join(schemaDir, version, resource, 'get.json'), 'utf8'),
			);
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties)).toEqual(DOCUMENTED_FIELDS[resource]);
			for (const [field, property] of Object.entries(schema.properties))
				expect({ field, type: (property as { type: string }).type }).toEqual({
					field,
					type: field === 'totalInvoiceValue' ? 'number' : 'string',
				});
		},
	);

	it('has a schema folder for every node version (n8n serves the exact version only)', () => {
		const versions = new GstCompliance().description.version as number[];
		expect(fs.readdirSync(schemaDir).sort()).toEqual(versions.map((v) => `v${v}.0.0`));
	});
});
