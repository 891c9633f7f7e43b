/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/* eslint-disable no-console -- the spec prints the counts it measured, the numbers the issue asks to record */
/**
 * The trigger in n8n 2.41 queue mode: Postgres, the queue's Redis, one main, one worker and two
 * `n8n webhook` processes behind a round-robin balancer, the package installed as a community
 * package in each. Every trigger here has a Redis dedupe credential attached (the queue's own
 * Redis, database 1, except the outage spec, which has a Redis of its own so the queue keeps
 * running, and the cluster spec, which has a 3-node Redis Cluster), but one: without it, the
 * worker refuses the execution and says what to attach. Counts are executions read from n8n,
 * exactly.
 *
 * One cluster for the whole file (it takes about a minute to start on 2 cores); the specs run in
 * order and each has its own workflow, so one spec's events never count for another.
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import Redis from 'ioredis';

import {
	type LedgerScope,
	ledgerScope,
	REDIS_PREFIX,
	redisEventKey,
} from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { apiCredentialData, CRED, triggerNode, uuid } from '@/test/harness/gst';
import { sleep, waitFor, type HttpResponse } from '@/test/harness/http';
import type { N8n } from '@/test/harness/n8n';
import {
	CONCURRENCY,
	deliverSigned,
	deliveryPlan,
	DELIVERIES,
	einvoiceEvent,
	outcome,
	UNIQUE,
	type Envelope,
} from '@/test/e2e/reliability/lib/deliveries';
import { executionCount, waitForFinished } from '@/test/harness/executions';
import { runBounded, shuffled } from '@/test/harness/load';
import { startBalancer, type Balancer } from '@/test/harness/queue/balancer';
import { startQueueCluster, type QueueCluster } from '@/test/harness/queue/cluster';
import {
	startRedis,
	startRedisCluster,
	type RunningRedis,
	type RunningRedisCluster,
} from '@/test/harness/queue/services';

jest.setTimeout(900_000);

const REDIS_CRED = 'gstComplianceRedisApi';
const DEDUPE_REDIS_PASSWORD = `dedupe-${uuid()}`;

let emulator: RunningEmulator;
let client: ClientInfo;
let cluster: QueueCluster;
let balancer: Balancer;
let dedupeRedis: RunningRedis;
let main: N8n;
let signingSecret: string;
let webhookCredential: { id: string; name: string };
let queueRedisCredential: { id: string; name: string };
let ownRedisCredential: { id: string; name: string };

beforeAll(async () => {
	emulator = await startEmulator({ seed: false, retryBaseMs: 2_000, deliveryTimeoutMs: 5_000 });
	// Settled, not Promise.all: when one fails, afterAll still stops the other.
	const [started, redis] = await Promise.allSettled([
		startQueueCluster({ webhookProcesses: 2 }),
		startRedis('dedupe-redis', { password: DEDUPE_REDIS_PASSWORD }),
	]);
	if (redis.status === 'fulfilled') dedupeRedis = redis.value;
	if (started.status === 'fulfilled') cluster = started.value;
	if (started.status === 'rejected') throw started.reason;
	if (redis.status === 'rejected') throw redis.reason;
	main = cluster.main;
	balancer = await startBalancer(cluster.webhooks.map((process) => () => process.baseUrl));
	client = emulator.control.createClient({ environment: 'sandbox' });
	signingSecret = `whsec_${uuid()}`;
	webhookCredential = await main.createCredential('GST webhook', CRED.webhook, {
		signingSecret,
		previousSigningSecret: '',
	});
	queueRedisCredential = await main.createCredential('Queue Redis (db 1)', REDIS_CRED, {
		host: cluster.queueRedis.host,
		port: cluster.queueRedis.port,
		database: 1,
		user: '',
		password: '',
		ssl: false,
	});
	ownRedisCredential = await main.createCredential('Dedupe Redis', REDIS_CRED, {
		host: dedupeRedis.host,
		port: dedupeRedis.port,
		database: 0,
		user: '',
		password: DEDUPE_REDIS_PASSWORD,
		ssl: false,
	});
});

afterAll(async () => {
	await balancer?.stop();
	await cluster?.stop();
	await dedupeRedis?.dispose();
	await emulator?.stop();
});

interface Trigger {
	workflowId: string;
	webhookId: string;
	nodeName: string;
	/** The dedupe keys' scope in Redis. */
	scope: LedgerScope;
	/** Production URL on webhook process `index`. */
	url(index: number): string;
	/** Production URL through the balancer. */
	balancedUrl: string;
}

