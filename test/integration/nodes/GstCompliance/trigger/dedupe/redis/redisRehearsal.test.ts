/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The store's every step run once for the Redis credential's Test, against a real redis-server
 * (started here; missing, the suite fails with the command that installs it): ACL users granted
 * all but one command stand for a Redis that would refuse a delivery. What the Test shows of it:
 * redisCredential.test.ts.
 */
import Redis from 'ioredis';

import { REDIS_PREFIX } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { REDIS_COMMANDS } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisFailure';
import { rehearseStore } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisRehearsal';
import type { RedisConnection } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';

jest.setTimeout(60_000);

const PASSWORD = 'redis-rehearsal-Pa55word';
let redis: RunningRedis;
let admin: Redis;
const clients: Redis[] = [];

beforeAll(async () => {
	redis = await startRedis('rehearsal', { password: PASSWORD });
	admin = new Redis({ host: redis.host, port: redis.port, password: PASSWORD });
});

afterAll(async () => {
	for (const client of [admin, ...clients]) client?.disconnect();
	await redis?.dispose();
});

/** A user granted the commands the store runs on a single Redis, but `without`. */
async function userWithout(without?: string): Promise<[Redis, RedisConnection]> {
	const name = `rehearsal-${without ?? 'all'}`;
	const granted = REDIS_COMMANDS.always
		.filter((command) => command !== without)
		.map((command) => `+${command.toLowerCase().replace(' ', '|')}`);
	await admin.call('ACL', 'SETUSER', name, 'reset', 'on', '>gst-Pa55word', '~*', ...granted);
	const connection = {
		host: redis.host,
		port: redis.port,
		database: 0,
		user: name,
		password: 'gst-Pa55word',
	};
	const client = new Redis({ ...connection, username: name });
	clients.push(client);
	return [client, connection];
}

/** The package's keys other than the replica barrier (one per server, the store's own). */
const probeKeys = async () =>
	(await admin.keys(`${REDIS_PREFIX}:*`)).filter((key) => !key.endsWith(':replica-barrier'));

describe('rehearseStore runs what a delivery runs and keeps nothing', () => {
	it('a user granted every command the store runs → resolves; no key of the probe is left', async () => {
		const [client, connection] = await userWithout();
		await expect(rehearseStore(client, connection)).resolves.toBeUndefined();
		expect(await probeKeys()).toEqual([]);
	});

	it.each([
		['ZRANGEBYSCORE', 'the overdue look, after two accepts'],
		['ZREM', 'a tidying step, which a delivery lets fail and the rehearsal runs plain'],
	])(
		'a user without %s (%s) → DedupeUnavailableError naming the refusal; what it wrote before is deleted',
		async (without) => {
			const [client, connection] = await userWithout(without);
			const refused = await rehearseStore(client, connection).catch((error: unknown) => error);
			expect(refused).toBeInstanceOf(DedupeUnavailableError);
			expect((refused as Error).message).toMatch(
				new RegExp(
					`^Redis dedupe store at ${redis.host}:${redis.port} .*unavailable: NOPERM.*'${without.toLowerCase()}'`,
				),
			);
			expect(await probeKeys()).toEqual([]);
		},
	);

	it('a user without WAIT → refused once the store’s steps ran, which a start would not say where there are no replicas', async () => {
		const [client, connection] = await userWithout('WAIT');
		await expect(rehearseStore(client, connection)).rejects.toThrow(/NOPERM.*'wait'/);
		expect(await probeKeys()).toEqual([]);
	});
});
