/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** n8n's ioredis, loaded only when a Redis credential is attached. */
import {
	loadRedisModule,
	RedisClientMissingError,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';

class Redis {}
class Cluster {}

describe('loadRedisModule', () => {
	it("loadRedisModule() in this process → n8n's ioredis (a devDependency here): Redis and Cluster", async () => {
		const module = await loadRedisModule();
		expect(typeof module.Redis).toBe('function');
		expect(typeof module.Cluster).toBe('function');
	});

	it('a module with a default export and Cluster beside it (ioredis 5 as CommonJS) → both classes', async () => {
		const module = await loadRedisModule(async () => ({ default: Redis, Cluster }));
		expect(module).toEqual({ Redis, Cluster });
	});

	it('a module that is the Redis class, with Cluster on it → both classes', async () => {
		const RedisWithCluster = Object.assign(class {}, { Cluster });
		const module = await loadRedisModule(async () => RedisWithCluster);
		expect(module).toEqual({ Redis: RedisWithCluster, Cluster });
	});

	it('no ioredis in the n8n process → RedisClientMissingError naming the cause and the way out', async () => {
		const missing = Object.assign(new Error("Cannot find module 'ioredis'"), {
			code: 'MODULE_NOT_FOUND',
		});
		const loading = loadRedisModule(async () => await Promise.reject(missing));
		await expect(loading).rejects.toBeInstanceOf(RedisClientMissingError);
		await expect(loading).rejects.toThrow(
			/needs the 'ioredis' module.*MODULE_NOT_FOUND.*detach the Redis credential/,
		);
	});

	it('an error without a code → its message is the cause', async () => {
		await expect(
			loadRedisModule(async () => await Promise.reject(new Error('disk gone'))),
		).rejects.toThrow(/\(disk gone\)/);
	});

	it.each<[string, unknown]>([
		['no Redis class', { default: 'not a class', Cluster }],
		['no Cluster class', { default: Redis }],
	])('a module with %s → RedisClientMissingError', async (_label, module) => {
		await expect(loadRedisModule(async () => module)).rejects.toThrow(
			/exports no Redis client class/,
		);
	});
});
