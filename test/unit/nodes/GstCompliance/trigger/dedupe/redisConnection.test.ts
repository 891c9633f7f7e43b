/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/** The Redis credential's fields as a connection (one Redis or a cluster), and what Redis errors may say. */
import { EventEmitter } from 'events';

import {
	connectionFromCredential,
	DedupeUnavailableError,
	describeConnection,
	redact,
	type RedisConnection,
	RedisCredentialError,
	type RedisModule,
} from '../../../../../../nodes/GstCompliance/trigger/dedupe/redisConnection';
import { RedisClients } from '../../../../../../nodes/GstCompliance/trigger/dedupe/redisClients';
import { probeOnce } from '../../../../../../nodes/GstCompliance/trigger/dedupe/redisCredential';

describe('connectionFromCredential: Host is a host name alone', () => {
	it.each([
		['redis://:hunter2-pass@10.0.0.5', /is a URL/],
		['rediss://user:hunter2-pass@cache.example.com:6380/0', /is a URL/],
		[':hunter2-pass@cache.example.com', /contains "@"/],
		['cache.example.com/0', /contains "\/"/],
		['cache.example.com hunter2-pass', /contains whitespace/],
	])('Host %j → refused, naming the field and what goes where, never the value', (host, why) => {
		let error: Error | undefined;
		try {
			connectionFromCredential({ host, password: '' });
		} catch (caught) {
			error = caught as Error;
		}
		expect(error).toBeInstanceOf(RedisCredentialError);
		expect(error?.message).toMatch(why);
		expect(error?.message).toMatch(/Redis credential's Host .* password in Password/);
		expect(error?.message).not.toContain('hunter2-pass');
		expect(error?.message).not.toContain(host);
	});

	it.each(['cache.example.com', '10.0.0.5', '::1', ' cache.example.com ', ''])(
		'Host %j → accepted (trimmed; empty is localhost)',
		(host) => {
			expect(connectionFromCredential({ host }).host).toBe(host.trim() || 'localhost');
		},
	);
});

describe('redact: Redis error texts carry no secret', () => {
	const connection = {
		host: 'h',
		port: 6379,
		database: 0,
		user: 'dedupe-user',
		password: 'S3cret-pw',
	};

	it("removes the credential's own user and password wherever they appear", () => {
		expect(redact('WRONGPASS dedupe-user S3cret-pw', connection)).toBe(
			'WRONGPASS [redacted] [redacted]',
		);
	});

	it('leaves a text without secrets as it is', () => {
		expect(redact('Connection is closed.', connection)).toBe('Connection is closed.');
	});
});

describe('connectionFromCredential: a Redis Cluster', () => {
	const cluster = (clusterNodes: string, extra: Record<string, unknown> = {}) =>
		connectionFromCredential({ deployment: 'cluster', clusterNodes, ...extra });

	it("reads host:port entries, comma-separated as n8n's QUEUE_BULL_REDIS_CLUSTER_NODES, IPv6 in brackets", () => {
		const connection = cluster(' 10.0.0.1:7000,redis-b.internal:7001 , [::1]:7002,', {
			password: 'pw-123',
			ssl: true,
		});
		expect(connection.clusterNodes).toEqual([
			{ host: '10.0.0.1', port: 7000 },
			{ host: 'redis-b.internal', port: 7001 },
			{ host: '::1', port: 7002 },
		]);
		expect(connection).toMatchObject({ database: 0, password: 'pw-123', ssl: true });
		expect(describeConnection(connection)).toBe(
			'the Redis Cluster of 10.0.0.1:7000, redis-b.internal:7001, ::1:7002',
		);
	});

	it.each([
		['', /Cluster Nodes is empty/],
		[' , ', /Cluster Nodes is empty/],
		['10.0.0.1', /entry 1 is not host:port/],
		['10.0.0.1:7000,10.0.0.2', /entry 2 is not host:port/],
		['10.0.0.1:0', /entry 1 is not host:port/],
		['10.0.0.1:65536', /entry 1 is not host:port/],
		['10.0.0.1:70x0', /entry 1 is not host:port/],
		[':7000', /entry 1 is not host:port/],
		['redis://:hunter2-pass@10.0.0.1:7000', /entry 1 is a URL/],
		['10.0.0.1:7000,:hunter2-pass@10.0.0.2:7000', /entry 2 contains "@"/],
	])('Cluster Nodes %j → refused, naming the entry, never its value', (nodes, why) => {
		let error: Error | undefined;
		try {
			cluster(nodes);
		} catch (caught) {
			error = caught as Error;
		}
		expect(error).toBeInstanceOf(RedisCredentialError);
		expect(error?.message).toMatch(why);
		expect(error?.message).toMatch(/Redis credential's Cluster Nodes/);
		expect(error?.message).not.toContain('hunter2-pass');
	});

	it('a Database Number left from a single Redis → database 0 (the field is hidden for a cluster)', () => {
		expect(cluster('10.0.0.1:7000', { database: 2 }).database).toBe(0);
	});

	it('a single Redis (the default, and every credential saved before clusters) has no cluster nodes', () => {
		const single = connectionFromCredential({ host: 'cache', port: 6380, clusterNodes: 'x:1' });
		expect(single.clusterNodes).toBeUndefined();
		expect(describeConnection(single)).toBe('cache:6380 (db 0)');
	});
});

/** ioredis as far as the shared clients and the Test button use it; no socket. */
class FakeRedis extends EventEmitter {
	static made: FakeRedis[] = [];
	status = 'wait';
	disconnects = 0;
	isCluster = false;
	ping = jest.fn(async () => 'PONG');
	/** What INFO memory answers; Debian's redis-server and most self-hosted ones say noeviction. */
	static policy: string | Error = 'noeviction';
	info = jest.fn(async (section?: string) => {
		if (section !== 'memory') throw new Error(`ERR unexpected section ${section}`);
		if (FakeRedis.policy instanceof Error) throw FakeRedis.policy;
		return `# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_policy:${FakeRedis.policy}\r\n`;
	});

	constructor(readonly options: { retryStrategy?: (times: number) => number | null }) {
		super();
		FakeRedis.made.push(this);
	}

	async connect() {
		await Promise.resolve(); // ioredis becomes ready after connect() returns to its caller
		this.status = 'ready';
		this.emit('ready');
	}

	disconnect() {
		this.disconnects++;
		this.status = 'end';
	}

	async quit() {
		this.disconnect();
	}
}
const fakeModule = { Redis: FakeRedis, Cluster: FakeRedis } as unknown as RedisModule;
const SETTINGS: RedisConnection = { host: 'cache', port: 6379, database: 0, password: 'Pa55word' };

describe('RedisClients: one client per settings, shared by the deliveries', () => {
	let nowMs = Date.UTC(2025, 0, 15, 4, 30);
	beforeEach(() => {
		FakeRedis.made = [];
		jest.spyOn(Date, 'now').mockImplementation(() => nowMs);
	});
	afterEach(() => jest.restoreAllMocks());

	it('the same settings → the same client; other settings → a client of their own', async () => {
		const clients = new RedisClients(async () => fakeModule);
		const first = await clients.get(SETTINGS);
		expect(await clients.get({ ...SETTINGS })).toBe(first);
		expect(await clients.get({ ...SETTINGS, password: 'changed' })).not.toBe(first);
		expect(FakeRedis.made).toHaveLength(2);
	});

	it('reconnects at most every 2 s while in use; idle for 10 minutes it stops, and the next delivery connects afresh', async () => {
		const clients = new RedisClients(async () => fakeModule);
		const client = (await clients.get(SETTINGS)) as unknown as FakeRedis;
		const retry = client.options.retryStrategy!;
		expect(retry(1)).toBe(100);
		expect(retry(100)).toBe(2_000);
		nowMs += 10 * 60_000 + 1; // the shipped idle time: 10 minutes
		expect(retry(101)).toBeNull();
		client.status = 'end'; // what ioredis does when the strategy gives up
		const fresh = await clients.get(SETTINGS);
		expect(fresh).not.toBe(client);
		expect(FakeRedis.made).toHaveLength(2);
	});

	it("connection errors go to the latest delivery's logger, once per distinct failure, without the password", async () => {
		const clients = new RedisClients(async () => fakeModule);
		const first: string[] = [];
		const latest: string[] = [];
		const client = (await clients.get(SETTINGS, (m) => first.push(m))) as unknown as FakeRedis;
		await clients.get(SETTINGS, (m) => latest.push(m));
		client.emit('error', new Error('WRONGPASS for Pa55word'));
		client.emit('error', new Error('WRONGPASS for Pa55word'));
		expect(first).toEqual([]);
		expect(latest).toEqual(['WRONGPASS for [redacted]']);
	});

	it('release(trigger) when n8n deactivates it → a client only that trigger used closes; a shared one stays', async () => {
		const clients = new RedisClients(async () => fakeModule);
		const own = (await clients.get(SETTINGS, () => {}, 'wf1:a')) as unknown as FakeRedis;
		const shared = (await clients.get(
			{ ...SETTINGS, host: 'shared' },
			() => {},
			'wf1:a',
		)) as unknown as FakeRedis;
		await clients.get({ ...SETTINGS, host: 'shared' }, () => {}, 'wf2:b');
		clients.release('wf1:a');
		expect(own.disconnects).toBe(1);
		expect(shared.disconnects).toBe(0);
		expect(await clients.get(SETTINGS, () => {}, 'wf1:a')).not.toBe(own);
		clients.release('wf2:b');
		expect(shared.disconnects).toBe(1);
	});
});

describe('probeOnce: the Test button connects, PINGs and always disconnects', () => {
	beforeEach(() => {
		FakeRedis.made = [];
		FakeRedis.policy = 'noeviction';
	});

	it('PONG → PONG, disconnected, no reconnecting', async () => {
		expect((await probeOnce(SETTINGS, fakeModule)).pong).toBe('PONG');
		const [client] = FakeRedis.made;
		expect(client.disconnects).toBe(1);
		expect(client.options.retryStrategy!(1)).toBeNull();
	});

	it('a PING refused after connecting (e.g. an ACL without PING) → DedupeUnavailableError without the password, disconnected', async () => {
		const refused = probeOnce(SETTINGS, {
			...fakeModule,
			Redis: class extends FakeRedis {
				ping = jest.fn(async () => {
					throw new Error(
						"NOPERM this user has no permissions to run the 'ping' command (Pa55word)",
					);
				});
			},
		} as unknown as RedisModule);
		await expect(refused).rejects.toThrow(DedupeUnavailableError);
		await expect(refused).rejects.toThrow(/NOPERM .*\(\[redacted\]\)/);
		expect(FakeRedis.made[0].disconnects).toBe(1);
	});
});

/** A Redis Cluster as the checks see it: its masters, each a FakeRedis of its own. */
class FakeCluster extends FakeRedis {
	isCluster = true;
	static masters: Array<{ port: number; policy: string | Error }> = [];
	readonly masters = FakeCluster.masters.map(({ port, policy }) => {
		const node = new FakeRedis({});
		Object.assign(node, { options: { host: '10.0.0.1', port } });
		node.info = jest.fn(async () => {
			if (policy instanceof Error) throw policy;
			return `# Memory\r\nmaxmemory_policy:${policy}\r\n`;
		});
		return node;
	});

	nodes(role: string) {
		return role === 'master' ? this.masters : [];
	}
}
const clusterModule = { Redis: FakeRedis, Cluster: FakeCluster } as unknown as RedisModule;
const CLUSTER: RedisConnection = {
	...SETTINGS,
	clusterNodes: [{ host: '10.0.0.1', port: 7000 }],
};
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
		expect(await probeOnce(SETTINGS, fakeModule)).toEqual({ pong: 'PONG', eviction: undefined });
		expect(FakeRedis.made[0].info).toHaveBeenCalledWith('memory');
	});

	it.each(['volatile-lru', 'allkeys-lru', 'volatile-ttl', 'allkeys-random'])(
		'%s → evicting, naming the policy and the fix',
		async (policy) => {
			FakeRedis.policy = policy;
			const { eviction } = await probeOnce(SETTINGS, fakeModule);
			expect(eviction?.kind).toBe('evicting');
			expect(eviction?.message).toContain(`maxmemory-policy is ${policy}`);
			expect(eviction?.message).toMatch(/deletes remembered event ids/);
			expect(eviction?.message).toContain('Set maxmemory-policy to noeviction');
		},
	);

	it('INFO refused (an ACL without it, or a renamed command) → unknown, said as such, without the password', async () => {
		FakeRedis.policy = NOPERM;
		const { pong, eviction } = await probeOnce(SETTINGS, fakeModule);
		expect(pong).toBe('PONG');
		expect(eviction?.kind).toBe('unknown');
		expect(eviction?.message).toMatch(/could not read maxmemory-policy \(NOPERM .*\[redacted\]\)/);
		expect(eviction?.message).toContain('Make sure it is noeviction');
		expect(eviction?.message).not.toContain('Pa55word');
	});

	it('INFO memory without the policy (a proxy that filters it) → unknown', async () => {
		FakeRedis.made = [];
		const { eviction } = await probeOnce(SETTINGS, {
			...fakeModule,
			Redis: class extends FakeRedis {
				info = jest.fn(async () => '# Memory\r\nused_memory:1000\r\n');
			},
		} as unknown as RedisModule);
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
		const { eviction } = await probeOnce(CLUSTER, clusterModule);
		expect(eviction?.kind).toBe('evicting');
		expect(eviction?.message).toContain(
			'maxmemory-policy is volatile-lru on 10.0.0.1:7001, allkeys-lfu on 10.0.0.1:7002,',
		);
		FakeCluster.masters = [
			{ port: 7000, policy: 'noeviction' },
			{ port: 7001, policy: NOPERM },
		];
		const unknown = (await probeOnce(CLUSTER, clusterModule)).eviction;
		expect(unknown?.kind).toBe('unknown');
		expect(unknown?.message).toContain('could not read maxmemory-policy (on 10.0.0.1:7001: NOPERM');
		FakeCluster.masters = [
			{ port: 7000, policy: 'noeviction' },
			{ port: 7001, policy: 'noeviction' },
		];
		expect((await probeOnce(CLUSTER, clusterModule)).eviction).toBeUndefined();
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
});
