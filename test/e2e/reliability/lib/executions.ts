/** Counting a workflow's executions through n8n's REST API (the harness lists at most 100). */
import type { N8n } from '../../lib/n8n';
import { waitFor } from '../../lib/http';

export type ExecutionStatus = 'success' | 'error' | 'crashed' | 'canceled' | 'running' | 'new' | 'waiting';

export async function executionCount(n8n: N8n, workflowId: string, status?: ExecutionStatus[]): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify(status ? { workflowId, status } : { workflowId }));
	const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=1`);
	return data.count as number;
}

/** Waits until `workflowId` has `count` finished executions, then until the count stays put for `settleMs`. */
export async function waitForFinished(
	n8n: N8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
	settleMs = 0,
): Promise<number> {
	const finished: ExecutionStatus[] = ['success', 'error', 'crashed', 'canceled'];
	await waitFor(async () => (await executionCount(n8n, workflowId, finished)) >= count, `${count} finished executions`, timeoutMs, 200);
	if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
	return await executionCount(n8n, workflowId);
}
