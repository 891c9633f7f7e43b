/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The eviction policy against real redis-servers (started here; missing, the suite fails with the
 * command that installs it): why a Redis that may evict forgets ids, and how the credential's
 * Test and the shared clients tell the user.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import Redis from 'ioredis';

import { connectionFromCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { testRedisCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	fixedClient,
	RedisDedupeStore,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { sleep, waitFor } from '@/test/harness/http';
import { deliver, envelope, NOW_MS, signed } from '@/test/integration/helpers/deliverToTrigger';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { suiteRedis } from '@/test/integration/helpers/suiteRedis';
import { ledgerScope } from '@/nodes/GstCompliance/trigger/dedupe/keys';

jest.setTimeout(60_000);

const PASSWORD = 'redis-eviction-Pa55word';
const suite = suiteRedis('eviction-redis', PASSWORD);

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
				scope: ledgerScope({ workflowId: 'wf-evict', nodeId: 'node-1' }),
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
				`^GST Compliance Trigger "GST Compliance Trigger" \\(workflow wf1\\): Redis dedupe store at ${evicting.host}:${evicting.port} \\(db 3\\): maxmemory-policy is volatile-lru, so `,
			),
		);
		expect(warnings[0]).toContain('Set maxmemory-policy to noeviction');
	});

	// n8n shows a passed Test only as "Connection tested successfully": a note on an OK is never read.
	it('a user without INFO (managed Redis): the Test fails, saying the policy is unknown and to grant INFO; the first connect warns once', async () => {
		await suite.inspect.acl(
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
			host: suite.server.host,
			port: suite.server.port,
			database: 3,
			user: 'dedupe-no-info',
			password: 'no-info-Pa55word',
		};
		const result = await testRedisCredential(credential);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(
				`^Connected to Redis at ${suite.server.host}:${suite.server.port} \\(db 3\\), but could not read maxmemory-policy \\(NOPERM`,
			),
		);
		expect(result.message).toContain('Make sure it is noeviction');
		expect(result.message).toMatch(/Let the credential's user run INFO, .* replicas/);
		expect(result.message).not.toContain('no-info-Pa55word');

		const warnings: string[] = [];
		const connection = connectionFromCredential(credential);
		await redisClients.get(connection, (message) => warnings.push(message));
		await waitFor(async () => warnings.length > 0, 'the warning', 5_000, 20);
		await redisClients.get(connection, (message) => warnings.push(message));
		expect(warnings).toEqual([expect.stringMatching(/^could not read maxmemory-policy \(NOPERM/)]);
	});
});
