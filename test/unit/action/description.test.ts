/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/** The node's description as n8n and AI agents see it, and pure helpers of the Get operation. */
import { readFileSync } from 'fs';
import { join } from 'path';

import { GstCompliance } from '../../../nodes/GstCompliance/GstCompliance.node';
import { concurrencyOf } from '../../../nodes/GstCompliance/actions/get';
import { runPool } from '../../../nodes/GstCompliance/helpers/workerPool';
import {
	checkResourceId,
	capabilityName,
	describePath,
	resourcePath,
} from '../../../transport/resources';

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
			readFileSync(join(__dirname, '../../../nodes/GstCompliance/GstCompliance.node.json'), 'utf8'),
		);
		expect(codex.node).toBe('n8n-nodes-gst-compliance.gstCompliance');
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
	});
});

describe('resource ids and paths', () => {
	it('checks e-invoice ids locally', () => {
		expect(checkResourceId('einvoice', ' einv_1 ')).toEqual({ ok: true, id: 'einv_1' });
		expect(checkResourceId('einvoice', 'einv_1/../x')).toMatchObject({ ok: false });
		expect(checkResourceId('einvoice', undefined)).toMatchObject({
			ok: false,
			message: expect.stringContaining('received nothing'),
		});
		expect(checkResourceId('ewaybill', 'ewb_1')).toEqual({ ok: true, id: 'ewb_1' });
		expect(checkResourceId('ewaybill', 123456789012)).toEqual({ ok: true, id: '123456789012' });
	});

	it('builds and reads resource paths, and names capabilities', () => {
		expect(resourcePath('einvoice', 'einv_a b')).toBe('/v1/einvoices/einv_a%20b');
		expect(describePath('/v1/ewaybills/ewb_1')).toEqual({ resource: 'ewaybill', id: 'ewb_1' });
		expect(describePath('/v1/other')).toBeUndefined();
		expect(capabilityName('ewaybill', 'x')).toBe('e-way bills');
		expect(capabilityName(undefined, 'e-invoices')).toBe('e-invoices');
		expect(capabilityName('bulk_export', 'x')).toBe('bulk_export');
	});
});

describe('runPool', () => {
	it('never runs more than the concurrency and visits every index once', async () => {
		let inFlight = 0;
		let max = 0;
		const seen: number[] = [];
		await runPool(50, 4, async (index) => {
			max = Math.max(max, ++inFlight);
			await new Promise((resolve) => setImmediate(resolve));
			seen.push(index);
			inFlight--;
		});
		expect(max).toBe(4);
		expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
	});

	it('stops starting tasks once one returns false', async () => {
		const started: number[] = [];
		await runPool(100, 2, async (index) => {
			started.push(index);
			return index !== 3;
		});
		expect(started.length).toBeLessThan(10);
	});
});
