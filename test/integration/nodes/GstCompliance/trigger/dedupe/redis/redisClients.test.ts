/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The process's shared Redis clients against a real redis-server (started here; missing, the suite
 * fails with the command that installs it): a client is closed only when no delivery or execution
 * has a command on it, whichever path closes it (the trigger deactivated by a publish, the idle
 * sweep). Redis holds the commands with CLIENT PAUSE, as a slow or busy Redis does.
 */

import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { testRedisCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import { connectionFromCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { releaseTrigger } from '@/nodes/GstCompliance/trigger/dedupe/store';
import { redisEventKey, ledgerScope } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { freePort, sleep, waitFor } from '@/test/harness/http';
import { deliver, envelope, NOW_MS, signed } from '@/test/integration/helpers/deliverToTrigger';
import { suiteRedis } from '@/test/integration/helpers/suiteRedis';

jest.setTimeout(60_000);

const PASSWORD = 'redis-clients-Pa55word';
const suite = suiteRedis('clients-redis', PASSWORD);

let now = NOW_MS;
beforeEach(async () => {
	now = NOW_MS;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	await redisClients.close();
});
afterEach(() => jest.restoreAllMocks());

const credential = (database = 3) => ({
	host: suite.server.host,
	port: suite.server.port,
	database,
	password: PASSWORD,
});
const body = (id: string) => JSON.stringify(envelope({ id }));

/** Redis holds every write for `ms` (a busy or slow Redis), from now. */
async function holdWrites(ms: number): Promise<void> {
	await suite.inspect.call('CLIENT', 'PAUSE', String(ms), 'WRITE');
}

describe('a client with a command in flight is never closed', () => {
	it('the trigger deactivated (a publish) while its delivery waits on Redis → the delivery is accepted; the client closes after it', async () => {
		await deliver({ ...signed(body('evt_warm')), redis: credential() });
		await holdWrites(600);
		const delivery = deliver({
			...signed(body('evt_held')),
			redis: credential(),
			execution: 'later',
		});
		await sleep(150);
		releaseTrigger({ workflowId: 'wf1', nodeId: 'node-1' });
		expect(await delivery).toMatchObject({ status: 202, body: { received: true } });
		expect(
			await suite.inspect.get(
				redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), 'evt_held'),
			),
		).toMatch(/^a:\d+:[0-9a-f-]{36}$/);
		await waitFor(
			async () =>
				!String(await suite.inspect.client('LIST')).includes('name=n8n-gst-compliance-dedupe'),
			'the released client to close',
			5_000,
			20,
		);
	});

	it('the idle sweep (another delivery 11 minutes later by the clock) while a delivery waits on Redis → that delivery is accepted', async () => {
		await deliver({ ...signed(body('evt_warm')), redis: credential(3) });
		await holdWrites(600);
		const delivery = deliver({ ...signed(body('evt_held')), redis: credential(3) });
		await sleep(150);
		now += 11 * 60_000;
		// Other settings: their first use sweeps the pool.
		const other = deliver({
			...signed(body('evt_other'), Math.floor(now / 1000)),
			redis: credential(4),
		});
		expect(await delivery).toMatchObject({ status: 202, body: { received: true } });
		expect(await other).toMatchObject({ status: 202 });
	});
});

describe('the eviction policy is read again: at every reconnection and every 5 minutes of use, warned once per change', () => {
	let warnings: string[] = [];
	const onWarn = (message: string) => void warnings.push(message);
	beforeEach(() => (warnings = []));
	afterEach(async () => await suite.inspect.config('SET', 'maxmemory-policy', 'noeviction'));

	/** A delivery's use of the shared client, then the check that runs beside it. */
	async function use(): Promise<void> {
		await redisClients.get(
			{ host: suite.server.host, port: suite.server.port, database: 3, password: PASSWORD },
			onWarn,
			'wf1:node-1',
		);
		await sleep(100);
	}
	const dropConnections = async () =>
		await suite.inspect.client('KILL', 'SKIPME', 'yes', 'TYPE', 'normal');

	it('the policy changed, then the connection dropped (a restart, a failover) → the reconnection warns once; a change back and again → warned again', async () => {
		await use();
		expect(warnings).toEqual([]);
		await suite.inspect.config('SET', 'maxmemory-policy', 'allkeys-lru');
		await dropConnections();
		await sleep(300); // the client reconnects by itself
		await use();
		await use();
		expect(warnings).toEqual([expect.stringContaining('maxmemory-policy is allkeys-lru')]);
		await suite.inspect.config('SET', 'maxmemory-policy', 'noeviction');
		await dropConnections();
		await sleep(300);
		await use();
		await suite.inspect.config('SET', 'maxmemory-policy', 'volatile-ttl');
		await dropConnections();
		await sleep(300);
		await use();
		expect(warnings).toEqual([
			expect.stringContaining('maxmemory-policy is allkeys-lru'),
			expect.stringContaining('maxmemory-policy is volatile-ttl'),
		]);
	});

	it('CONFIG SET maxmemory-policy on a connected server → warned by the first delivery 5 minutes after the last look', async () => {
		await use();
		await suite.inspect.config('SET', 'maxmemory-policy', 'volatile-lru');
		now += 3 * 60_000;
		await use();
		expect(warnings).toEqual([]);
		now += 2 * 60_000 + 1;
		await use();
		expect(warnings).toEqual([expect.stringContaining('maxmemory-policy is volatile-lru')]);
	});
});

describe('connecting with the credential’s settings', () => {
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
			host: suite.server.host,
			port: String(suite.server.port),
			database: 3,
			user: '',
			password: PASSWORD,
			ssl: false,
		};
		const parsed = connectionFromCredential(data);
		expect(parsed).toEqual({
			host: suite.server.host,
			port: suite.server.port,
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
			host: suite.server.host,
			port: suite.server.port,
			password: 'wrong-Pa55word-xyz',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`${suite.server.host}:${suite.server.port}`);
		expect(result.message).not.toContain('wrong-Pa55word-xyz');
		expect(
			await testRedisCredential({
				host: suite.server.host,
				port: suite.server.port,
				password: PASSWORD,
			}),
		).toEqual({
			status: 'OK',
			message: `Connected to Redis at ${suite.server.host}:${suite.server.port} (db 0)`,
		});
	});
});
