/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The templates in examples/ as a user imports them, read as files: each trigger is the version the
 * editor adds today, each status template reads every event it gets (not only the first), and each
 * setup sticky says which URL to subscribe, where that subscription's secret goes, that the
 * service must reach the URL, and where refused deliveries show. What the templates do when run
 * is judged in a real n8n (test/e2e/specs/examples.test.ts, dataTableTemplate.test.ts).
 */
import * as fs from 'fs';
import * as path from 'path';

import type { INodeProperties } from 'n8n-workflow';

import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';

interface TemplateNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}
interface Template {
	nodes: TemplateNode[];
	pinData?: Record<string, Array<{ json: { id: string; data: Record<string, unknown> } }>>;
}

const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', '..', 'examples');
const load = (file: string): Template =>
	JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
const TEMPLATES = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
const triggerOf = (template: Template) =>
	template.nodes.find((node) => node.type === 'n8n-nodes-gst-compliance.gstComplianceTrigger');
const stickyOf = (template: Template) =>
	template.nodes
		.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
		.map((node) => String(node.parameters.content))
		.join('\n');
const WITH_TRIGGER = TEMPLATES.filter((file) => triggerOf(load(file)));
const squash = (text: string) => text.replace(/\s+/g, ' ');

/** Whether a parameter shows on a node of this version (its `@version` display conditions). */
function shownAt(property: INodeProperties, version: number): boolean {
	const holds = (condition: unknown) => {
		if (typeof condition === 'number') return condition === version;
		const [[operator, bound]] = Object.entries(
			(condition as { _cnd: Record<string, number> })._cnd,
		);
		return (
			{
				gte: version >= bound,
				gt: version > bound,
				lte: version <= bound,
				lt: version < bound,
				eq: version === bound,
			}[operator] ?? false
		);
	};
	const show = property.displayOptions?.show?.['@version'];
	const hide = property.displayOptions?.hide?.['@version'];
	return (!show || show.some(holds)) && !(hide ?? []).some(holds);
}

describe('the templates use the trigger the editor adds today', () => {
	const { description } = new GstComplianceTrigger().getNodeType();

	it('finds the trigger templates', () => {
		expect(WITH_TRIGGER.length).toBeGreaterThanOrEqual(3);
	});

	it.each(WITH_TRIGGER)('%s → the trigger is the default version, with its parameters', (file) => {
		const trigger = triggerOf(load(file))!;
		expect({ file, typeVersion: trigger.typeVersion }).toEqual({
			file,
			typeVersion: description.defaultVersion,
		});
		// The parameters of that version, set as a new node has them: no Redis store to set up.
		const names = description.properties
			.filter((property) => shownAt(property, trigger.typeVersion))
			.map((property) => property.name);
		for (const parameter of Object.keys(trigger.parameters))
			expect({ file, parameter, known: names.includes(parameter) }).toEqual({
				file,
				parameter,
				known: true,
			});
		expect(trigger.parameters.dedupeStore).toBe('builtIn');
	});
});

describe('the status templates read each event they get', () => {
	it.each(['status-data-table-upsert.json', 'status-sheet-upsert.json'])(
		'%s → no node reads only the first event, and two samples are pinned',
		(file) => {
			const template = load(file);
			const expressions = JSON.stringify(template.nodes);
			expect(expressions).not.toContain('.first()');
			expect(expressions).not.toContain("$('GST Compliance Trigger')");
			const types = template.pinData!['GST Compliance Trigger'].map(
				(item) => item.json.data.object,
			);
			expect(types).toEqual(['einvoice', 'ewaybill']);
		},
	);
});

describe('the setup stickies say which URL to subscribe and where its secret goes', () => {
	it.each(WITH_TRIGGER)(
		'%s → step 1 names the Production URL, the Developer hub and the credential',
		(file) => {
			const sticky = stickyOf(load(file));
			const step = sticky.split('\n').find((line) => line.includes('**GST Compliance Trigger**'));
			expect(step).toBeDefined();
			for (const phrase of [
				'**Webhook URLs**',
				'**Production URL**',
				'Developer hub',
				'signing secret',
				'**GST Compliance Webhook Signing Secret**',
			])
				expect({ file, phrase, said: step!.includes(phrase) }).toEqual({
					file,
					phrase,
					said: true,
				});
		},
	);

	it.each(WITH_TRIGGER)(
		'%s → says the Test URL needs its own subscription and secret, the service must reach the URL, and where refusals show',
		(file) => {
			const sticky = squash(stickyOf(load(file)));
			expect(sticky).toMatch(/\*\*Test URL\*\* is a second subscription with its own secret/);
			expect(sticky).toMatch(/update the credential when you switch/);
			expect(sticky).toMatch(/over the internet/);
			for (const address of ['localhost', '127.0.0.1', 'private address'])
				expect(sticky).toContain(address);
			expect(sticky).toContain('`WEBHOOK_URL`');
			expect(sticky).toContain('tunnel');
			expect(sticky).toMatch(/delivery log in the Developer hub/);
		},
	);
});

describe('the alert template marks its sample and sends the first run to a test channel', () => {
	const template = load('einvoice-failed-alert.json');
	const sticky = squash(stickyOf(template));
	const [sample] = template.pinData!['GST Compliance Trigger'];

	it('the pinned event → an id that marks it as a sample, a failed e-invoice with no IRN', () => {
		expect(sample.json.id).toMatch(/^evt_sample_/);
		expect(sample.json.data).toMatchObject({ status: 'failed_terminal', irn: '', ackNumber: '' });
	});

	it('Slack and e-mail → "(sample)" in front of what a sample event sends', () => {
		const marker = "{{ $json.id.startsWith('evt_sample') ? '(sample) ' : '' }}";
		const slack = template.nodes.find((node) => node.type === 'n8n-nodes-base.slack')!;
		const mail = template.nodes.find((node) => node.type === 'n8n-nodes-base.emailSend')!;
		expect(String(slack.parameters.text)).toContain(marker);
		expect(String(mail.parameters.subject)).toContain(marker);
	});

	it('the sticky → a test channel first, and a Slack-only path', () => {
		expect(sticky).toMatch(/a test channel first/);
		expect(sticky).toContain('Slack only? Delete **E-mail finance**');
	});
});
