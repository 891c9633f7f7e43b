/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/**
 * The eviction policy against real redis-servers (started here; missing, the suite fails with the
 * command that installs it): why a Redis that may evict forgets ids, and how the credential's
 * Test and the shared clients tell the user.
 */
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
import Redis from 'ioredis';

import { connectionFromCredential } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { redisClients } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { testRedisCredential } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	fixedClient,
	RedisDedupeStore,
} from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { sleep, waitFor } from '../../../../../../harness/http';
import { startRedis, type RunningRedis } from '../../../../../../harness/queue/services';
import { deliver, envelope, NOW_MS, signed } from '../../../../../helpers/deliverToTrigger';

jest.setTimeout(60_000);

const PASSWORD = 'redis-eviction-Pa55word';
let redis: RunningRedis;
/** Direct client for looking at keys. */
let inspect: Redis;

beforeAll(async () => {
	redis = await startRedis('eviction-redis', { password: PASSWORD });
	inspect = new Redis({ host: redis.host, port: redis.port, password: PASSWORD, db: 3 });
});

afterAll(async () => {
	await redisClients.close();
	inspect?.disconnect();
	await redis?.dispose();
});

beforeEach(async () => {
	await inspect.flushdb();
});

const T0 = NOW_MS;
/** The Start Deadline of these tests. */
const WITHIN = 30 * 60_000;

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
