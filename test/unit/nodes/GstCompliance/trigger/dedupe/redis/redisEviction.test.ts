/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n; imports the package through the @/ alias */

/** Redis's maxmemory-policy, read at the Test button and at the first connect. */
import { RedisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import type { RedisModule } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { probeOnce } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	CLUSTER,
	clusterModule,
	FakeCluster,
	FakeRedis,
	fakeModule,
	noRehearsal,
	SETTINGS,
} from '@/test/unit/helpers/fakeRedis';

const NOPERM = new Error(
	"NOPERM User dedupe has no permissions to run the 'info' command (Pa55word)",
);

describe('the eviction policy: only noeviction keeps every remembered id', () => {
	beforeEach(() => {
		FakeRedis.made = [];
		FakeRedis.policy = 'noeviction';
	});
	afterEach(() => jest.restoreAllMocks());

	it('the Test reads maxmemory-policy from INFO memory: noeviction → nothing to say', async () => {
		expect(await probeOnce(SETTINGS, fakeModule, noRehearsal)).toEqual({
			pong: 'PONG',
			eviction: undefined,
		});
		expect(FakeRedis.made[0].info).toHaveBeenCalledWith('memory');
	});

	it.each(['volatile-lru', 'allkeys-lru', 'volatile-ttl', 'allkeys-random'])(
		'%s → evicting, naming the policy and the fix',
		async (policy) => {
			FakeRedis.policy = policy;
			const { eviction } = await probeOnce(SETTINGS, fakeModule, noRehearsal);
			expect(eviction?.kind).toBe('evicting');
			expect(eviction?.message).toContain(`maxmemory-policy is ${policy}`);
			expect(eviction?.message).toMatch(/deletes remembered event ids/);
			expect(eviction?.message).toContain('Set maxmemory-policy to noeviction');
		},
	);

	it('INFO refused (an ACL without it, or a renamed command) → unknown, said as such, without the password', async () => {
		FakeRedis.policy = NOPERM;
		const { pong, eviction } = await probeOnce(SETTINGS, fakeModule, noRehearsal);
		expect(pong).toBe('PONG');
		expect(eviction?.kind).toBe('unknown');
		expect(eviction?.message).toMatch(/could not read maxmemory-policy \(NOPERM .*\[redacted\]\)/);
		expect(eviction?.message).toContain('Make sure it is noeviction');
		expect(eviction?.message).not.toContain('Pa55word');
	});

	it('INFO memory without the policy (a proxy that filters it) → unknown', async () => {
		FakeRedis.made = [];
		const { eviction } = await probeOnce(
			SETTINGS,
			{
				...fakeModule,
				Redis: class extends FakeRedis {
					info = jest.fn(async () => '# Memory\r\nused_memory:1000\r\n');
				},
			} as unknown as RedisModule,
			noRehearsal,
		);
		expect(eviction?.kind).toBe('unknown');
		expect(eviction?.message).toMatch(
			/could not read maxmemory-policy \(INFO memory has no maxmemory_policy\)/,
		);
	});

	it('a cluster: every master is read, and the ones that evict are named with their policy', async () => {
		FakeCluster.masters = [
			{ port: 7000, policy: 'noeviction' },
			{ port: 7001, policy: 'volatile-lru' },
			{ port: 7002, policy: 'allkeys-lfu' },
		];
		const { eviction } = await probeOnce(CLUSTER, clusterModule, noRehearsal);
		expect(eviction?.kind).toBe('evicting');
		expect(eviction?.message).toContain(
			'maxmemory-policy is volatile-lru on 10.0.0.1:7001, allkeys-lfu on 10.0.0.1:7002,',
		);
		FakeCluster.masters = [
			{ port: 7000, policy: 'noeviction' },
			{ port: 7001, policy: NOPERM },
		];
		const unknown = (await probeOnce(CLUSTER, clusterModule, noRehearsal)).eviction;
		expect(unknown?.kind).toBe('unknown');
		expect(unknown?.message).toContain('could not read maxmemory-policy (on 10.0.0.1:7001: NOPERM');
		FakeCluster.masters = [
			{ port: 7000, policy: 'noeviction' },
			{ port: 7001, policy: 'noeviction' },
		];
		expect((await probeOnce(CLUSTER, clusterModule, noRehearsal)).eviction).toBeUndefined();
	});

	/** Lets the check that runs after the first connect finish. */
	const settle = async () => {
		for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
	};

	it("at a client's first connect, one warning naming the policy and the fix, to the latest delivery's logger", async () => {
		FakeRedis.policy = 'volatile-lru';
		const clients = new RedisClients(async () => fakeModule);
		const warnings: string[] = [];
		await clients.get(SETTINGS, (m) => warnings.push(m));
		await settle();
		await clients.get(SETTINGS, (m) => warnings.push(m));
		await settle();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain('maxmemory-policy is volatile-lru');
		expect(warnings[0]).toContain('Set maxmemory-policy to noeviction');
		expect(FakeRedis.made[0].info).toHaveBeenCalledTimes(1);
	});

	it('noeviction: nothing is said', async () => {
		const clients = new RedisClients(async () => fakeModule);
		const warnings: string[] = [];
		await clients.get(SETTINGS, (m) => warnings.push(m));
		await settle();
		expect(warnings).toEqual([]);
	});

	it('INFO not permitted: one warning that the policy is unknown; deliveries are served all the same', async () => {
		FakeRedis.policy = NOPERM;
		const clients = new RedisClients(async () => fakeModule);
		const warnings: string[] = [];
		const client = await clients.get(SETTINGS, (m) => warnings.push(m));
		await settle();
		expect(await clients.get(SETTINGS, (m) => warnings.push(m))).toBe(client);
		await settle();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^could not read maxmemory-policy \(NOPERM/);
		expect(warnings[0]).not.toContain('Pa55word');
	});

	it('a cluster adds a master that evicts → the next delivery warns once, naming it', async () => {
		FakeCluster.masters = [{ port: 7000, policy: 'noeviction' }];
		const clients = new RedisClients(async () => clusterModule);
		const warnings: string[] = [];
		const cluster = (await clients.get(CLUSTER, (m) => warnings.push(m))) as unknown as FakeCluster;
		await settle();
		expect(warnings).toEqual([]);
		const added = new FakeRedis({});
		Object.assign(added, { options: { host: '10.0.0.4', port: 7003 } });
		added.info = jest.fn(async () => '# Memory\r\nmaxmemory_policy:allkeys-lru\r\n');
		cluster.masters.push(added);
		cluster.emit('+node', added);
		for (let i = 0; i < 2; i++) {
			await clients.get(CLUSTER, (m) => warnings.push(m));
			await settle();
		}
		expect(warnings).toEqual([expect.stringContaining('allkeys-lru on 10.0.0.4:7003')]);
	});
});
