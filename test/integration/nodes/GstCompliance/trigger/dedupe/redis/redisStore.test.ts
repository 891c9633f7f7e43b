/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The Redis dedupe store against a real redis-server (Debian's `redis-server`, started here on a
 * free port with a password; missing, the suite fails with the command that installs it), and the
 * trigger's webhook() with a Redis credential attached, on one Redis and on a 3-node Redis Cluster
 * (built with redis-cli). Separate store objects with separate clients stand for separate n8n
 * processes.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { createHash } from 'crypto';
import Redis, { Cluster } from 'ioredis';

import { DedupeUnavailableError } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { settings } from '../../../../../../../nodes/GstCompliance/settings';
import {
	connectionFromCredential,
	type RedisConnection,
} from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { redisClients } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { testRedisCredential } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	acceptedKey,
	eventKey,
	fixedClient,
	RedisDedupeStore,
} from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { freePort, sleep, waitFor } from '../../../../../../harness/http';
import {
	startRedis,
	startRedisCluster,
	type RunningRedis,
	type RunningRedisCluster,
} from '../../../../../../harness/queue/services';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	signed,
} from '../../../../../helpers/deliverToTrigger';

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
function processStore(scope = 'wf1:node-1:production', windowMs = 60_000) {
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

/** Waits until Redis has expired the key of `id` (default scope), by its own clock. */
async function expired(id: string) {
	const key = eventKey('wf1:node-1:production', id);
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
			a.overdue(T0 + 1_000, 20),
			b.overdue(T0 + 1_000, 20),
		]);
		expect([...fromA, ...fromB].map((e) => e.eventId)).toEqual(['evt_waiting']);
		expect(await a.overdue(T0 + 1_000, 20)).toEqual([]);
		// Still accepted and not started: a copy of it is retaken.
		expect((await b.accept('evt_waiting', T0, 20)).kind).toBe('retaken');
	});

	it('overdue of an id whose score is past the deadline but which Redis accepted less than it ago (a clock ahead) → not yet; named once it is', async () => {
		const ahead = processStore();
		await ahead.accept('evt_ahead', T0 - 3_600_000, WITHIN);
		expect(await ahead.overdue(T0, WITHIN)).toEqual([]);
		await sleep(5);
		expect(await ahead.overdue(T0 + 10, 1)).toEqual([
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
			scope: 'wf1:node-1:production',
			windowMs: 60_000,
		});
		await expect(store.accept('evt_flaky', T0, WITHIN)).rejects.toThrow(DedupeUnavailableError);
		expect(await store.accept('evt_flaky', T0, WITHIN)).toEqual({ kind: 'accepted' });
	});

	it('overdue one look at a time: at most 20 names per look, the rest on the next', async () => {
		const store = processStore();
		for (let i = 0; i < 25; i++) await store.accept(`evt_${i}`, T0, WITHIN);
		await sleep(30);
		expect(await store.overdue(T0 + 1_000, 20)).toHaveLength(20);
		expect(await store.overdue(T0 + 1_000, 20)).toHaveLength(5);
	});

	it('keeps a started id for the window: inside it a duplicate, after it free, and Redis expires the key and the index', async () => {
		const store = processStore(undefined, 1_000);
		await store.accept('evt_window', T0, WITHIN);
		await store.start('evt_window');
		const ttl = await inspect.pttl(eventKey('wf1:node-1:production', 'evt_window'));
		expect(ttl).toBeGreaterThan(0);
		expect(ttl).toBeLessThanOrEqual(1_000);
		expect(await store.accept('evt_window', T0, WITHIN)).toEqual({ kind: 'duplicate' });
		await expired('evt_window');
		await waitFor(
			async () => (await inspect.exists(acceptedKey('wf1:node-1:production'))) === 0,
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
		expect(await inspect.pttl(eventKey('wf1:node-1:production', 'evt_decimal'))).toBeGreaterThan(
			4 * 3_600_000,
		);
	});

	it('reads keys written by earlier versions while they exist: a lease as on its way, d as started', async () => {
		const key = (id: string) => eventKey('wf1:node-1:production', id);
		await inspect.set(key('evt_old_p'), 'p', 'PX', 30_000);
		await inspect.set(key('evt_old_d'), 'd', 'PX', 60_000);
		await inspect.set(key('evt_timed_p'), `p:old-token:${T0 - 1}`, 'PX', 30_000);
		await inspect.set(key('evt_timed_d'), `d:${T0 - 1}`, 'PX', 60_000);
		const store = processStore();
		expect((await store.accept('evt_old_p', T0, WITHIN)).kind).toBe('onItsWay');
		expect(await store.accept('evt_old_d', T0, WITHIN)).toEqual({ kind: 'duplicate' });
		expect((await store.accept('evt_timed_p', T0, WITHIN)).kind).toBe('onItsWay');
		expect(await store.accept('evt_timed_d', T0, WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await store.start('evt_timed_d')).toBe('duplicate');
		// An execution an earlier version created while its lease ran starts once.
		expect(await store.start('evt_timed_p')).toBe('started');
	});

	it('gives distinct ids distinct keys, lone surrogates included', () => {
		const ids = ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd', 'evt_\ud800\udc00'];
		expect(new Set(ids.map((id) => eventKey('s', id))).size).toBe(4);
	});

	it('keeps the key of a well-formed id as before (keys written by earlier versions still match)', () => {
		expect(eventKey('s', 'evt_1')).toBe(
			`n8n-gst-compliance:dedupe:v1:s:${createHash('sha256').update('evt_1').digest('base64url').slice(0, 22)}`,
		);
	});

	it('keeps workflows, nodes and the test namespace apart', async () => {
		const production = processStore('wf1:node-1:production');
		await production.accept('evt_ns', T0, WITHIN);
		await production.start('evt_ns');
		for (const scope of ['wf1:node-1:test', 'wf2:node-1:production', 'wf1:node-2:production'])
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

describe('the shared client', () => {
	it("the credential's Test with a URL in Host → Error naming the field, never the password", async () => {
		const result = await testRedisCredential({
			host: 'redis://:hunter2-pass@127.0.0.1',
			port: 6379,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Host is a URL/);
		expect(result.message).not.toContain('hunter2-pass');
	});

	it('reaches Redis with the credential fields (user, password, database)', async () => {
		const data = {
			host: redis.host,
			port: String(redis.port),
			database: 3,
			user: '',
			password: PASSWORD,
			ssl: false,
		};
		const parsed = connectionFromCredential(data);
		expect(parsed).toEqual({
			host: redis.host,
			port: redis.port,
			database: 3,
			user: undefined,
			password: PASSWORD,
			ssl: false,
			disableTlsVerification: false,
		});
		const client = await redisClients.get(parsed);
		expect(await client.ping()).toBe('PONG');
		expect(await redisClients.get(parsed)).toBe(client); // one client per process and settings
	});

	it('Redis unreachable: a DedupeUnavailableError naming host and port, never the password', async () => {
		const port = await freePort();
		const offline = { host: '127.0.0.1', port, database: 0, password: 'nobody-Kn0ws-this' };
		const error = await redisClients.get(offline).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error).toBeInstanceOf(DedupeUnavailableError);
		expect(error?.message).toContain(`127.0.0.1:${port}`);
		expect(error?.message).not.toContain('nobody-Kn0ws-this');
	});

	it('a wrong password is an error naming the host, without the password', async () => {
		const result = await testRedisCredential({
			host: redis.host,
			port: redis.port,
			password: 'wrong-Pa55word-xyz',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`${redis.host}:${redis.port}`);
		expect(result.message).not.toContain('wrong-Pa55word-xyz');
		expect(
			await testRedisCredential({ host: redis.host, port: redis.port, password: PASSWORD }),
		).toEqual({
			status: 'OK',
			message: `Connected to Redis at ${redis.host}:${redis.port} (db 0)`,
		});
	});
});

describe('the eviction policy: a Redis that may evict forgets ids, so the user is told', () => {
	/** A managed Redis's common default: every dedupe key has a TTL, so these go first. */
	let evicting: RunningRedis;
	const evictingCredential = () => ({
		host: evicting.host,
		port: evicting.port,
		database: 3,
		password: PASSWORD,
	});

	beforeAll(async () => {
		evicting = await startRedis('unit-redis-volatile-lru', {
			password: PASSWORD,
			// More samples per eviction than the default 5, so the oldest key is found among few.
			args: [
				'--maxmemory',
				'2mb',
				'--maxmemory-policy',
				'volatile-lru',
				'--maxmemory-samples',
				'10',
			],
		});
	});

	afterAll(async () => {
		await redisClients.close();
		await evicting?.dispose();
	});

	afterEach(() => jest.restoreAllMocks());

	it('why: under volatile-lru, filling the server past its limit evicts a started id, and a redelivery of it is accepted again', async () => {
		const client = new Redis({ ...evictingCredential(), db: 3 });
		try {
			const store = new RedisDedupeStore(fixedClient(client), evictingCredential(), {
				scope: 'wf-evict:node-1:production',
				windowMs: 3_600_000,
			});
			await store.start('evt_evicted');
			expect((await store.accept('evt_evicted', T0, WITHIN)).kind).toBe('duplicate');
			// Redis's LRU clock ticks once a second: the id must be older than everything after it.
			await sleep(1_100);
			// Other data with a time to live (say, another app's cache) fills the 2 MB limit four
			// times over: hundreds of evictions, each taking the oldest key of a sample.
			const filler = 'x'.repeat(10_000);
			for (let i = 0; i < 800; i++) await client.set(`cache:${i}`, filler, 'EX', 3_600);
			expect((await store.accept('evt_evicted', T0, WITHIN)).kind).toBe('accepted');
		} finally {
			client.disconnect();
		}
	});

	it("the credential's Test refuses volatile-lru, naming the policy and the fix", async () => {
		const result = await testRedisCredential(evictingCredential());
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(
				`^Connected to Redis at ${evicting.host}:${evicting.port} \\(db 3\\), but its maxmemory-policy is volatile-lru, so `,
			),
		);
		expect(result.message).toContain('Set maxmemory-policy to noeviction');
		expect(result.message).not.toContain(PASSWORD);
	});

	it("a delivery's first connect logs one warning naming the Redis, the policy and the fix; the delivery is served", async () => {
		jest.spyOn(Date, 'now').mockImplementation(() => NOW_MS);
		const warnings: string[] = [];
		jest
			.spyOn(Container.get(Logger), 'warn')
			.mockImplementation((message: unknown) => void warnings.push(String(message)));
		const body = (id: string) => JSON.stringify(envelope({ id }));
		const first = await deliver({ ...signed(body('evt_lru1')), redis: evictingCredential() });
		expect(first.started).toHaveLength(1);
		await waitFor(async () => warnings.length > 0, 'the warning', 5_000, 20);
		await deliver({ ...signed(body('evt_lru2')), redis: evictingCredential() });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			new RegExp(
				`^GST Compliance Trigger: Redis dedupe store at ${evicting.host}:${evicting.port} \\(db 3\\): maxmemory-policy is volatile-lru, so `,
			),
		);
		expect(warnings[0]).toContain('Set maxmemory-policy to noeviction');
	});

	it('a user without INFO (managed Redis): the Test connects and says the policy is unknown; the first connect warns once', async () => {
		await inspect.acl(
			'SETUSER',
			'dedupe-no-info',
			'on',
			'>no-info-Pa55word',
			'~*',
			'&*',
			'+@all',
			'-info',
		);
		const credential = {
			host: redis.host,
			port: redis.port,
			database: 3,
			user: 'dedupe-no-info',
			password: 'no-info-Pa55word',
		};
		const result = await testRedisCredential(credential);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(
			new RegExp(
				`^Connected to Redis at ${redis.host}:${redis.port} \\(db 3\\), but could not read maxmemory-policy \\(NOPERM`,
			),
		);
		expect(result.message).toContain('Make sure it is noeviction');
		expect(result.message).not.toContain('no-info-Pa55word');

		const warnings: string[] = [];
		const connection = connectionFromCredential(credential);
		await redisClients.get(connection, (message) => warnings.push(message));
		await waitFor(async () => warnings.length > 0, 'the warning', 5_000, 20);
		await redisClients.get(connection, (message) => warnings.push(message));
		expect(warnings).toEqual([expect.stringMatching(/^could not read maxmemory-policy \(NOPERM/)]);
	});
});

describe('the trigger with a Redis credential', () => {
	let now = NOW_MS;
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	const redisCredential = () => ({
		host: redis.host,
		port: redis.port,
		database: 3,
		password: PASSWORD,
	});
	const body = (id: string) => JSON.stringify(envelope({ id }));
	const key = (id: string) => eventKey('wf1:node-1:production', id);

	it('accepts at once, starts the event once in its execution; the id is kept for the window in Redis', async () => {
		const first = await deliver({
			...signed(body('evt_n1')),
			redis: redisCredential(),
			execution: 'later',
		});
		expect(first).toMatchObject({ status: 202, body: { received: true } });
		expect(await inspect.get(key('evt_n1'))).toMatch(/^a:\d+$/);
		// A copy while the execution waits creates none.
		const copy = await deliver({ ...signed(body('evt_n1')), redis: redisCredential() });
		expect(copy).toEqual({
			status: 202,
			body: { received: true, duplicate: true },
			started: undefined,
		});
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await inspect.get(key('evt_n1'))).toBe('d');
		expect(await inspect.pttl(key('evt_n1'))).toBeGreaterThan(24 * 3_600_000);
		// n8n runs the execution again after a restart: it ends without items.
		expect(await first.execution!()).toEqual({
			items: [],
			hints: [expect.stringContaining('"evt_n1" was already started by another execution')],
		});
		const again = await deliver({ ...signed(body('evt_n1')), redis: redisCredential() });
		expect(again).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('keeps Test-URL deliveries apart from production ones: each has its own keys', async () => {
		const test = await deliver({
			...signed(body('evt_modes')),
			mode: 'manual',
			redis: redisCredential(),
		});
		expect(test.started).toHaveLength(1);
		expect(await inspect.get(eventKey('wf1:node-1:test', 'evt_modes'))).not.toBeNull();
		expect(await inspect.get(key('evt_modes'))).toBeNull();
		const production = await deliver({ ...signed(body('evt_modes')), redis: redisCredential() });
		expect(production.started).toHaveLength(1);
	});

	it('Redis down for a moment when the execution starts: the start is tried again and the event starts once', async () => {
		const sleeps = jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const first = await deliver({
			...signed(body('evt_blip_start')),
			redis: redisCredential(),
			execution: 'later',
		});
		const outage = new DedupeUnavailableError(
			`${redis.host}:${redis.port}`,
			'Connection is closed.',
		);
		jest
			.spyOn(RedisDedupeStore.prototype, 'start')
			.mockRejectedValueOnce(outage)
			.mockRejectedValueOnce(outage);
		expect((await first.execution!()).items).toHaveLength(1);
		expect(sleeps.mock.calls.map(([ms]) => ms)).toEqual([1_000, 2_000]);
	});

	it('Redis down when the execution starts, for longer than its retries: the execution fails holding its event, and its retry starts it once', async () => {
		jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const first = await deliver({
			...signed(body('evt_retry_start')),
			redis: redisCredential(),
			execution: 'later',
		});
		const outage = new DedupeUnavailableError(
			`${redis.host}:${redis.port}`,
			'Connection is closed.',
		);
		const start = jest.spyOn(RedisDedupeStore.prototype, 'start').mockRejectedValue(outage);
		await expect(first.execution!()).rejects.toThrow(/Connection is closed/);
		expect(start).toHaveBeenCalledTimes(6);
		start.mockRestore();
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await inspect.get(key('evt_retry_start'))).toBe('d');
	});

	it('an event accepted by an earlier version (its lease) while its copy arrives: on its way, answered at once', async () => {
		await inspect.set(key('evt_busy'), 'p:other-delivery', 'PX', 30_000);
		const result = await deliver({ ...signed(body('evt_busy')), redis: redisCredential() });
		expect(result).toEqual({
			status: 202,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('Redis down: 503, nothing starts, the log names the host and never the password', async () => {
		const port = await freePort();
		const logs: Array<[string, string]> = [];
		const logger = Container.get(Logger);
		for (const level of ['error', 'warn'] as const)
			jest
				.spyOn(logger, level)
				.mockImplementation((...args: unknown[]) => void logs.push([level, String(args[0])]));
		const result = await deliver({
			...signed(body('evt_down')),
			redis: { host: '127.0.0.1', port, password: 'n0t-in-any-log' },
		});
		expect(result.status).toBe(503);
		expect(result.started).toBeUndefined();
		expect(JSON.stringify(result.body)).not.toContain('127.0.0.1');
		const warnings = logs.filter(([level]) => level === 'warn').map(([, m]) => m);
		expect(
			warnings.some((m) => m.includes(`refused (503)`) && m.includes(`127.0.0.1:${port}`)),
		).toBe(true);
		expect(JSON.stringify(logs)).not.toContain('n0t-in-any-log');
	});

	it('a forged or unselected delivery never reaches Redis: 401 / 200 even while it is down', async () => {
		const port = await freePort();
		const down = { host: '127.0.0.1', port, password: 'x-Pa55-x' };
		const forged = signed(body('evt_forged'), undefined, 'whsec_not_the_secret_0123456789');
		expect((await deliver({ ...forged, redis: down })).status).toBe(401);
		const unselected = await deliver({
			...signed(JSON.stringify(envelope({ id: 'evt_unsel', type: 'ewaybill.expired' }))),
			events: ['einvoice.generated'],
			redis: down,
		});
		expect(unselected).toMatchObject({ status: 200, started: undefined });
	});

	it('Redis restarted: the next delivery after it is back is served, and remembered ids stay', async () => {
		const first = await deliver({ ...signed(body('evt_restart')), redis: redisCredential() });
		expect(first.started).toHaveLength(1);
		expect(await inspect.get(key('evt_restart'))).toBe('d');
		await redis.stop();
		const down = await deliver({ ...signed(body('evt_restart2')), redis: redisCredential() });
		expect(down.status).toBe(503);
		await redis.start();
		const result = await waitFor(
			async () => {
				const r = await deliver({ ...signed(body('evt_restart')), redis: redisCredential() });
				return r.status === 503 ? undefined : r;
			},
			'the client to reconnect',
			15_000,
			200,
		);
		expect(result.body).toEqual({ received: true, duplicate: true });
		const next = await deliver({ ...signed(body('evt_restart2')), redis: redisCredential() });
		expect(next.started).toHaveLength(1);
	});
});

describe('before any credential is read', () => {
	it('a missing or malformed Service-Signature header is refused with 401 and no credential read', async () => {
		for (const headers of [
			{},
			{ 'service-signature': 'garbage' },
			{ 'service-signature': 't=1' },
		]) {
			const reads: Record<string, number> = {};
			const result = await deliver({ body: body('evt_h'), headers, reads, redis: { host: 'x' } });
			expect(result).toEqual({
				status: 401,
				body: { error: 'Signature verification failed' },
				started: undefined,
			});
			expect(reads).toEqual({});
		}
	});

	function body(id: string) {
		return JSON.stringify(envelope({ id }));
	}
});

describe('the signing-secret cache', () => {
	let now = NOW_MS;
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	it('reads a saved credential once per 5 s, whatever the number of deliveries', async () => {
		const reads: Record<string, number> = {};
		const workflow = newWorkflow('wf-cache');
		for (let i = 0; i < 10; i++) {
			const request = signed(JSON.stringify(envelope({ id: `evt_c${i}` })), Math.floor(now / 1000));
			const result = await deliver({ ...request, workflow, reads, credentialSet: 'shared' });
			expect(result.status).toBe(202);
		}
		expect(reads.gstComplianceWebhookApi).toBe(1);
		now += 5_001;
		const later = signed(JSON.stringify(envelope({ id: 'evt_c_late' })), Math.floor(now / 1000));
		await deliver({ ...later, workflow, reads, credentialSet: 'shared' });
		expect(reads.gstComplianceWebhookApi).toBe(2);
	});

	it('test-URL deliveries always read the credential afresh', async () => {
		const reads: Record<string, number> = {};
		for (let i = 0; i < 3; i++)
			await deliver({
				...signed(JSON.stringify(envelope({ id: `evt_t${i}` }))),
				mode: 'manual',
				reads,
				credentialSet: 'shared',
			});
		expect(reads.gstComplianceWebhookApi).toBe(3);
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
			scope: 'wf-cluster:node-1:production',
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
