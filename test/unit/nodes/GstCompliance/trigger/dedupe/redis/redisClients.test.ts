/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** One client per connection settings, shared by the deliveries, closed with its last user. */
import { RedisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { FakeRedis, fakeModule, SETTINGS } from '@/test/unit/helpers/fakeRedis';

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

	it('work running longer than the idle time → the reconnect strategy keeps trying, the sweep and release leave the client; it closes when the work ends', async () => {
		const clients = new RedisClients(async () => fakeModule);
		let finish = () => {};
		const work = clients.use(
			SETTINGS,
			async (client) => await new Promise<unknown>((resolve) => (finish = () => resolve(client))),
			() => {},
			'wf1:a',
		);
		await Promise.resolve().then(async () => await Promise.resolve());
		const [client] = FakeRedis.made;
		nowMs += 10 * 60_000 + 1;
		expect(client.options.retryStrategy!(101)).toBe(2_000);
		await clients.get({ ...SETTINGS, host: 'other' }); // sweeps the idle clients
		clients.release('wf1:a');
		expect(client.disconnects).toBe(0);
		finish();
		expect(await work).toBe(client);
		expect(client.disconnects).toBe(1);
	});
});
