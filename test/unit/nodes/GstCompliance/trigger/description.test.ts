/**
 * What the editor shows for the trigger before any event: the trigger panel, the activation message
 * and the canvas text say where the subscription is made, which URL to paste and where the
 * signing secret goes; the parameters carry no setup notice.
 */
import type { INode, TriggerPanelDefinition } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GstComplianceTrigger } from '../../../../../nodes/GstCompliance/GstComplianceTrigger.node';

const { description } = new GstComplianceTrigger();
const panel = description.triggerPanel as TriggerPanelDefinition;
const both = (text: string | { active: string; inactive: string } | undefined) =>
	typeof text === 'object' ? [text.inactive, text.active] : [text ?? ''];

describe('GST Compliance Trigger in the editor', () => {
	it('has a trigger panel with a header, executions help and activation hint for both states', () => {
		expect(typeof panel).toBe('object');
		expect(panel.header).toMatch(/Developer hub/);
		expect(typeof panel.executionsHelp).toBe('object');
		expect(typeof panel.activationHint).toBe('object');
	});

	it('says where to subscribe, which URL to paste in which state, and where the secret goes', () => {
		const [helpInactive, helpActive] = both(panel.executionsHelp);
		const [hintInactive, hintActive] = both(panel.activationHint);
		for (const text of [helpInactive, helpActive, hintInactive, hintActive]) {
			expect(text).toMatch(/Developer hub/);
			expect(text).toMatch(/signing secret/);
			expect(text).toMatch(/credential/);
		}
		// While building: the Test URL; once published: the Production URL.
		expect(hintInactive).toMatch(/<b>Test URL<\/b>[\s\S]*published[\s\S]*<b>Production URL<\/b>/);
		expect(helpInactive).toMatch(
			/Test URL[\s\S]*Execute step[\s\S]*send-test-event\.sh[\s\S]*Production URL/,
		);
		expect(hintActive).toMatch(/Production URL/);
		expect(helpActive).toMatch(/Production URL[\s\S]*data-key="executions"/);
		expect(description.activationMessage).toMatch(/Production URL[\s\S]*Developer hub/);
		expect(description.eventTriggerDescription).toMatch(/Test URL/);
	});

	it('once published, says what a production concurrency limit means: answered at once, except on n8n 2.0 to 2.33, and what to do there', () => {
		const [, helpActive] = both(panel.executionsHelp);
		expect(helpActive).toMatch(/N8N_CONCURRENCY_PRODUCTION_LIMIT, or your n8n Cloud plan/);
		expect(helpActive).toMatch(/answers the service as soon as a delivery is verified \(202\)/);
		expect(helpActive).toMatch(/n8n 2\.0 to 2\.33.*50 in a row deactivate the subscription/);
		expect(helpActive).toMatch(/update n8n to 2\.34 or later/);
	});

	it('once published, says when to attach a Redis credential (several n8n processes receiving webhooks), and that queue mode requires it', () => {
		const [, helpActive] = both(panel.executionsHelp);
		for (const text of [helpActive, description.activationMessage as string]) {
			expect(text).toMatch(/queue mode, where executions start on workers/);
			expect(text).toMatch(/multi-main/);
			expect(text).toMatch(/GST Compliance Dedupe Redis/);
			expect(text).toMatch(/refuse/);
		}
	});

	it('has no notice parameter; a saved workflow that still carries one loads without it', () => {
		expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
		const saved = {
			setupNotice: '',
			events: ['einvoice.failed'],
			refetch: false,
			options: {},
		};
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			saved,
			false,
			false,
			{ typeVersion: 1 },
			description,
		);
		expect(resolved).toEqual({ events: ['einvoice.failed'], options: {} });
		const node: INode = {
			id: 't1',
			name: 'GST Compliance Trigger',
			type: 'n8n-nodes-gst-compliance.gstComplianceTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: saved,
		};
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBe(
			null,
		);
	});
});
