/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The Redis dedupe store against a real redis-server (Debian's `redis-server`, started here on a
 * free port with a password; missing, the suite fails with the command that installs it), on one
 * Redis and on a 3-node Redis Cluster (built with redis-cli). Separate store objects with separate
 * clients stand for separate n8n processes. The shared clients, the eviction check, the failure
 * causes, the replica wait and the trigger's use of the store have files of their own.
 */
import Redis, { Cluster } from 'ioredis';

import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import {
	connectionFromCredential,
	type RedisConnection,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { testRedisCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	fixedClient,
	RedisDedupeStore,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import {
	type LedgerScope,
	ledgerScope,
	redisAcceptedKey,
	redisDeliveryKey,
	redisEventKey,
} from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { sleep, waitFor } from '@/test/harness/http';
import {
	startRedis,
	startRedisCluster,
	type RunningRedis,
	type RunningRedisCluster,
} from '@/test/harness/queue/services';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	signed,
} from '@/test/integration/helpers/deliverToTrigger';

jest.setTimeout(60_000);

const PASSWORD = 'redis-unit-Pa55word';
let redis: RunningRedis;
let connection: RedisConnection;
/** Direct client for looking at keys. */
let inspect: Redis;
const direct: Redis[] = [];

beforeAll(async () => {
	redis = await startRedis('unit-redis', { password: PASSWORD });
	connection = { host: redis.host, port: redis.port, database: 3, password: PASSWORD };
	inspect = new Redis({ host: redis.host, port: redis.port, password: PASSWORD, db: 3 });
});

afterAll(async () => {
	await redisClients.close();
	for (const client of [inspect, ...direct]) client?.disconnect();
	await redis?.dispose();
});

beforeEach(async () => {
	await inspect.flushdb();
});

/** A "process": its own client and store over the same Redis. */
function processStore(
	scope = ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }),
	windowMs = 60_000,
) {
	const client = new Redis({
		host: redis.host,
		port: redis.port,
		password: PASSWORD,
		db: 3,
		enableOfflineQueue: true,
	});
	direct.push(client);
	return new RedisDedupeStore(fixedClient(client), connection, { scope, windowMs });
}

const T0 = NOW_MS;
/** The Start Deadline of these tests. */
const WITHIN = 30 * 60_000;
/** A webhook's look for overdue events: it can deliver them again. */
const LOOK = { shown: true, redelivers: true };

/** Waits until Redis has expired the key of `id` (default scope), by its own clock. */
async function expired(id: string) {
	const key = redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), id);
	await waitFor(async () => (await inspect.exists(key)) === 0, 'the key to expire', 5_000, 20);
}

