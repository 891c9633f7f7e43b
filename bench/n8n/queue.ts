/**
 * Items 7–8 in n8n 2.41 queue mode (test/harness/queue: Postgres, the queue's Redis, a main, a
 * worker, two webhook processes). Five active workflows in the same deployment, each measured by
 * events/s from the first POST until n8n reports a finished execution for every event:
 *
 * - the bare Webhook node, and the Webhook node with Header Auth (n8n's cheapest way to accept only
 *   authenticated calls, and the side item 8's goal is judged against);
 * - our trigger with the Redis store (the queue's Redis, database 1), empty, and with 100,000 ids
 *   already in Redis (SETs straight into its key scope);
 * - our trigger with the Redis store through a round-robin balancer over both webhook processes.
 *
 * All but the last go to webhook process 1 only. Sides rotate order per run; a warm-up of 20 events
 * each is not counted. The built-in store is not measured here: queue mode refuses it (its
 * executions run on a worker); item 9 measures it in regular mode on SQLite and Postgres.
 */
import { randomUUID } from 'crypto';
import Redis from 'ioredis';

import {
	type LedgerScope,
	ledgerScope,
	redisEventKey,
} from '../../nodes/GstCompliance/trigger/dedupe/keys';
import { startedMark } from '../../nodes/GstCompliance/trigger/dedupe/redis/redisScripts';
import { CRED, request, triggerNode, uuid, waitFor, type N8n } from '../../test/harness';
import { startBalancer } from '../../test/harness/queue/balancer';
import { startQueueCluster } from '../../test/harness/queue/cluster';
import { ratios, type Row, type Section } from '../result';
import { HEADER_AUTH, webhookNode } from './events';
import { CONCURRENCY, postEvents } from './post';

const FILLED = 100_000;
const WINDOW_MS = (24 * 3600 + 300) * 1000;
const REDIS_CRED = 'gstComplianceRedisApi';

type SideName = 'bare' | 'headerAuth' | 'redis' | 'redisFull' | 'redisBalanced';

interface Side {
	label: string;
	url: string;
	workflowId: string;
	signed: boolean;
	done: number;
}

async function runSide(
	n8n: N8n,
	side: Side,
	events: number,
	secret: string,
	seq: { next: number },
): Promise<number> {
	const target = {
		...side,
		secret: side.signed ? secret : undefined,
		headers: { [HEADER_AUTH.name]: HEADER_AUTH.value },
	};
	const { finishedMs } = await postEvents(n8n, target, events, seq);
	side.done = target.done;
	return (events * 1000) / finishedMs;
}