async function activeTrigger(
	name: string,
	/** undefined: the built-in store. */
	redisCredential: { id: string; name: string } | undefined,
	opts: {
		webhookCredential?: { id: string; name: string };
		webhookId?: string;
		options?: Record<string, unknown>;
		apiCredential?: { id: string; name: string };
	} = {},
): Promise<Trigger> {
	const node = triggerNode({
		events: ['*'],
		webhookCredential: opts.webhookCredential ?? webhookCredential,
		webhookId: opts.webhookId ?? uuid(),
		options: opts.options,
		apiCredential: opts.apiCredential,
		refetch: opts.apiCredential !== undefined,
	});
	if (redisCredential) node.credentials[REDIS_CRED] = redisCredential;
	const wf = await main.createWorkflow({ name, nodes: [node] });
	await main.activateWorkflow(wf.id);
	const webhookId = node.webhookId as string;
	const trigger: Trigger = {
		workflowId: wf.id,
		webhookId,
		nodeName: node.name as string,
		scope: ledgerScope({ workflowId: wf.id, nodeId: node.id as string }),
		url: (index) => cluster.triggerUrl(index, { webhookId }),
		balancedUrl: `${balancer.url}/webhook/${webhookId}/webhook`,
	};
	// Webhook processes find a newly activated workflow through the database; wait until both
	// answer its URL (an unsigned request is refused by the trigger itself, not a 404).
	for (const index of cluster.webhooks.keys())
		await waitFor(
			async () => (await deliverSigned(trigger.url(index), einvoiceEvent(-1), 'x')).status === 401,
			`workflow ${wf.id} to be live on webhook process ${index + 1}`,
			60_000,
			250,
		);
	return trigger;
}

/**
 * One delivery as the service makes it: answered non-2xx (e.g. 503 while Redis is down), it is
 * sent again, freshly signed, after a short pause.
 * Returns every answer, the last one a 2xx unless the attempts ran out.
 */
async function deliverWithRetry(url: string, event: Envelope, attempts = 40): Promise<string[]> {
	const answers: string[] = [];
	for (let attempt = 0; attempt < attempts; attempt++) {
		const response: HttpResponse = await deliverSigned(url, event, signingSecret);
		answers.push(outcome(response));
		if (response.status >= 200 && response.status < 300) break;
		await sleep(250);
	}
	return answers;
}

/**
 * Sends each step round-robin over both webhook processes (step i to process i % 2; a burst's
 * copies alternate between both), each delivery retried as the service retries it. Returns the
 * answers per event id and the load's own record.
 */
async function sendSteps(
	trigger: Trigger,
	steps: Array<Envelope | Envelope[]>,
	concurrency: number,
	deadlineMs: number,
) {
	const outcomes = new Map<string, string[][]>();
	const send = async (event: Envelope, process: number) => {
		const answers = await deliverWithRetry(trigger.url(process), event);
		outcomes.set(event.id, [...(outcomes.get(event.id) ?? []), answers]);
	};
	const load = await runBounded(
		steps.length,
		concurrency,
		async (index) => {
			const step = steps[index];
			await (Array.isArray(step)
				? Promise.all(step.map((event, j) => send(event, j % 2)))
				: send(step, index % 2));
		},
		deadlineMs,
	);
	expect(load.results.filter((r) => r.error).map((r) => r.error?.message)).toEqual([]);
	expect(load.notStarted).toBe(0);
	return { outcomes, load };
}

