/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- a fixed password of the test's own redis-server, not a credential; imports the package through the @/ alias */
/**
 * The values the Redis store keeps in an event's key: the TypeScript side (startedMark,
 * startedByAnother) and the Lua side (START) against a real redis-server (Debian's
 * `redis-server`, started here on a free port; missing, the suite fails with the command that
 * installs it). The store's behaviour as a whole is redisStore.test.ts's.
 */
import Redis from 'ioredis';

import {
	script,
	START,
	startedByAnother,
	startedMark,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisScripts';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';

jest.setTimeout(60_000);

const PASSWORD = 'redis-scripts-Pa55word';
let redis: RunningRedis;
let client: Redis;

beforeAll(async () => {
	redis = await startRedis('scripts-redis', { password: PASSWORD });
	client = new Redis({ host: redis.host, port: redis.port, password: PASSWORD, db: 4 });
});

afterAll(async () => {
	client?.disconnect();
	await redis?.dispose();
});

describe('startedMark: the value a start writes', () => {
	it('a token → d:t:<token>', () => {
		expect(startedMark('3f2a')).toBe('d:t:3f2a');
	});

	it('no token (an item queued by 0.1.0) → a bare d', () => {
		expect(startedMark()).toBe('d');
		expect(startedMark('')).toBe('d');
	});
});

describe('startedByAnother: whether a start with this token finds the event started by someone else', () => {
	it('no value, or an acceptance → false', () => {
		expect(startedByAnother(null, 'tok')).toBe(false);
		expect(startedByAnother(undefined)).toBe(false);
		expect(startedByAnother('a:1700000000000:tok', 'tok')).toBe(false);
	});

	it('its own mark → false; another token’s, or a bare d → true', () => {
		expect(startedByAnother(startedMark('tok'), 'tok')).toBe(false);
		expect(startedByAnother(startedMark('other'), 'tok')).toBe(true);
		expect(startedByAnother('d', 'tok')).toBe(true);
	});

	it('no token → any started mark is another’s, a bare d included', () => {
		expect(startedByAnother('d')).toBe(true);
		expect(startedByAnother('d', '')).toBe(true);
		expect(startedByAnother(startedMark('tok'))).toBe(true);
	});
});

describe('START and startedByAnother agree on every value and token', () => {
	const values = [null, 'd', startedMark('tok'), startedMark('other'), 'a:1700000000000:tok', 'x'];
	const tokens = ['', 'tok', 'other'];

	it.each(values.flatMap((value) => tokens.map((token) => [value, token] as const)))(
		'value %p, token %p → duplicate exactly when startedByAnother says so',
		async (value, token) => {
			const key = `scripts-test:${String(value)}:${token}`;
			await client.del(key);
			if (value !== null) await client.set(key, value, 'PX', 60_000);
			const result = await script(START, key, 60_000, startedMark(token))(client);
			expect(result === 'duplicate').toBe(startedByAnother(value, token));
			if (result === 'started') expect(await client.get(key)).toBe(startedMark(token));
		},
	);
});
