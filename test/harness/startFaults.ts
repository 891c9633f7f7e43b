/**
 * The trigger's start (the execution's first step) when Redis answers late or not at all, in a
 * real n8n with the service emulator as the sender and a GST Compliance Dedupe Redis credential on
 * the trigger. What is counted is what a user counts: per event, the executions whose work node ran.
 * Used by the e2e spec of n8nCompat.ts (n8n 2.41) and the compatibility project (the other
 * versions).
 */
import {
	allExecutions,
	countWork,
	emitEvents,
	scenario,
	serviceView,
	settled,
	slotHolder,
	type WorkCount,
} from './acknowledgement';
import { holdingProxy } from './holdingProxy';
import { sleep, waitFor } from './http';
import { startRedis } from './queue/services';

/** Text only the trigger's START script sends (redisStore.ts), in this version and before. */
const START_SCRIPT_MARKER = "return 'started'";

export interface StartFaultResult {
	emitted: string[];
	work: WorkCount;
	/** Status of each execution of the workflow, oldest first. */
	statuses: string[];
}

/**
 * Redis runs the start's script but its reply reaches n8n 2.5 s late, past the client's 2 s command
 * timeout (a stall, a slow network): the start is tried again and must find its own mark.
 */
export async function startReplyLate(name: string): Promise<StartFaultResult> {
	const redis = await startRedis(`${name}-redis`);
	const proxy = await holdingProxy(redis);
	try {
		const s = await scenario(name, {
			env: {},
			workSeconds: 1,
			serviceTimeoutMs: 10_000,
			retryBaseMs: 5_000,
			redis: { host: '127.0.0.1', port: proxy.port },
		});
		try {
			proxy.holdAfter(START_SCRIPT_MARKER, 2_500);
			const emitted = await emitEvents(s, 1, 0);
			await serviceView(s, 60_000);
			await settled(s, 90_000);
			const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
			const statuses = (await allExecutions(s.n8n, s.workflowId)).map((e) => e.status);
			return { emitted, work, statuses };
		} finally {
			await s.session.stop();
		}
	} finally {
		await proxy.cut();
		await redis.dispose();
	}
}

/**
 * Redis stops after the delivery was accepted and before its execution starts (it waits for n8n's
 * only production slot): the start fails after its retries, holding the event. Redis comes back and
 * the user clicks Retry in the executions list: the retried execution starts the event once.
 */
export async function retryAfterFailedStart(name: string): Promise<StartFaultResult> {
	const redis = await startRedis(`${name}-redis`);
	try {
		const s = await scenario(name, {
			env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' },
			workSeconds: 1,
			serviceTimeoutMs: 10_000,
			retryBaseMs: 5_000,
			redis: { host: redis.host, port: redis.port },
			// Answered before the slot frees on every version (2.0–2.33 would wait for it), so Redis
			// stops while the execution waits.
			triggerOptions: { acknowledge: 'atOnce' },
		});
		try {
			const holder = await slotHolder(s.n8n, 5);
			const held = await fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
			if (!held) throw new Error('the slot holder did not answer');
			const emitted = await emitEvents(s, 1, 0);
			await serviceView(s, 30_000);
			await redis.stop();
			const failed = await waitFor(
				async () => (await allExecutions(s.n8n, s.workflowId)).find((e) => e.status === 'error'),
				'the execution to fail at its start',
				120_000,
				1_000,
			);
			await redis.start();
			await sleep(1_000);
			await s.n8n.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
			await settled(s, 90_000);
			const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
			const statuses = (await allExecutions(s.n8n, s.workflowId))
				.sort((a, b) => Number(a.id) - Number(b.id))
				.map((e) => e.status);
			return { emitted, work, statuses };
		} finally {
			await s.session.stop();
		}
	} finally {
		await redis.dispose();
	}
}