/** Per event id: how many 2xx answers said "accepted" and the other answers seen. */
function tally(outcomes: Map<string, string[][]>) {
	const accepted = [...outcomes.values()].map(
		(deliveries) => deliveries.filter((answers) => answers.at(-1) === 'accepted').length,
	);
	const finals = new Set([...outcomes.values()].flatMap((d) => d.map((a) => a.at(-1))));
	const retried = [...outcomes.values()].flat().filter((answers) => answers.length > 1).length;
	return { accepted, finals: [...finals].sort(), retried };
}

describe('the dedupe lease and window at their edges', () => {
	let inspect: Redis;
	beforeAll(() => {
		inspect = new Redis({ host: cluster.queueRedis.host, port: cluster.queueRedis.port, db: 1 });
	});
	afterAll(() => inspect?.disconnect());

	it('a decimal Dedupe Window (4.1 h) remembers a started id for the whole window', async () => {
		const trigger = await activeTrigger('queue: decimal window', queueRedisCredential, {
			options: { dedupeWindowHours: 4.1 },
		});
		const event = einvoiceEvent(2_000_001);
		expect(outcome(await deliverSigned(trigger.url(0), event, signingSecret))).toBe('accepted');
		await waitForFinished(main, trigger.workflowId, 1, 60_000, 500);
		const key = redisEventKey(trigger.scope, event.id);
		// Committed for the window, not left to lapse as a lease of seconds.
		await waitFor(
			async () => (await inspect.pttl(key)) > 4 * 3_600_000,
			'the id to be committed for 4.1 h',
			10_000,
			100,
		);
		expect(outcome(await deliverSigned(trigger.url(1), event, signingSecret))).toBe('duplicate');
	});

	it('a negative Dedupe Window (set through the API) is taken as the shortest, 1 h: events still start', async () => {
		const trigger = await activeTrigger('queue: negative window', queueRedisCredential, {
			options: { dedupeWindowHours: -3 },
		});
		const event = einvoiceEvent(2_000_002);
		expect(outcome(await deliverSigned(trigger.url(0), event, signingSecret))).toBe('accepted');
		expect(outcome(await deliverSigned(trigger.url(1), event, signingSecret))).toBe('duplicate');
		expect(await waitForFinished(main, trigger.workflowId, 1, 60_000, 500)).toBe(1);
	});

	it('a refetch of 50 s runs in the worker’s execution: both deliveries are answered at once, the redelivery meanwhile creates no execution', async () => {
		const apiCredential = await main.createCredential(
			'GST API (refetch)',
			CRED.api,
			apiCredentialData(emulator, client),
		);
		const trigger = await activeTrigger('queue: slow refetch', queueRedisCredential, {
			apiCredential,
		});
		const event = einvoiceEvent(2_000_003);
		// The GET times out after 30 s and its retry answers 20 s later: a refetch of ~50 s.
		emulator.control.injectApiFaults([
			{ kind: 'slow', ms: 45_000 },
			{ kind: 'slow', ms: 20_000 },
		]);
		const started = Date.now();
		expect(outcome(await deliverSigned(trigger.url(0), event, signingSecret))).toBe('accepted');
		expect(Date.now() - started).toBeLessThan(10_000); // the service's timeout, not a speed goal
		await sleep(35_000);
		const meanwhile = await deliverSigned(trigger.url(1), event, signingSecret);
		expect(outcome(meanwhile)).toBe('duplicate');
		expect(await waitForFinished(main, trigger.workflowId, 1, 90_000, 500)).toBe(1);
		await sleep(2_000);
		expect(await executionCount(main, trigger.workflowId)).toBe(1);
	});
});

it("the Redis credential's Test button, in the main, connects (ioredis resolved from n8n's install)", async () => {
	const data = {
		host: dedupeRedis.host,
		port: dedupeRedis.port,
		database: 0,
		user: '',
		password: DEDUPE_REDIS_PASSWORD,
		ssl: false,
	};
	expect(await main.testCredential(ownRedisCredential, REDIS_CRED, data)).toEqual({
		status: 'OK',
		message: `Connected to Redis at ${dedupeRedis.host}:${dedupeRedis.port} (db 0)`,
	});
	const wrong = await main.testCredential(ownRedisCredential, REDIS_CRED, {
		...data,
		password: 'not-the-Pa55word',
	});
	expect(wrong.status).toBe('Error');
	expect(wrong.message).toContain(`${dedupeRedis.host}:${dedupeRedis.port}`);
	expect(wrong.message).not.toContain('not-the-Pa55word');
});