describe('accept, start and overdue', () => {
	it('accept of a new id → accepted; a copy from another process → on its way, with the time Redis accepted it', async () => {
		const a = processStore();
		const b = processStore();
		expect(await a.accept('evt_1', T0, WITHIN)).toEqual({ kind: 'accepted' });
		const copy = await b.accept('evt_1', T0, WITHIN);
		expect(copy.kind).toBe('onItsWay');
		const [seconds] = await inspect.time();
		expect(
			Math.abs((copy as { acceptedMs: number }).acceptedMs - Number(seconds) * 1000),
		).toBeLessThan(5_000);
	});

	it('start of an accepted id → started, once, whichever process starts it; later accepts → duplicate', async () => {
		const a = processStore();
		const b = processStore();
		await a.accept('evt_1', T0, WITHIN);
		expect(await b.start('evt_1')).toBe('started');
		expect(await a.start('evt_1')).toBe('duplicate');
		expect(await b.accept('evt_1', T0, WITHIN)).toEqual({ kind: 'duplicate' });
	});

	it('20 concurrent accepts of one id over 4 processes → one accepted, 19 on their way; 20 concurrent starts → one started', async () => {
		const stores = Array.from({ length: 4 }, () => processStore());
		const accepts = await Promise.all(
			Array.from(
				{ length: 20 },
				async (_, i) => await stores[i % 4].accept('evt_burst', T0, WITHIN),
			),
		);
		expect(accepts.filter((r) => r.kind === 'accepted')).toHaveLength(1);
		expect(accepts.filter((r) => r.kind === 'onItsWay')).toHaveLength(19);
		const starts = await Promise.all(
			Array.from({ length: 20 }, async (_, i) => await stores[i % 4].start('evt_burst')),
		);
		expect(starts.filter((r) => r === 'started')).toHaveLength(1);
	});

	it("accept after the Start Deadline (by Redis's clock) of an id never started → retaken, then on its way again", async () => {
		const store = processStore();
		await store.accept('evt_lost', T0, WITHIN);
		await sleep(30);
		// Whatever this process's clock says: the deadline is measured by Redis.
		const retaken = await store.accept('evt_lost', T0 - 3_600_000, 20);
		expect(retaken.kind).toBe('retaken');
		expect((await store.accept('evt_lost', T0, WITHIN)).kind).toBe('onItsWay');
	});

	it('overdue with a look that cannot deliver again (an execution’s) → none, and the id stays for a webhook’s look, with the delivery it was accepted with', async () => {
		const store = processStore();
		const delivery = Buffer.from('{"id":"evt_kept","type":"einvoice.generated"}');
		await store.accept('evt_kept', T0 - WITHIN, WITHIN, 'tok-k', delivery);
		await sleep(30);
		expect(await store.overdue(T0 + 1_000, 20, { shown: true, redelivers: false })).toEqual([]);
		expect(await store.overdue(T0 + 1_000, 20, { shown: false, redelivers: true })).toEqual([
			{ eventId: 'evt_kept', acceptedMs: expect.any(Number), delivery },
		]);
	});

	it('accept of a copy whose id already started (duplicate) → its kept delivery goes; start → the acceptance’s goes', async () => {
		const store = processStore();
		const scope = ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' });
		const delivery = Buffer.from('{}');
		await store.accept('evt_d', T0, WITHIN, 'tok-d', delivery);
		expect(await inspect.get(redisDeliveryKey(scope, 'evt_d'))).toBe(delivery.toString('base64'));
		await store.start('evt_d', T0, { token: 'tok-d', process: 'p', acceptedMs: T0 });
		expect(await inspect.get(redisDeliveryKey(scope, 'evt_d'))).toBeNull();
		expect((await store.accept('evt_d', T0, WITHIN, 'tok-e', delivery)).kind).toBe('duplicate');
		expect(await inspect.get(redisDeliveryKey(scope, 'evt_d'))).toBeNull();
	});

	it('accept with a token → `a:<ms>:<token>`, read as on its way, started by its start and named overdue like any acceptance', async () => {
		const store = processStore();
		expect(await store.accept('evt_tok', T0, WITHIN, 'tok-1')).toEqual({ kind: 'accepted' });
		expect(
			await inspect.get(
				redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), 'evt_tok'),
			),
		).toMatch(/^a:\d+:tok-1$/);
		expect((await store.accept('evt_tok', T0, WITHIN, 'tok-2')).kind).toBe('onItsWay');
		await store.accept('evt_lost_tok', T0 - WITHIN, WITHIN, 'tok-3');
		await sleep(30);
		expect(
			(await store.overdue(T0 + 1_000, 20, LOOK)).map(({ eventId }) => eventId).sort(),
		).toEqual(['evt_lost_tok', 'evt_tok']);
		expect(await store.start('evt_tok', T0, { token: 'tok-1', process: 'p', acceptedMs: T0 })).toBe(
			'started',
		);
	});

	it('startedElsewhere → true only for an id another acceptance started (or an earlier version’s `d`)', async () => {
		const store = processStore();
		const mark = (token: string) => ({ token, process: 'p', acceptedMs: T0 });
		await store.accept('evt_peek', T0, WITHIN, 'tok-a');
		expect(await store.startedElsewhere('evt_peek', mark('tok-a'))).toBe(false);
		await store.start('evt_peek', T0, mark('tok-a'));
		expect(await store.startedElsewhere('evt_peek', mark('tok-a'))).toBe(false);
		expect(await store.startedElsewhere('evt_peek', mark('tok-b'))).toBe(true);
		expect(await store.startedElsewhere('evt_peek')).toBe(true);
		expect(await store.startedElsewhere('evt_never')).toBe(false);
		await inspect.set(
			redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), 'evt_old'),
			'd',
		);
		expect(await store.startedElsewhere('evt_old', mark('tok-a'))).toBe(true);
	});

	it('start of an id never accepted (its key expired, or accepted by an earlier version) → started', async () => {
		expect(await processStore().start('evt_unknown')).toBe('started');
	});

	it('overdue → the ids accepted before the Start Deadline (by Redis’s clock) and never started, each named by one process only', async () => {
		const a = processStore();
		const b = processStore();
		await a.accept('evt_waiting', T0, WITHIN);
		await a.accept('evt_started', T0, WITHIN);
		await a.start('evt_started');
		await sleep(30);
		const [fromA, fromB] = await Promise.all([
			a.overdue(T0 + 1_000, 20, LOOK),
			b.overdue(T0 + 1_000, 20, LOOK),
		]);
		expect([...fromA, ...fromB].map((e) => e.eventId)).toEqual(['evt_waiting']);
		expect(await a.overdue(T0 + 1_000, 20, LOOK)).toEqual([]);
		// Still accepted and not started: a copy of it is retaken.
		expect((await b.accept('evt_waiting', T0, 20)).kind).toBe('retaken');
	});

	it('overdue of an id whose score is past the deadline but which Redis accepted less than it ago (a clock ahead) → not yet; named once it is', async () => {
		const ahead = processStore();
		await ahead.accept('evt_ahead', T0 - 3_600_000, WITHIN);
		expect(await ahead.overdue(T0, WITHIN, LOOK)).toEqual([]);
		await sleep(5);
		expect(await ahead.overdue(T0 + 10, 1, LOOK)).toEqual([
			{ eventId: 'evt_ahead', acceptedMs: expect.any(Number) },
		]);
	});

	it('accept when Redis fails the first command → throws, and nothing is accepted: the retry is accepted', async () => {
		const client = new Redis({ host: redis.host, port: redis.port, password: PASSWORD, db: 3 });
		direct.push(client);
		let fail = true;
		const flaky = Object.assign(Object.create(client) as Redis, {
			zadd: (async (...args: Parameters<Redis['zadd']>) => {
				if (fail) {
					fail = false;
					throw new Error('Connection is closed.');
				}
				return await client.zadd(...args);
			}) as Redis['zadd'],
		});
		const store = new RedisDedupeStore(fixedClient(flaky), connection, {
			scope: ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }),
			windowMs: 60_000,
		});
		await expect(store.accept('evt_flaky', T0, WITHIN)).rejects.toThrow(DedupeUnavailableError);
		expect(await store.accept('evt_flaky', T0, WITHIN)).toEqual({ kind: 'accepted' });
	});

	it('overdue of 25 ids lost together (a kill inside a burst) → all 25 in one look, read 20 at a time; the next look → none', async () => {
		const store = processStore();
		for (let i = 0; i < 25; i++) await store.accept(`evt_${i}`, T0, WITHIN);
		await sleep(30);
		const named = await store.overdue(T0 + 1_000, 20, LOOK);
		expect(named.map((event) => event.eventId).sort()).toEqual(
			Array.from({ length: 25 }, (_, i) => `evt_${i}`).sort(),
		);
		expect(await store.overdue(T0 + 1_000, 20, LOOK)).toEqual([]);
	});

	it('overdue of more than one look takes (200) → 200 names, the rest on the next', async () => {
		const store = processStore();
		for (let i = 0; i < 205; i++) await store.accept(`evt_${i}`, T0, WITHIN);
		await sleep(30);
		expect(await store.overdue(T0 + 1_000, 20, LOOK)).toHaveLength(200);
		expect(await store.overdue(T0 + 1_000, 20, LOOK)).toHaveLength(5);
	});

	it('keeps a started id for the window: inside it a duplicate, after it free, and Redis expires the key and the index', async () => {
		const store = processStore(undefined, 1_000);
		await store.accept('evt_window', T0, WITHIN);
		await store.start('evt_window');
		const ttl = await inspect.pttl(
			redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), 'evt_window'),
		);
		expect(ttl).toBeGreaterThan(0);
		expect(ttl).toBeLessThanOrEqual(1_000);
		expect(await store.accept('evt_window', T0, WITHIN)).toEqual({ kind: 'duplicate' });
		await expired('evt_window');
		await waitFor(
			async () =>
				(await inspect.exists(
					redisAcceptedKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' })),
				)) === 0,
			'the index to expire',
			5_000,
			50,
		);
		expect(await store.accept('evt_window', T0, WITHIN)).toEqual({ kind: 'accepted' });
	});

	it('takes decimal windows as whole milliseconds (Redis refuses PX 1.5)', async () => {
		const store = processStore(undefined, 4.1 * 3_600_000 + 0.4);
		await store.accept('evt_decimal', T0, WITHIN + 0.7);
		await store.start('evt_decimal');
		expect(
			await inspect.pttl(
				redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), 'evt_decimal'),
			),
		).toBeGreaterThan(4 * 3_600_000);
	});

	it('reads the values this version writes, no other: d (started, no token) as started; a value no release wrote as no mark', async () => {
		// No release before this one had a Redis store: the only formats are this version's.
		const key = (id: string) =>
			redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), id);
		await inspect.set(key('evt_d'), 'd', 'PX', 60_000);
		await inspect.set(key('evt_unknown'), `p:old-token:${T0 - 1}`, 'PX', 30_000);
		const store = processStore();
		expect(await store.accept('evt_d', T0, WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await store.start('evt_d')).toBe('duplicate');
		expect(await store.accept('evt_unknown', T0, WITHIN)).toEqual({ kind: 'accepted' });
		expect(await store.start('evt_unknown')).toBe('started');
	});

	it('keeps workflows, nodes and the test namespace apart', async () => {
		const production = processStore(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }));
		await production.accept('evt_ns', T0, WITHIN);
		await production.start('evt_ns');
		for (const scope of [
			'wf1:node-1:test' as LedgerScope, // the test mode's, which no release keeps
			ledgerScope({ workflowId: 'wf2', nodeId: 'node-1' }),
			ledgerScope({ workflowId: 'wf1', nodeId: 'node-2' }),
		])
			expect((await processStore(scope).accept('evt_ns', T0, WITHIN)).kind).toBe('accepted');
	});

	it('stores one fixed-size key per started id (no id in clear) with no cap', async () => {
		const store = processStore();
		const ids = Array.from({ length: 2_000 }, (_, i) => `evt_${'x'.repeat(i % 300)}_${i}`);
		for (const id of ids) expect(await store.start(id)).toBe('started');
		const keys = await inspect.keys('*');
		expect(keys).toHaveLength(ids.length);
		expect(new Set(keys.map((k) => k.length)).size).toBe(1);
		expect(keys.some((k) => k.includes('evt_'))).toBe(false);
	});
});

