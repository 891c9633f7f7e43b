/** Counting a workflow's executions through n8n's REST API (the harness lists at most 100). */
import type { N8n } from './n8n';
import { ExecutionStatusList } from 'n8n-workflow';
import { sleep } from './http';

export type ExecutionStatus =
	| 'success'
	| 'error'
	| 'crashed'
	| 'canceled'
	| 'running'
	| 'new'
	| 'waiting';

/**
 * How many executions `workflowId` has in `status` (every status by default). The statuses are
 * always named: without them n8n counts only finished executions, and lists running and finished
 * ones in two concurrent queries that can both miss an execution finishing between them.
 */
export async function executionCount(
	n8n: N8n,
	workflowId: string,
	status: readonly string[] = ExecutionStatusList,
): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status }));
	const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=1`);
	return data.count as number;
}

/**
 * Waits (bounded) until `workflowId` has `count` finished executions, then `settleMs` more so
 * that extra ones would show, and returns the total count. It does not throw on timeout: the
 * caller's assertion on the count says what was missing.
 */
export async function waitForFinished(
	n8n: N8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
	settleMs = 0,
): Promise<number> {
	const finished: ExecutionStatus[] = ['success', 'error', 'crashed', 'canceled'];
	const deadline = Date.now() + timeoutMs;
	while ((await executionCount(n8n, workflowId, finished)) < count && Date.now() < deadline)
		await sleep(250);
	if (settleMs > 0) await sleep(settleMs);
	return await executionCount(n8n, workflowId);
}
