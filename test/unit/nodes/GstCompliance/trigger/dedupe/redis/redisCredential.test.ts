/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The Redis credential's Test button. */
import type { RedisModule } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { probeOnce } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { FakeRedis, fakeModule, noRehearsal, SETTINGS } from '@/test/unit/helpers/fakeRedis';

describe('probeOnce: the Test button connects, PINGs and always disconnects', () => {
	beforeEach(() => {
		FakeRedis.made = [];
		FakeRedis.policy = 'noeviction';
	});

	it('PONG → PONG, disconnected, no reconnecting', async () => {
		expect((await probeOnce(SETTINGS, fakeModule, noRehearsal)).pong).toBe('PONG');
		const [client] = FakeRedis.made;
		expect(client.disconnects).toBe(1);
		expect(client.options.retryStrategy!(1)).toBeNull();
	});

	it('a PING refused after connecting (e.g. an ACL without PING) → DedupeUnavailableError without the password, disconnected', async () => {
		const refused = probeOnce(
			SETTINGS,
			{
				...fakeModule,
				Redis: class extends FakeRedis {
					ping = jest.fn(async () => {
						throw new Error(
							"NOPERM this user has no permissions to run the 'ping' command (Pa55word)",
						);
					});
				},
			} as unknown as RedisModule,
			noRehearsal,
		);
		await expect(refused).rejects.toThrow(DedupeUnavailableError);
		await expect(refused).rejects.toThrow(/NOPERM .*\(\[redacted\]\)/);
		expect(FakeRedis.made[0].disconnects).toBe(1);
	});
});

describe('probeOnce: an error before ready fails the Test, though ioredis goes on', () => {
	beforeEach(() => {
		FakeRedis.made = [];
		FakeRedis.policy = 'noeviction';
	});

	it("a SELECT refused on connect (ioredis then goes on in db 0) → DedupeUnavailableError with Redis's words, no PING, disconnected", async () => {
		const refused = probeOnce(
			{ ...SETTINGS, database: 1 },
			{
				...fakeModule,
				Redis: class extends FakeRedis {
					async connect() {
						this.emit(
							'error',
							new Error("NOPERM User gst has no permissions to run the 'select' command"),
						);
						await super.connect();
					}
				},
			} as unknown as RedisModule,
			noRehearsal,
		);
		await expect(refused).rejects.toThrow(DedupeUnavailableError);
		await expect(refused).rejects.toThrow(
			/^Redis dedupe store at cache:6379 \(db 1\) unavailable: NOPERM .*'select' command$/,
		);
		const [client] = FakeRedis.made;
		expect(client.ping).not.toHaveBeenCalled();
		expect(client.disconnects).toBe(1);
	});

	it('a refused AUTH, after which the connection closes → the refusal\'s words, not "Connection is closed"', async () => {
		const refused = probeOnce(
			SETTINGS,
			{
				...fakeModule,
				Redis: class extends FakeRedis {
					async connect() {
						this.emit('error', new Error('WRONGPASS invalid username-password pair'));
						throw new Error('Connection is closed.');
					}
				},
			} as unknown as RedisModule,
			noRehearsal,
		);
		await expect(refused).rejects.toThrow(/unavailable: WRONGPASS invalid username-password pair$/);
		await expect(refused).rejects.toMatchObject({ failure: 'auth' });
	});

	it("an error after ready (a dropped connection while the Test runs) → the step's own error", async () => {
		const dropped = probeOnce(
			SETTINGS,
			{
				...fakeModule,
				Redis: class extends FakeRedis {
					ping = jest.fn(async () => {
						this.emit('error', new Error('read ECONNRESET'));
						throw new Error('Connection is closed.');
					});
				},
			} as unknown as RedisModule,
			noRehearsal,
		);
		await expect(dropped).rejects.toThrow(/unavailable: Connection is closed\.$/);
	});
});