export async function queueBench(runs: number, quick: boolean): Promise<Section> {
	const title = 'n8n 2.41 queue mode (Postgres, Redis, main, worker, 2 webhook processes)';
	const events = quick ? 100 : 200;
	const cluster = await startQueueCluster({ webhookProcesses: 2, env: { N8N_LOG_LEVEL: 'warn' } });
	const balancer = await startBalancer(cluster.webhooks.map((p) => () => p.baseUrl));
	const redis = new Redis({ host: cluster.queueRedis.host, port: cluster.queueRedis.port, db: 1 });
	try {
		const { main } = cluster;
		const secret = `whsec_${uuid()}`;
		const webhookCredential = await main.createCredential('bench webhook', CRED.webhook, {
			signingSecret: secret,
			previousSigningSecret: '',
		});
		const redisCredential = await main.createCredential('bench redis', REDIS_CRED, {
			host: cluster.queueRedis.host,
			port: cluster.queueRedis.port,
			database: 1,
		});
		const trigger = async (
			label: string,
			opts: { redis?: boolean; balanced?: boolean; fill?: boolean },
		): Promise<Side> => {
			const node = triggerNode({ events: ['*'], webhookCredential });
			if (opts.redis) node.credentials[REDIS_CRED] = redisCredential;
			const wf = await main.createWorkflow({ name: `bench: ${label}`, nodes: [node] });
			const scope = ledgerScope({ workflowId: wf.id, nodeId: node.id as string });
			if (opts.fill && opts.redis) await fillRedis(redis, scope);
			await main.activateWorkflow(wf.id);
			const path = `${node.webhookId}/webhook`;
			return {
				label,
				url: opts.balanced
					? `${balancer.url}/webhook/${path}`
					: cluster.webhooks[0].webhookUrl(path),
				workflowId: wf.id,
				signed: true,
				done: 0,
			};
		};
		const urlOf = cluster.webhooks[0].webhookUrl.bind(cluster.webhooks[0]);
		const headerCredential = await main.createCredential(
			'bench header auth',
			'httpHeaderAuth',
			HEADER_AUTH,
		);
		const sides: Record<SideName, Side> = {
			bare: await webhookSide(main, urlOf, 'bare'),
			headerAuth: await webhookSide(main, urlOf, 'header-auth', headerCredential),
			redis: await trigger('trigger + Redis', { redis: true }),
			redisFull: await trigger('trigger + Redis, 100,000 ids', { redis: true, fill: true }),
			redisBalanced: await trigger('trigger + Redis, 2 webhook processes', {
				redis: true,
				balanced: true,
			}),
		};
		// Webhook processes find new workflows through the database: wait until each trigger answers
		// (an unsigned request is refused before anything is read or started).
		for (const side of Object.values(sides).filter((s) => s.signed))
			await waitFor(
				async () => (await request(side.url, { method: 'POST', body: '{}' })).status !== 404,
				`${side.label} to be live`,
				60_000,
				250,
			);
		const names = Object.keys(sides) as SideName[];
		const seq = { next: 0 };
		for (const name of names) await runSide(main, sides[name], 20, secret, seq);
		const rates = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
			SideName,
			number[]
		>;
		for (let run = 0; run < runs; run++) {
			const order = names.map((_, i) => names[(i + run) % names.length]);
			for (const name of order)
				rates[name].push(await runSide(main, sides[name], events, secret, seq));
		}
		const row = (
			item: string,
			what: string,
			ours: SideName,
			base: SideName,
			baseLabel: string,
			goal: string,
			met?: (ratio: { median: number }) => boolean,
			note?: string,
		): Row => ({
			item,
			what,
			unit: 'events/s',
			ours: rates[ours],
			baseline: { label: baseLabel, values: rates[base] },
			ratio: ratios(rates[ours], rates[base]),
			goal,
			met,
			note,
		});
		const at = `${events} events at ${CONCURRENCY} in flight to webhook process 1, until every execution finished`;
		return {
			title,
			rows: [
				row(
					'8',
					`Trigger with the Redis store: ${at}, against the Webhook node with Header Auth`,
					'redis',
					'headerAuth',
					'Webhook node + Header Auth, same deployment',
					'≥ 0.9×',
					(r) => r.median >= 0.9,
					'Queue mode: the webhook process creates the execution in Postgres and queues it in Redis; the worker runs it. Both sides answer only authenticated calls; the Webhook node reads its credential on every request, our trigger once per 5 s. Ratio = our events/s ÷ the Webhook node’s.',
				),
				row(
					'8',
					'Same runs, against the bare Webhook node',
					'redis',
					'bare',
					'bare Webhook node, same deployment',
					'— (context)',
					undefined,
					'The bare node authenticates nothing and skips the expression isolate n8n 2.41 acquires for every request to a trigger other than its own Webhook node (bench/method.md).',
				),
				row(
					'7',
					`Same runs, Redis store with ${FILLED.toLocaleString('en')} ids in Redis`,
					'redisFull',
					'redis',
					'Redis store, empty',
					'≥ 0.9×',
					(r) => r.median >= 0.9,
				),
				row(
					'8',
					'Same runs, trigger with the Redis store through a round-robin balancer over 2 webhook processes',
					'redisBalanced',
					'redis',
					'the same trigger, webhook process 1 only',
					'— (context)',
					undefined,
					'Two webhook processes ÷ one on the same 2 cores: the main, the worker, both webhook processes, Postgres, both Redis and the load generator share them.',
				),
			],
		};
	} finally {
		redis.disconnect();
		await balancer.stop();
		await cluster.stop();
	}
}

/** n8n's Webhook node, bare or with Header Auth, answered by webhook process 1. */
async function webhookSide(
	main: N8n,
	urlOf: (path: string) => string,
	label: string,
	auth?: { id: string; name: string },
): Promise<Side> {
	const path = `qbench-${label}-${Date.now()}`;
	const node = webhookNode(`q-${label}`, path, auth);
	const wf = await main.createWorkflow({ name: `bench: ${label} webhook`, nodes: [node] });
	await main.activateWorkflow(wf.id);
	return {
		label: auth ? 'Webhook node + Header Auth' : 'bare Webhook node',
		url: urlOf(path),
		workflowId: wf.id,
		signed: false,
		done: 0,
	};
}

async function fillRedis(client: Redis, scope: LedgerScope): Promise<void> {
	for (let done = 0; done < FILLED; done += 1_000) {
		const pipeline = client.pipeline();
		for (let i = done; i < done + 1_000; i++)
			pipeline.set(
				redisEventKey(scope, `evt_fill_${i}`),
				startedMark(randomUUID()),
				'PX',
				WINDOW_MS,
			);
		await pipeline.exec();
	}
}
