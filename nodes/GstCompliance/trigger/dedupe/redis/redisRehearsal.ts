/**
 * The Redis credential's Test runs the store's every step once (redisCredential.ts): on a probe
 * event of a scope of its own, which it then deletes, so that what would refuse a delivery (an ACL
 * without one of the commands, a read-only replica, a renamed command) refuses the Test, with the
 * same error. The tidying commands, which a delivery's path lets fail, run plain here. INFO is left
 * out: a store that cannot read its replicas waits for none. WAIT runs on its own: a start runs it
 * only where the server has replicas and goes on without a word when it is refused
 * (replicaWait.ts), so only here would a user without it be told; WAIT for no replica answers at
 * once.
 */
import { randomUUID } from 'crypto';

import { probeScope, redisAcceptedKey, redisDeliveryKey, redisEventKey } from '../keys';
import { command, type RedisClient } from './redisConnection';
import { script, TAKE_BACK } from './redisScripts';
import { type RedisConnection } from './redisSettings';
import { fixedClient, RedisDedupeStore } from './redisStore';

const PROBE = 'credential-test';

export async function rehearseStore(
	client: RedisClient,
	connection: RedisConnection,
	nowMs = Date.now(),
): Promise<void> {
	const scope = probeScope(randomUUID());
	const store = new RedisDedupeStore(fixedClient(client), connection, { scope, windowMs: 60_000 });
	// Each failure a DedupeUnavailableError naming hosts and ports, as the store's own commands.
	const run = async <T>(call: (on: RedisClient) => Promise<T>) =>
		await command(connection, async () => await call(client));
	const key = redisEventKey(scope, PROBE);
	const setKey = redisAcceptedKey(scope);
	try {
		await store.accept(PROBE, nowMs, 1, PROBE, Buffer.from('{}'));
		await run(script(TAKE_BACK, key, PROBE));
		await store.accept(PROBE, nowMs, 1, PROBE, Buffer.from('{}'));
		await store.overdue(nowMs + 1_000, 1, { shown: false, redelivers: true });
		await store.start(PROBE, nowMs, { token: PROBE, process: PROBE, acceptedMs: nowMs });
		await store.startedElsewhere(PROBE);
		await run(async (on) => await on.zadd(setKey, nowMs, PROBE));
		await run(async (on) => await on.zrem(setKey, PROBE));
		await run(async (on) => await on.del(key));
	} finally {
		// The accepted set has no expiry: a rehearsal refused half-way leaves nothing behind.
		await Promise.all(
			[setKey, key, redisDeliveryKey(scope, PROBE)].map(
				async (each) => await run(async (on) => await on.del(each)).catch(() => 0),
			),
		);
	}
	await run(async (on) => await on.call('WAIT', 0, 0));
}
