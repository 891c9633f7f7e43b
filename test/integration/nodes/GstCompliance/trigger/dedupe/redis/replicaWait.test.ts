/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * A start survives a failover: a real master and replica (redis-server, started here), the
 * replica linked through a proxy that can hold the replication stream. The replica is promoted
 * without the bytes it never received, as after the master's death; the started event must still
 * read as started there.
 */
import Redis from 'ioredis';

import {
	createClient,
	loadRedisModule,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import {
	fixedClient,
	RedisDedupeStore,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { redisEventKey, ledgerScope } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { waitForReplica } from '@/nodes/GstCompliance/trigger/dedupe/redis/replicaWait';
import type { RedisConnection } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { sleep, waitFor } from '@/test/harness/http';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { holdingProxy, type HoldingProxy } from '@/test/harness/holdingProxy';

jest.setTimeout(60_000);

const PASSWORD = 'replica-Pa55word';
const SCOPE = ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' });
const T0 = Date.UTC(2025, 0, 15, 4, 30);
let master: RunningRedis;
let replica: RunningRedis;
let proxy: HoldingProxy;
const clients: Redis[] = [];

const connect = (server: RunningRedis) => {
	const client = new Redis({ host: server.host, port: server.port, password: PASSWORD });
	clients.push(client);
	return client;
};
const connection = (server: RunningRedis): RedisConnection => ({
	host: server.host,
	port: server.port,
	database: 0,
	password: PASSWORD,
});
const storeOn = (server: RunningRedis, warn?: (message: string) => void) =>
	new RedisDedupeStore(fixedClient(connect(server)), connection(server), {
		scope: SCOPE,
		windowMs: 60_000,
		warn,
	});

beforeEach(async () => {
	// Diskless full sync without its default 5 s wait for more replicas.
	master = await startRedis('failover-master', {
		password: PASSWORD,
		args: ['--repl-diskless-sync-delay', '0', '--shutdown-timeout', '0'],
	});
	proxy = await holdingProxy(master);
	replica = await startRedis('failover-replica', {
		password: PASSWORD,
		args: ['--replicaof', '127.0.0.1', String(proxy.port), '--masterauth', PASSWORD],
	});
	const look = connect(replica);
	await waitFor(
		async () => (await look.info('replication')).includes('master_link_status:up'),
		'the replica to link up',
		20_000,
		50,
	);
});

afterEach(async () => {
	for (const client of clients.splice(0)) client.disconnect();
	await proxy.cut().catch(() => undefined);
	await replica?.dispose();
	await master?.dispose();
});

/** The replica becomes the master without what the link held (the old master is gone). */
async function failover(): Promise<void> {
	await proxy.cut();
	await connect(replica).replicaof('NO', 'ONE');
}

describe('a started event survives a failover', () => {
	it('start while the replica lags → it returns once the replica has it; promoted, the replica reads it as started', async () => {
		const store = storeOn(master);
		expect(await store.accept('evt_failover', T0, 60_000)).toEqual({ kind: 'accepted' });
		const monitor = await connect(master).monitor();
		clients.push(monitor);
		const waitSent = new Promise<'wait'>((resolve) =>
			monitor.on('monitor', (_time: string, args: string[]) => {
				if (args[0]?.toUpperCase() === 'WAIT') resolve('wait');
			}),
		);
		proxy.hold();
		const start = store.start('evt_failover');
		const first = await Promise.race([start.then(() => 'returned' as const), waitSent]);
		// A start that returns before its replica has it is the defect: fail over right then.
		if (first === 'wait') proxy.release();
		expect(await start).toBe('started');
		await failover();
		expect(await storeOn(replica).start('evt_failover')).toBe('duplicate');
		expect(first).toBe('wait');
	});

	it('a replica slower than the bound → the start stands after REPLICA_WAIT_MS, and the log says it is on the master alone', async () => {
		const warnings: string[] = [];
		const store = storeOn(master, (message) => warnings.push(message));
		proxy.hold();
		expect(await store.start('evt_slow')).toBe('started');
		expect(warnings).toEqual([
			expect.stringMatching(
				/"evt_slow" was not acknowledged by a replica within 1000 ms.*master alone/,
			),
		]);
		proxy.release();
	});

	it('a replica that stops acknowledging → starts and accepts on the same connection are not held behind one another: 6 starts 300 ms apart and a delivery 1.5 s in all succeed', async () => {
		const warnings: string[] = [];
		// The client the trigger uses: its 2 s command timeout, no offline queue.
		const shared = createClient(await loadRedisModule(), connection(master), () => 100) as Redis;
		clients.push(shared);
		await shared.connect();
		const store = new RedisDedupeStore(fixedClient(shared), connection(master), {
			scope: SCOPE,
			windowMs: 60_000,
			warn: (message) => warnings.push(message),
		});
		for (let i = 0; i < 6; i++) await store.accept(`evt_w${i}`, T0, 60_000);
		proxy.hold();
		// Executions get their slots 300 ms apart; a delivery arrives 1.5 s in.
		const settled = async <T>(work: Promise<T>) =>
			await work.then(
				(value) => value,
				(error: Error) => error.message,
			);
		const starts = Array.from(
			{ length: 6 },
			async (_, i) =>
				await sleep(300 * i).then(async () => await settled(store.start(`evt_w${i}`))),
		);
		const accept = sleep(1_500).then(
			async () => await settled(store.accept('evt_new', T0, 60_000)),
		);
		expect(await Promise.all([...starts, accept])).toEqual([
			...Array.from({ length: 6 }, () => 'started'),
			{ kind: 'accepted' },
		]);
		proxy.release();
		expect(warnings).toHaveLength(6);
	});

	it('a server without replicas (the promoted one) → no WAIT: a start never waits', async () => {
		await failover();
		expect(await waitForReplica(connect(replica), redisEventKey(SCOPE, 'evt_alone'))).toBe('none');
		expect(await storeOn(replica).start('evt_alone')).toBe('started');
	});
});