describe('queue mode with no Redis credential (the built-in store lives in one process)', () => {
	it('a delivery is answered, and its execution on the worker fails holding the event, naming the Redis credential to attach; nothing after the trigger runs', async () => {
		const trigger = await activeTrigger('queue: built-in store', undefined);
		const event = einvoiceEvent(5_000_001);
		expect(outcome(await deliverSigned(trigger.url(0), event, signingSecret))).toBe('accepted');
		await waitForFinished(main, trigger.workflowId, 1, 60_000, 0);
		const [execution] = await main.executions(trigger.workflowId);
		expect(execution.status).toBe('error');
		const detail = await main.execution(execution.id);
		const error = detail.data?.resultData?.error as { message?: string; description?: string };
		expect(error?.message).toMatch(/another n8n process than the one that received its delivery/);
		expect(error?.description).toMatch(
			/^Attach a GST Compliance Dedupe Redis credential.*once the credential is attached/,
		);
	});

	it('the worker’s clock 2 min ahead of the webhook processes’ (faketime): its execution still fails naming the Redis credential; no clocks are compared (review 6, N5)', async () => {
		const { worker } = cluster;
		await worker.stop();
		worker.clockOffset = '+120s';
		await worker.start();
		try {
			const trigger = await activeTrigger('queue: built-in store, worker ahead', undefined);
			const event = einvoiceEvent(5_000_002);
			expect(outcome(await deliverSigned(trigger.url(0), event, signingSecret))).toBe('accepted');
			await waitForFinished(main, trigger.workflowId, 1, 60_000, 0);
			const [execution] = await main.executions(trigger.workflowId);
			const detail = await main.execution(execution.id);
			const error = detail.data?.resultData?.error as { message?: string };
			expect({ status: execution.status, message: error?.message }).toEqual({
				status: 'error',
				message: expect.stringMatching(/another n8n process than the one that received/),
			});
		} finally {
			await worker.stop();
			worker.clockOffset = undefined;
			await worker.start();
		}
	});
});

/**
 * Redelivery to the other webhook process, 1 s and 1 min after the first delivery. The 1-minute
 * spec runs after the 1,000-delivery one, which fills most of the minute.
 */
const redelivery = {
	EVENTS: 30,
	trigger: undefined as unknown as Trigger,
	events: [] as Envelope[],
	firstSentAt: 0,
	outcomes: new Map<string, string[][]>(),
	async send(event: Envelope, process: number) {
		const answers = await deliverWithRetry(this.trigger.url(process), event);
		this.outcomes.set(event.id, [...(this.outcomes.get(event.id) ?? []), answers]);
	},
};

describe('redelivery to the other webhook process', () => {
	const { EVENTS } = redelivery;
	let trigger: Trigger;
	let events: Envelope[];
	const { outcomes } = redelivery;
	const send = (event: Envelope, process: number) => redelivery.send(event, process);

	beforeAll(async () => {
		trigger = redelivery.trigger = await activeTrigger('queue: redelivery', queueRedisCredential);
		events = redelivery.events = Array.from({ length: EVENTS }, (_, i) =>
			einvoiceEvent(1_000_000 + i),
		);
	});

	it('1 s after the first delivery: no second start', async () => {
		redelivery.firstSentAt = Date.now();
		await Promise.all(events.map((event, i) => send(event, i % 2)));
		await sleep(1_000);
		await Promise.all(events.map((event, i) => send(event, (i + 1) % 2)));
		const total = await waitForFinished(main, trigger.workflowId, EVENTS, 120_000, 2_000);
		const { accepted, finals } = tally(outcomes);
		console.log(
			`redelivery at 1 s: ${EVENTS} events, ${total} executions, ${accepted.filter((n) => n > 1).length} ids accepted twice`,
		);
		expect(total).toBe(EVENTS);
		expect(accepted.filter((n) => n !== 1)).toEqual([]);
		expect(finals).toEqual(['accepted', 'duplicate']);
	});
});

