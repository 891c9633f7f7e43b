/* eslint-disable @typescript-eslint/no-explicit-any -- workflow JSON for n8n's REST API, untyped here; each spec asserts on the fields it reads */
/**
 * Workflows the reliability suite and the bench run in n8n, built from the harness's node builders.
 */
import * as crypto from 'crypto';

import { chain, triggerNode, triggerUrl, webhookNode } from './gst';
import { request } from './http';
import type { ExecutionDetail, ExecutionSummary, N8n } from './n8n';
import type { Session } from './session';

export interface TriggerWorkflow {
	workflowId: string;
	url: string;
	nodeName: string;
}

/**
 * An active workflow with only our trigger (all events), verifying with the session's webhook
 * credential unless another is given; `webhookId` fixes its URL in advance (see `triggerUrlOf`).
 */
export async function activeTrigger(
	session: Session,
	name: string,
	opts: { webhookCredential?: { id: string; name: string }; webhookId?: string } = {},
): Promise<TriggerWorkflow> {
	const node = triggerNode({
		events: ['*'],
		webhookCredential: opts.webhookCredential ?? session.webhookCredential,
		webhookId: opts.webhookId,
	});
	const wf = await session.n8n.createWorkflow({ name, nodes: [node] });
	await session.n8n.activateWorkflow(wf.id);
	return { workflowId: wf.id, url: triggerUrl(session.n8n, node), nodeName: node.name as string };
}

/**
 * An active workflow whose every execution holds its n8n concurrency slot for `seconds` (our
 * trigger, then a Wait node under 65 s, which n8n waits out in the process).
 */
export async function slowTriggerWorkflow(
	n8n: N8n,
	webhookCredential: { id: string; name: string },
	seconds: number,
): Promise<TriggerWorkflow> {
	const trigger = triggerNode({ events: ['*'], webhookCredential, webhookId: crypto.randomUUID() });
	const wait = {
		id: crypto.randomUUID(),
		name: `Work for ${seconds} s`,
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [220, 0],
		parameters: { resume: 'timeInterval', amount: seconds, unit: 'seconds' },
	};
	const wf = await n8n.createWorkflow({
		name: `slow ${crypto.randomUUID().slice(0, 8)}`,
		nodes: [trigger, wait],
		connections: chain(trigger.name as string, wait.name),
	});
	await n8n.activateWorkflow(wf.id);
	return { workflowId: wf.id, url: triggerUrl(n8n, trigger), nodeName: trigger.name as string };
}

/**
 * The production URL a trigger with this webhook id will have, behind the readiness check a
 * deployment puts in front of n8n (readinessGate.ts): the specs that restart n8n while the service
 * retries subscribe this one.
 */
export function triggerUrlOf(n8n: N8n, webhookId: string): string {
	return n8n.readyWebhookUrl(`${webhookId}/webhook`);
}

export interface BatchWorkflow {
	label: string;
	path: string;
	node: string;
	workflowId: string;
}

/** Webhook (answers when the last node is done) → Split Out (one item per `{ id }`) → `node`. */
export async function batchWorkflow(
	n8n: N8n,
	label: string,
	node: Record<string, unknown>,
): Promise<BatchWorkflow> {
	const path = `batch-${label}-${Date.now()}`;
	const trigger = webhookNode(path);
	trigger.parameters.responseData = 'firstEntryJson';
	const split = {
		id: `split-${label}`,
		name: 'One item per id',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [200, 0],
		parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
	};
	const wf = await n8n.createWorkflow({
		name: label,
		nodes: [trigger, split, { ...node, position: [400, 0] }],
		connections: chain(trigger.name, split.name, node.name as string),
	});
	await n8n.activateWorkflow(wf.id);
	return { label, path, node: node.name as string, workflowId: wf.id };
}

export interface BatchRun {
	execution: ExecutionDetail;
	items: Array<Record<string, unknown>>;
	/** The node's own `executionTime` from n8n's run data. */
	nodeMs: number;
	responseText: string;
}

/** Runs a batch workflow once over `ids` and returns the node's output items, in order. */
export async function runBatch(n8n: N8n, batch: BatchWorkflow, ids: string[]): Promise<BatchRun> {
	const response = await request(n8n.webhookUrl(batch.path), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ items: ids.map((id) => ({ id })) }),
		timeoutMs: 300_000,
	});
	const [latest] = await n8n.executions(batch.workflowId);
	if (!latest)
		throw new Error(
			`${batch.label}: no execution (webhook answered ${response.status}: ${response.text.slice(0, 300)})`,
		);
	const execution = await n8n.execution(latest.id);
	const run = execution.data?.resultData?.runData?.[batch.node]?.[0];
	const items = ((run?.data?.main?.[0] ?? []) as Array<{ json: Record<string, unknown> }>).map(
		(item) => item.json,
	);
	return { execution, items, nodeMs: run?.executionTime ?? NaN, responseText: response.text };
}

/**
 * Runs a published Webhook → `node` workflow once (one POST to the webhook) and returns its
 * execution and the node's output.
 */
export async function runOnce(
	n8n: N8n,
	node: Record<string, any>,
): Promise<{ execution: ExecutionSummary; output: Array<Record<string, any>> }> {
	const path = `run-once-${crypto.randomUUID()}`;
	const hook = webhookNode(path);
	const wf = await n8n.createWorkflow({
		name: `run once: ${node.name as string}`,
		nodes: [hook, node],
		connections: chain(hook.name, node.name as string),
	});
	await n8n.activateWorkflow(wf.id);
	await request(n8n.webhookUrl(path), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	const [execution] = await n8n.waitForExecutions(wf.id, 1);
	return { execution, output: await n8n.nodeOutput(execution.id, node.name as string) };
}
