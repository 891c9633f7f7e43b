/** The Redis credential's Test button. */
import type { RedisModule } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { probeOnce } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import { DedupeUnavailableError } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { FakeRedis, fakeModule, noRehearsal, SETTINGS } from '../../../../../helpers/fakeRedis';

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