describe('1,000 deliveries over both webhook processes', () => {
	it('starts exactly one execution per unique event id', async () => {
		const trigger = await activeTrigger('queue: 1,000 deliveries', queueRedisCredential);
		const events = Array.from({ length: UNIQUE }, (_, i) => einvoiceEvent(2_000_000 + i));
		const steps = deliveryPlan(events);
		expect(steps.flat()).toHaveLength(DELIVERIES);

		const { outcomes, load } = await sendSteps(trigger, steps, CONCURRENCY, 480_000);

		const total = await waitForFinished(main, trigger.workflowId, UNIQUE, 360_000, 3_000);
		const { accepted, finals, retried } = tally(outcomes);
		console.log(
			`1,000 deliveries: ${UNIQUE} unique ids, ${total} executions, ` +
				`${accepted.filter((n) => n > 1).length} ids accepted more than once, ` +
				`${retried} deliveries answered non-2xx first and sent again, ${load.elapsedMs} ms`,
		);
		expect(total).toBe(UNIQUE);
		expect(accepted).toHaveLength(UNIQUE);
		expect(accepted.filter((n) => n !== 1)).toEqual([]);
		expect(finals).toEqual(['accepted', 'duplicate']);
		expect(await executionCount(main, trigger.workflowId, ['success'])).toBe(UNIQUE);
	});
});

describe('redelivery to the other webhook process, later', () => {
	it('1 min after the first delivery: no second start', async () => {
		const { EVENTS, trigger, events, outcomes, firstSentAt } = redelivery;
		const send = (event: Envelope, process: number) => redelivery.send(event, process);
		// The other specs in between use most of the minute.
		await sleep(Math.max(0, firstSentAt + 60_000 - Date.now()));
		await Promise.all(events.map((event, i) => send(event, (i + 1) % 2)));
		await sleep(2_000);
		const total = await waitForFinished(main, trigger.workflowId, EVENTS, 60_000, 2_000);
		const { accepted } = tally(outcomes);
		console.log(
			`redelivery at 1 min: ${EVENTS} events, ${total} executions after both redeliveries`,
		);
		expect(total).toBe(EVENTS);
		expect(accepted.filter((n) => n !== 1)).toEqual([]);
	});
});

/**
 * Events the emulator delivers through the balancer, retrying what fails; returns when every
 * delivery is acknowledged. `during(i)` runs after event i is emitted (the fault goes there).
 */
async function emulatedStream(
	trigger: Trigger,
	subscriptionId: string,
	count: number,
	everyMs: number,
	during: (i: number) => Promise<void> | void,
): Promise<string[]> {
	const { control } = emulator;
	for (let i = 0; i < count; i++) {
		control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' });
		await during(i);
		await sleep(everyMs);
	}
	await waitFor(
		async () => control.deliveries({ subscriptionId }).every((d) => d.state === 'delivered'),
		'every delivery to be acknowledged',
		240_000,
		500,
	);
	const deliveries = control.deliveries({ subscriptionId });
	expect(deliveries.filter((d) => d.state !== 'delivered')).toEqual([]);
	expect(control.subscriptions().find((s) => s.id === subscriptionId)?.active).toBe(true);
	return deliveries.map((d) => d.eventId);
}

/** Which event each execution of the workflow started for. */
async function eventsStarted(trigger: Trigger): Promise<Map<string, string[]>> {
	const perEvent = new Map<string, string[]>();
	for (const execution of await main.executions(trigger.workflowId)) {
		const [item] = await main.nodeOutput(execution.id, trigger.nodeName);
		const eventId = String(item?.id ?? `(no output: execution ${execution.id})`);
		perEvent.set(eventId, [...(perEvent.get(eventId) ?? []), execution.status]);
	}
	return perEvent;
}