describe("times by Redis's clock, whatever each process's clock says", () => {
	/** Two webhook processes 45 s apart: inside the signature tolerance, so both accept a delivery. */
	const SKEW = 45_000;

	it('an acceptance by the process behind is on its way for the process ahead, and the reverse', async () => {
		const behind = processStore();
		const ahead = processStore();
		await behind.accept('evt_skew_1', T0, WITHIN);
		expect((await ahead.accept('evt_skew_1', T0 + SKEW, WITHIN)).kind).toBe('onItsWay');
		await ahead.accept('evt_skew_2', T0 + SKEW, WITHIN);
		expect((await behind.accept('evt_skew_2', T0, WITHIN)).kind).toBe('onItsWay');
	});

	it('a start by one process is a duplicate for the other, whichever clock is ahead', async () => {
		const behind = processStore(undefined, 30_000);
		const ahead = processStore(undefined, 30_000);
		await behind.start('evt_skew_d1');
		expect(await ahead.accept('evt_skew_d1', T0 + SKEW, WITHIN)).toEqual({ kind: 'duplicate' });
		await ahead.start('evt_skew_d2');
		expect(await behind.start('evt_skew_d2')).toBe('duplicate');
	});
});

describe('on a Redis Cluster', () => {
	let cluster: RunningRedisCluster;
	let clusterInspect: Cluster;
	const credential = () => ({
		deployment: 'cluster',
		clusterNodes: cluster.clusterNodes,
		password: PASSWORD,
		// Saved while the credential pointed at a single Redis; hidden and unused for a cluster.
		database: 3,
	});

	beforeAll(async () => {
		cluster = await startRedisCluster('unit-redis-cluster', { password: PASSWORD });
		clusterInspect = new Cluster(
			cluster.nodes.map((node) => ({ host: node.host, port: node.port })),
			{ redisOptions: { password: PASSWORD } },
		);
	});

	afterAll(async () => {
		clusterInspect?.disconnect();
		await redisClients.close();
		await cluster?.dispose();
	});

	/** Keys on each node (the cluster's masters), read node by node. */
	async function keysPerNode(): Promise<number[]> {
		return await Promise.all(
			clusterInspect.nodes('master').map(async (node) => (await node.keys('*')).length),
		);
	}

	it("the credential's Test connects to the cluster and names its nodes, never the password", async () => {
		expect(await testRedisCredential(credential())).toEqual({
			status: 'OK',
			message: `Connected to Redis at the Redis Cluster of ${cluster.nodes
				.map((node) => `${node.host}:${node.port}`)
				.join(', ')}`,
		});
		const wrong = await testRedisCredential({ ...credential(), password: 'wrong-Pa55word-xyz' });
		expect(wrong.status).toBe('Error');
		expect(wrong.message).not.toContain('wrong-Pa55word-xyz');
	});

	it("the credential's Test reads every master's policy and names the one that evicts", async () => {
		const [, second] = clusterInspect.nodes('master');
		const where = `${second.options.host}:${second.options.port}`;
		await second.config('SET', 'maxmemory-policy', 'allkeys-lru');
		try {
			const result = await testRedisCredential(credential());
			expect(result.status).toBe('Error');
			expect(result.message).toContain(`but its maxmemory-policy is allkeys-lru on ${where}, so `);
		} finally {
			await second.config('SET', 'maxmemory-policy', 'noeviction');
		}
		expect((await testRedisCredential(credential())).status).toBe('OK');
	});

	it('accepts, starts and answers duplicates for ids on every node; 20 concurrent starts of one id: one started', async () => {
		const connection = connectionFromCredential(credential());
		const client = await redisClients.get(connection);
		const store = new RedisDedupeStore(fixedClient(client), connection, {
			scope: ledgerScope({ workflowId: 'wf-cluster', nodeId: 'node-1' }),
			windowMs: 60_000,
		});
		const ids = Array.from({ length: 60 }, (_, i) => `evt_cluster_${i}`);
		for (const id of ids) {
			await store.accept(id, T0, WITHIN);
			await store.start(id);
		}
		for (const id of ids)
			expect(await store.accept(id, T0 + 1, WITHIN)).toEqual({ kind: 'duplicate' });
		const perNode = await keysPerNode();
		expect(perNode.every((count) => count > 0)).toBe(true);
		expect(perNode.reduce((a, b) => a + b, 0)).toBe(ids.length);

		const results = await Promise.all(
			Array.from({ length: 20 }, async () => await store.start('evt_cluster_burst')),
		);
		expect(results.filter((r) => r === 'started')).toHaveLength(1);
		expect(results.filter((r) => r === 'duplicate')).toHaveLength(19);
	});

	afterEach(() => jest.restoreAllMocks());

	it('the trigger with a cluster credential starts an event once; a node down → 503, back → served', async () => {
		jest.spyOn(Date, 'now').mockImplementation(() => NOW_MS);
		const workflow = newWorkflow('wf-cluster-trigger');
		const body = (id: string) => JSON.stringify(envelope({ id }));
		const first = await deliver({ ...signed(body('evt_c1')), workflow, redis: credential() });
		expect(first.started).toHaveLength(1);
		const again = await deliver({ ...signed(body('evt_c1')), workflow, redis: credential() });
		expect(again).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});

		/** Delivers evt_c2 until the answer is (or is not) a 503. */
		const deliverUntil = async (want503: boolean, what: string, timeoutMs: number) =>
			await waitFor(
				async () => {
					const r = await deliver({ ...signed(body('evt_c2')), workflow, redis: credential() });
					return (r.status === 503) === want503 ? r : undefined;
				},
				what,
				timeoutMs,
				200,
			);
		// Without replicas, a master down leaves slots uncovered: the cluster refuses every command.
		await cluster.nodes[1].stop();
		const down = await deliverUntil(true, 'a 503 while a master is down', 20_000);
		expect(down.started).toBeUndefined();
		await cluster.nodes[1].start();
		const served = await deliverUntil(false, 'the cluster to serve again', 30_000);
		expect(served.started).toHaveLength(1);
	});
});
