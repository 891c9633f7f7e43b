/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The Redis credential's fields as a connection (one Redis or a cluster), and what Redis errors may say. */
import {
	connectionFromCredential,
	describeConnection,
	redactConnectionSecrets,
	RedisCredentialError,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';

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
		expect(redactConnectionSecrets('WRONGPASS dedupe-user S3cret-pw', connection)).toBe(
			'WRONGPASS [redacted] [redacted]',
		);
	});

	it('leaves a text without secrets as it is', () => {
		expect(redactConnectionSecrets('Connection is closed.', connection)).toBe(
			'Connection is closed.',
		);
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
