/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The trigger as n8n's contexts show it to webhook() and to the execution's first step. */
import type {
	IExecuteFunctions,
	INode,
	IWebhookFunctions,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { readTrigger, triggerOf, type TriggerContext } from '@/nodes/GstCompliance/trigger/context';

/** n8n's getNodeParameter, standing in: says which names it was asked for. */
const resolved: string[] = [];
const resolve = (name: string, fallback: unknown) => {
	resolved.push(name);
	return name === 'options' ? { dedupeWindowHours: 2 } : fallback;
};

function context(
	options: {
		workflowId?: string;
		mode?: WorkflowExecuteMode;
		credentials?: INode['credentials'];
		nodes?: Record<string, { id: string }>;
		parameters?: INode['parameters'];
	} = {},
) {
	const reads: string[] = [];
	const warnings: string[] = [];
	const staticData = { global: { counter: 1 }, node: {} };
	const node = {
		id: 'node-1',
		name: 'On e-invoice',
		credentials: options.credentials,
		parameters: options.parameters ?? {},
	} as INode;
	const ctx = {
		getNode: () => node,
		getWorkflow: () => ({ id: options.workflowId }),
		getMode: () => options.mode ?? 'webhook',
		getWorkflowStaticData: (type: string) => staticData[type as 'global' | 'node'],
		getCredentials: async (type: string) => {
			reads.push(type);
			return { type };
		},
		logger: {
			warn: (message: string) => void warnings.push(message),
			debug: () => {},
			error: () => {},
			info: () => {},
		},
		workflow: options.nodes ? { nodes: options.nodes } : undefined,
	} as unknown as TriggerContext; // a plain object standing for n8n's context
	return { ctx, reads, warnings };
}

describe('n8n’s contexts as the trigger reads them', () => {
	it('IWebhookFunctions and IExecuteFunctions → a TriggerContext as they are (ts-jest type-checks this file: a change in n8n’s types fails it)', () => {
		const asRead = [
			(context: IWebhookFunctions): TriggerContext => context,
			(context: IExecuteFunctions): TriggerContext => context,
		];
		expect(asRead).toHaveLength(2);
	});
});

describe('which trigger it is', () => {
	it('triggerOf → the workflow id and node id; "unsaved" before the first save', () => {
		expect(triggerOf(context({ workflowId: 'wf1' }).ctx)).toEqual({
			workflowId: 'wf1',
			nodeId: 'node-1',
		});
		expect(triggerOf(context().ctx)).toEqual({ workflowId: 'unsaved', nodeId: 'node-1' });
	});

	it('readTrigger → test for a Test-URL delivery (manual mode) only', () => {
		expect(readTrigger(context({ mode: 'manual' }).ctx, resolve).test).toBe(true);
		expect(readTrigger(context({ mode: 'webhook' }).ctx, resolve).test).toBe(false);
	});

	it('readTrigger → names the node and warns through n8n’s logger, each line naming the trigger and its workflow', () => {
		const { ctx, warnings } = context({ workflowId: 'wf1' });
		const trigger = readTrigger(ctx, resolve);
		expect(trigger).toMatchObject({
			workflowId: 'wf1',
			nodeId: 'node-1',
			nodeName: 'On e-invoice',
		});
		trigger.warn('careful');
		expect(warnings).toEqual(['GST Compliance Trigger "On e-invoice" (workflow wf1): careful']);
	});
});

describe('reading a parameter', () => {
	it('one saved without an expression → as saved, n8n not asked; one not set → the fallback', () => {
		resolved.length = 0;
		const { ctx } = context({ parameters: { events: ['einvoice.generated'], refetch: true } });
		const trigger = readTrigger(ctx, resolve);
		expect(trigger.parameter('events', [])).toEqual(['einvoice.generated']);
		expect(trigger.parameter('refetch', false)).toBe(true);
		expect(trigger.parameter('options', {})).toEqual({});
		expect(resolved).toEqual([]);
	});

	it('one holding an expression anywhere inside → n8n resolves it', () => {
		resolved.length = 0;
		const { ctx } = context({ parameters: { options: { dedupeWindowHours: '={{ 1 + 1 }}' } } });
		expect(readTrigger(ctx, resolve).parameter('options', {})).toEqual({ dedupeWindowHours: 2 });
		expect(resolved).toEqual(['options']);
	});

	it('the node → read from n8n once per call (each getNode() is a deep copy)', () => {
		const { ctx } = context();
		const getNode = jest.spyOn(ctx, 'getNode');
		const trigger = readTrigger(ctx, resolve);
		trigger.parameter('events', []);
		trigger.site(true);
		expect(trigger.node.id).toBe('node-1');
		expect(getNode).toHaveBeenCalledTimes(1);
	});
});

describe('reading a credential', () => {
	const saved = { gstComplianceWebhookApi: { id: 'cred-ctx-1', name: 'Webhook' } };

	it('a saved credential in production → read once for a burst of deliveries', async () => {
		const { ctx, reads } = context({ credentials: saved });
		for (let i = 0; i < 3; i++)
			await readTrigger(ctx, resolve).credential('gstComplianceWebhookApi');
		expect(reads).toEqual(['gstComplianceWebhookApi']);
	});

	it('a Test-URL delivery → read afresh each time (the user may just have edited it)', async () => {
		const { ctx, reads } = context({
			mode: 'manual',
			credentials: { gstComplianceWebhookApi: { id: 'cred-ctx-2', name: 'Webhook' } },
		});
		for (let i = 0; i < 3; i++)
			await readTrigger(ctx, resolve).credential('gstComplianceWebhookApi');
		expect(reads).toHaveLength(3);
	});
});

describe('the dedupe code’s view (site)', () => {
	it('without a Redis credential → no redisCredential; static data, node ids and warnings from n8n', () => {
		const { ctx, warnings } = context({
			workflowId: 'wf1',
			nodes: { A: { id: 'node-1' }, B: { id: 'node-2' } },
		});
		const site = readTrigger(ctx, resolve).site(true);
		expect(site).toMatchObject({
			workflowId: 'wf1',
			nodeId: 'node-1',
			writable: true,
		});
		expect(site.redisCredential).toBeUndefined();
		expect(site.staticData('global')).toEqual({ counter: 1 });
		expect(site.nodeIds?.()).toEqual(['node-1', 'node-2']);
		site.warn('w');
		expect(warnings).toEqual(['GST Compliance Trigger "On e-invoice" (workflow wf1): w']);
	});

	it('with a Redis credential → redisCredential reads it (cached like the others)', async () => {
		const { ctx, reads } = context({
			credentials: { gstComplianceRedisApi: { id: 'cred-ctx-3', name: 'Redis' } },
		});
		const site = readTrigger(ctx, resolve).site(false);
		expect(site.writable).toBe(false);
		expect(await site.redisCredential?.()).toEqual({ type: 'gstComplianceRedisApi' });
		await site.redisCredential?.();
		expect(reads).toEqual(['gstComplianceRedisApi']);
	});
});