async function subscribedTrigger(name: string, redisCredential: { id: string; name: string }) {
	const webhookId = uuid();
	const subscription = emulator.control.createSubscription({
		clientId: client.clientId,
		url: `${balancer.url}/webhook/${webhookId}/webhook`,
		events: ['einvoice.generated'],
	});
	const credential = await main.createCredential(`${name} signing`, CRED.webhook, {
		signingSecret: subscription.signingSecret,
		previousSigningSecret: '',
	});
	const trigger = await activeTrigger(name, redisCredential, {
		webhookCredential: credential,
		webhookId,
	});
	return { trigger, subscriptionId: subscription.id };
}

it('dedupe Redis stopped mid-stream: 5xx while down, then each missing event starts once', async () => {
	const EVENTS = 20;
	const { trigger, subscriptionId } = await subscribedTrigger(
		'queue: redis down',
		ownRedisCredential,
	);
	const before = balancer.stats().statuses;
	let downAnswers = 0;
	const emitted = await emulatedStream(trigger, subscriptionId, EVENTS, 300, async (i) => {
		if (i === 5) await dedupeRedis.stop();
		if (i === 14) {
			const during = balancer.stats().statuses;
			downAnswers = Object.entries(during)
				.filter(([status]) => Number(status) >= 500)
				.reduce((sum, [status, n]) => sum + n - (before[Number(status)] ?? 0), 0);
			await dedupeRedis.start();
		}
	});
	expect(downAnswers).toBeGreaterThan(0);
	const total = await waitForFinished(main, trigger.workflowId, EVENTS, 120_000, 3_000);
	const perEvent = await eventsStarted(trigger);
	console.log(
		`redis down: ${EVENTS} events, ${total} executions, ${downAnswers} answers >= 500 while down`,
	);
	expect({ total, events: [...perEvent.keys()].sort() }).toEqual({
		total: EVENTS,
		events: [...emitted].sort(),
	});

	// The error names the Redis host; no password in any process's log or in any answer.
	const logs = [
		cluster.main.logs(),
		...cluster.webhooks.map((p) => p.logs()),
		cluster.worker.logs(),
	];
	expect(logs.some((log) => log.includes(`${dedupeRedis.host}:${dedupeRedis.port}`))).toBe(true);
	expect(logs.filter((log) => log.includes(DEDUPE_REDIS_PASSWORD))).toEqual([]);
	const bodies = emulator.control
		.deliveries({ subscriptionId })
		.map((d) => `${d.lastResponseBody ?? ''} ${d.lastError ?? ''}`);
	expect(bodies.filter((body) => body.includes(DEDUPE_REDIS_PASSWORD))).toEqual([]);
});

describe('the dedupe store on a Redis Cluster', () => {
	const CLUSTER_EVENTS = 150;
	let redisCluster: RunningRedisCluster;
	let clusterCredential: { id: string; name: string };
	let data: Record<string, unknown>;

	beforeAll(async () => {
		redisCluster = await startRedisCluster('dedupe-cluster', { password: DEDUPE_REDIS_PASSWORD });
		data = {
			deployment: 'cluster',
			clusterNodes: redisCluster.clusterNodes,
			user: '',
			password: DEDUPE_REDIS_PASSWORD,
			ssl: false,
		};
		clusterCredential = await main.createCredential('Dedupe Redis Cluster', REDIS_CRED, data);
	});

	afterAll(async () => {
		await redisCluster?.dispose();
	});

	it("the credential's Test button, in the main, connects to the cluster", async () => {
		const result = await main.testCredential(clusterCredential, REDIS_CRED, data);
		expect(result.status).toBe('OK');
		expect(result.message).toContain('the Redis Cluster of');
	});

	it('over both webhook processes: each unique event once, 20 concurrent copies included, ids on every node', async () => {
		const trigger = await activeTrigger('queue: redis cluster', clusterCredential);
		const events = Array.from({ length: CLUSTER_EVENTS }, (_, i) => einvoiceEvent(4_000_000 + i));
		const steps: Array<Envelope | Envelope[]> = shuffled([...events, ...events.slice(0, 50)], 7);
		steps.splice(steps.length / 2, 0, Array(20).fill(events[CLUSTER_EVENTS - 1]));
		const { outcomes } = await sendSteps(trigger, steps, 8, 300_000);

		const total = await waitForFinished(main, trigger.workflowId, CLUSTER_EVENTS, 240_000, 3_000);
		const { accepted, finals } = tally(outcomes);
		expect(total).toBe(CLUSTER_EVENTS);
		expect(accepted.filter((n) => n !== 1)).toEqual([]);
		expect(finals).toEqual(['accepted', 'duplicate']);

		// The trigger's keys are spread over the three masters (one key per id, any slot).
		const perNode = await Promise.all(
			redisCluster.nodes.map(async (node) => {
				const direct = new Redis({
					host: node.host,
					port: node.port,
					password: DEDUPE_REDIS_PASSWORD,
				});
				const keys = await direct.keys(`${REDIS_PREFIX}:${trigger.scope}:*`);
				direct.disconnect();
				return keys.length;
			}),
		);
		console.log(
			`redis cluster: ${CLUSTER_EVENTS} events, ${total} executions, keys per node ${perNode}`,
		);
		expect(perNode.every((count) => count > 0)).toBe(true);
		expect(perNode.reduce((a, b) => a + b, 0)).toBe(CLUSTER_EVENTS);
	});
});

