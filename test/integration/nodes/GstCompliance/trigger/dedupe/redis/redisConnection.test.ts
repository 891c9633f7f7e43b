/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * How each way a real redis-server fails reaches the user (started here; missing, the suite fails
 * with the command that installs it): a full Redis under noeviction, a refused login, a read-only
 * replica (what a client still pointing at the old master meets after a failover), a Redis that
 * does not answer in time, and none at all. Each is its own log line with its own advice, and two
 * causes within the minute are both said.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import Redis from 'ioredis';

import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { REDIS_COMMANDS } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisFailure';
import { freePort, sleep } from '@/test/harness/http';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { deliver, envelope, NOW_MS, signed } from '@/test/integration/helpers/deliverToTrigger';

jest.setTimeout(60_000);

const PASSWORD = 'redis-causes-Pa55word';
let full: RunningRedis;
let replica: RunningRedis;
let plain: RunningRedis;

beforeAll(async () => {
	full = await startRedis('causes-full', {
		password: PASSWORD,
		args: ['--maxmemory', '2mb', '--maxmemory-policy', 'noeviction'],
	});
	replica = await startRedis('causes-replica', {
		password: PASSWORD,
		args: ['--replicaof', full.host, String(full.port), '--masterauth', PASSWORD],
	});
	plain = await startRedis('causes-plain', { password: PASSWORD });
});

afterAll(async () => {
	await redisClients.close();
	await replica?.dispose();
	await plain?.dispose();
	await full?.dispose();
});

let warnings: string[] = [];
let now = NOW_MS;
beforeEach(async () => {
	warnings = [];
	now += 5 * 60_000; // every test in a minute of its own: the log's once-a-minute rule starts afresh
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	jest
		.spyOn(Container.get(Logger), 'warn')
		.mockImplementation((message: unknown) => void warnings.push(String(message)));
	await redisClients.close();
});
afterEach(() => jest.restoreAllMocks());

const credential = (server: RunningRedis, password = PASSWORD) => ({
	host: server.host,
	port: server.port,
	password,
});
let sequence = 0;
const delivery = () =>
	signed(JSON.stringify(envelope({ id: `evt_${++sequence}` })), Math.floor(now / 1000));
const refusals = () => warnings.filter((line) => line.includes('refused (503)'));

/** Writes until Redis refuses a write with OOM (under noeviction it keeps what it holds). */
async function fill(server: RunningRedis): Promise<void> {
	const client = new Redis({ ...credential(server) });
	const chunk = 'x'.repeat(1024);
	let refusal = '';
	for (let i = 0; !refusal; i++)
		refusal = await client.set(`filler:${i}`, chunk).then(
			() => '',
			(error: Error) => error.message,
		);
	client.disconnect();
	expect(refusal).toMatch(/^OOM/);
}

describe('each way Redis fails has its own words in the log', () => {
	it('Redis full under noeviction → 503 and "out of memory" with what to raise; never the password', async () => {
		await fill(full);
		const result = await deliver({ ...delivery(), redis: credential(full) });
		expect(result.status).toBe(503);
		expect(refusals()).toEqual([expect.stringMatching(/out of memory.*maxmemory/)]);
		expect(refusals()[0]).not.toMatch(/Password/);
	});

	it('a wrong password → 503 and "refused the credential": User and Password', async () => {
		const result = await deliver({ ...delivery(), redis: credential(full, 'not-the-Pa55word') });
		expect(result.status).toBe(503);
		expect(refusals()).toEqual([
			expect.stringMatching(/refused the credential.*User and Password/),
		]);
		expect(warnings.join('\n')).not.toContain('not-the-Pa55word');
	});

	it('an ACL user granted exactly the commands the advice names → accepted and started; one without TIME (run inside the scripts) → 503 and the advice, not "check Redis\'s log"', async () => {
		const admin = new Redis({ ...credential(plain) });
		const named = REDIS_COMMANDS.always
			.map((name) => `+${name.toLowerCase().replace(' ', '|')}`)
			.join(' ');
		const withoutTime = named.replace(' +time', '');
		const keys = '~n8n-gst-compliance:*';
		await admin.call(
			'ACL',
			'SETUSER',
			'gst-named',
			'on',
			'>gst-Pa55word',
			keys,
			...named.split(' '),
		);
		await admin.call(
			'ACL',
			'SETUSER',
			'gst-no-time',
			'on',
			'>gst-Pa55word',
			keys,
			...withoutTime.split(' '),
		);
		admin.disconnect();
		const as = (user: string) => ({ ...credential(plain, 'gst-Pa55word'), user });
		const granted = await deliver({ ...delivery(), redis: as('gst-named') });
		expect(granted).toMatchObject({ status: 202 });
		expect(granted.started).toHaveLength(1);
		const refused = await deliver({ ...delivery(), redis: as('gst-no-time') });
		expect(refused.status).toBe(503);
		expect(refusals()).toEqual([
			expect.stringMatching(/ACL permission lets it run GET, SET, DEL, EVAL, TIME/),
		]);
	});

	it('Host names a read-only replica (a client on the old master after a failover) → "read-only replica": point at the current master', async () => {
		const result = await deliver({ ...delivery(), redis: credential(replica) });
		expect(result.status).toBe(503);
		expect(refusals()).toEqual([expect.stringMatching(/read-only replica.*current master/)]);
	});

	it('no Redis on the port → "Check that Redis runs"', async () => {
		const port = await freePort();
		const result = await deliver({
			...delivery(),
			redis: { host: '127.0.0.1', port, password: PASSWORD },
		});
		expect(result.status).toBe(503);
		expect(refusals()).toEqual([expect.stringMatching(/Check that Redis runs/)]);
	});

	it('two causes within the minute (full, then a wrong password) → both said', async () => {
		await deliver({ ...delivery(), redis: credential(full) });
		await deliver({ ...delivery(), redis: credential(full, 'not-the-Pa55word') });
		expect(refusals()).toEqual([
			expect.stringMatching(/out of memory/),
			expect.stringMatching(/refused the credential/),
		]);
	});

	it('Redis holding every command longer than the command timeout → "did not answer in time"', async () => {
		const admin = new Redis({ ...credential(plain) });
		try {
			await deliver({ ...delivery(), redis: credential(plain) }); // connected before the pause
			warnings = [];
			now += 5 * 60_000;
			await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
			const result = await deliver({ ...delivery(), redis: credential(plain) });
			expect(result.status).toBe(503);
			expect(refusals()).toEqual([expect.stringMatching(/did not answer in time/)]);
		} finally {
			await sleep(3_000);
			admin.disconnect();
		}
	});
});
