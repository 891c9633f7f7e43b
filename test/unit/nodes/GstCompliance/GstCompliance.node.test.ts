/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/** The node's description as n8n and AI agents see it. */
import { readFileSync } from 'fs';
import { join } from 'path';

import { GstCompliance } from '../../../../nodes/GstCompliance/GstCompliance.node';
import { concurrencyOf } from '../../../../nodes/GstCompliance/actions/get';

describe('GST Compliance node description', () => {
	const { description } = new GstCompliance();

	it('has the contract names, subtitle, icons and tool support', () => {
		expect(description.name).toBe('gstCompliance');
		expect(description.displayName).toBe('GST Compliance');
		expect(description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expect(description.usableAsTool).toBe(true);
		expect(description.icon).toEqual({
			light: 'file:../../icons/gstCompliance.svg',
			dark: 'file:../../icons/gstCompliance.dark.svg',
		});
		expect(description.credentials).toEqual([
			{ name: 'gstComplianceApi', required: true, testedBy: 'testGstComplianceCredentials' },
		]);
	});

	it('offers E-Invoice and E-Way Bill with Get, and bounds concurrency at 20 (default 5)', () => {
		const resource = description.properties.find((p) => p.name === 'resource');
		expect(resource?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
			'einvoice',
			'ewaybill',
		]);
		const options = description.properties.find((p) => p.name === 'options');
		const concurrency = (
			options?.options as Array<{
				name: string;
				default: unknown;
				typeOptions?: { maxValue?: number };
			}>
		).find((o) => o.name === 'concurrency');
		expect(concurrency?.default).toBe(5);
		expect(concurrency?.typeOptions?.maxValue).toBe(20);
		expect(concurrencyOf(500)).toBe(20);
		expect(concurrencyOf(0)).toBe(5);
		expect(concurrencyOf('3')).toBe(3);
	});

	it('ships a codex file for this node', () => {
		const codex = JSON.parse(
			readFileSync(
				join(__dirname, '../../../../nodes/GstCompliance/GstCompliance.node.json'),
				'utf8',
			),
		);
		expect(codex.node).toBe('n8n-nodes-gst-compliance.gstCompliance');
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
	});
});