it('SIGKILL of a webhook process mid-stream, restarted, the emulator retrying: every event once', async () => {
	const EVENTS = 24;
	const { trigger, subscriptionId } = await subscribedTrigger('queue: kill', queueRedisCredential);
	const victim = cluster.webhooks[0];
	let restarted: Promise<void> | undefined;
	const emitted = await emulatedStream(trigger, subscriptionId, EVENTS, 400, async (i) => {
		if (i === 7) {
			await victim.kill();
			restarted = victim.start();
		}
	});
	await restarted;
	expect(new Set(emitted).size).toBe(EVENTS);
	const retried = emulator.control.deliveries({ subscriptionId }).filter((d) => d.attempts > 1);
	console.log(
		`kill: ${retried.length} deliveries retried; balancer ${JSON.stringify(balancer.stats())}`,
	);

	const total = await waitForFinished(main, trigger.workflowId, EVENTS, 120_000, 3_000);
	const perEvent = await eventsStarted(trigger);
	console.log(`kill: ${EVENTS} events, ${total} executions`);
	expect({ total, events: [...perEvent.keys()].sort() }).toEqual({
		total: EVENTS,
		events: [...emitted].sort(),
	});
	expect([...perEvent.values()].flat().filter((status) => status !== 'success')).toEqual([]);
});

describe('webhook processes whose clocks differ (one 45 s ahead, inside the 300 s signature tolerance)', () => {
	beforeAll(async () => {
		const skewed = cluster.webhooks[1];
		await skewed.stop();
		skewed.clockOffset = '+45s';
		await skewed.start();
	});

	it('5 events, each delivered to both processes while the first is still being started: each starts once', async () => {
		const trigger = await activeTrigger('queue: clocks 45 s apart', queueRedisCredential);
		const events = Array.from({ length: 5 }, (_, i) => einvoiceEvent(6_000_000 + i));
		const accepted: number[] = [];
		for (const event of events) {
			// Holding the executions table makes n8n's start of the first delivery (claimed on the
			// process behind) last 2 s; the copy to the process ahead arrives meanwhile. A lease
			// judged by each process's own clock has lapsed there (35 s lease, 45 s ahead).
			const held = cluster.postgres.queryAsync(
				'BEGIN; LOCK TABLE execution_entity IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;',
			);
			await sleep(300);
			const behind = deliverWithRetry(trigger.url(0), event);
			await sleep(300);
			const ahead = deliverWithRetry(trigger.url(1), event);
			const answers = await Promise.all([behind, ahead, held]);
			accepted.push(answers.slice(0, 2).filter((a) => a.at(-1) === 'accepted').length);
		}
		const total = await waitForFinished(main, trigger.workflowId, events.length, 120_000, 3_000);
		console.log(`clock skew: ${events.length} events, ${total} executions`);
		expect({ total, accepted }).toEqual({ total: events.length, accepted: events.map(() => 1) });
	});
});
