/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The ACL list the refusal advice and docs/deployments.md give (REDIS_COMMANDS) is what the package
 * sends, connecting included, watched on real redis-servers (started here; missing, the suite fails
 * with the command that installs it): the credential's Test and deliveries through the trigger as a
 * user granted exactly the list, on database 1 of a master with a replica (a start's WAIT), and on
 * a Redis Cluster. MONITOR shows each command the package sends; the ACL log, that Redis refused
 * none (it also holds what MONITOR leaves out).
 */
import * as fs from 'fs';
import * as path from 'path';
import Redis from 'ioredis';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { testRedisCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	REDIS_ADVICE,
	REDIS_COMMANDS,
	REDIS_COMMAND_LIST,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisFailure';
import { sleep, waitFor } from '@/test/harness/http';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { deliver, envelope, NOW_MS, signed } from '@/test/integration/helpers/deliverToTrigger';

jest.setTimeout(90_000);

const PASSWORD = 'redis-commands-Pa55word';
const USER = { user: 'gst-listed', password: 'gst-listed-Pa55word' };

/** Redis lets every user run these, granted or not: no ACL names them. */
const UNGRANTED = new Set(['AUTH', 'HELLO', 'QUIT']);
/** Commands whose subcommand is what an ACL grants (`+client|setname`). */
const CONTAINERS = new Set(['CLIENT', 'CLUSTER']);

const admin = (server: RunningRedis) =>
	new Redis({ host: server.host, port: server.port, password: PASSWORD });

/** Grants USER exactly `commands` on the package's keys, and empties the ACL log. */
async function grant(server: RunningRedis, commands: readonly string[]): Promise<void> {
	const client = admin(server);
	const rules = commands.map((name) => `+${name.toLowerCase().replace(' ', '|')}`);
	await client.call('ACL', 'SETUSER', USER.user, 'reset', 'on', `>${USER.password}`);
	await client.call('ACL', 'SETUSER', USER.user, '~n8n-gst-compliance:*', ...rules);
	await client.call('ACL', 'LOG', 'RESET');
	client.disconnect();
}

/** The commands Redis receives from now on, named as an ACL grants them, until `stop()`. */
async function watch(server: RunningRedis) {
	const seen = new Set<string>();
	// monitor() opens a connection of its own beside the client's: both are closed by stop().
	const client = admin(server);
	const monitor = await client.monitor();
	monitor.on('monitor', (_time: string, args: string[]) => {
		const name = String(args[0]).toUpperCase();
		if (UNGRANTED.has(name)) return;
		seen.add(CONTAINERS.has(name) ? `${name} ${String(args[1]).toUpperCase()}` : name);
	});
	return {
		seen,
		stop: () => {
			monitor.disconnect();
			client.disconnect();
		},
	};
}

/** What Redis refused since `grant()`: each entry's command, empty when it refused nothing. */
async function refused(server: RunningRedis): Promise<string[]> {
	const client = admin(server);
	const log = (await client.call('ACL', 'LOG')) as unknown[][];
	client.disconnect();
	return log.map((entry) => {
		const fields = entry.map(String);
		return `${fields[fields.indexOf('reason') + 1]}: ${fields[fields.indexOf('object') + 1]}`;
	});
}

let sequence = 0;
/** A new event through the trigger (accepted, then started), and the same again (a duplicate). */
async function deliverTwice(redis: ICredentialDataDecryptedObject): Promise<void> {
	const body = JSON.stringify(envelope({ id: `evt_commands_${++sequence}` }));
	const first = await deliver({ ...signed(body, Math.floor(NOW_MS / 1000)), redis });
	expect(first.started).toHaveLength(1);
	const again = await deliver({ ...signed(body, Math.floor(NOW_MS / 1000)), redis });
	expect(again.status).toBeLessThan(300);
}

beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => NOW_MS));
afterEach(async () => {
	jest.restoreAllMocks();
	await redisClients.close();
});

describe('the ACL list is what the package sends, connecting included', () => {
	it('the advice and docs/deployments.md say the list as REDIS_COMMANDS holds it', () => {
		expect(REDIS_COMMAND_LIST).toBe(
			`${REDIS_COMMANDS.always.join(', ')}, SELECT (where Database is not 0), CLUSTER SLOTS and CLUSTER INFO (on a Redis Cluster)`,
		);
		expect(REDIS_ADVICE.auth).toContain(`lets it run ${REDIS_COMMAND_LIST};`);
		const docs = fs.readFileSync(
			path.join(__dirname, '../../../../../../../docs/deployments.md'),
			'utf8',
		);
		expect(docs).toContain(`the ACL (${REDIS_COMMAND_LIST};`);
	});

	describe('one Redis with a replica, Database 1', () => {
		let master: RunningRedis;
		let replica: RunningRedis;
		beforeAll(async () => {
			master = await startRedis('commands-master', { password: PASSWORD });
			replica = await startRedis('commands-replica', {
				password: PASSWORD,
				args: ['--replicaof', master.host, String(master.port), '--masterauth', PASSWORD],
			});
			const client = admin(master);
			await waitFor(
				async () => /connected_slaves:1/.test(await client.info('replication')),
				'the replica to connect',
				30_000,
				100,
			);
			client.disconnect();
		});
		afterAll(async () => {
			await replica?.dispose();
			await master?.dispose();
		});

		it('the Test and deliveries as a user granted the list with SELECT → OK, every command of the list sent, none refused', async () => {
			const listed = [...REDIS_COMMANDS.always, ...REDIS_COMMANDS.database];
			await grant(master, listed);
			const watching = await watch(master);
			const credential = { host: master.host, port: master.port, database: 1, ...USER };
			try {
				expect(await testRedisCredential(credential)).toEqual({
					status: 'OK',
					message: `Connected to Redis at ${master.host}:${master.port} (db 1)`,
				});
				await deliverTwice(credential);
				// A start's WAIT runs on a barrier connection of its own, after the answer.
				await waitFor(
					async () => listed.every((name) => watching.seen.has(name)),
					'every listed command',
					5_000,
					50,
				).catch(() => undefined);
				await sleep(200);
			} finally {
				watching.stop();
			}
			expect([...watching.seen].sort()).toEqual([...listed].sort());
			expect(await refused(master)).toEqual([]);
		});
	});

	describe('a Redis Cluster', () => {
		let node: RunningRedis;
		beforeAll(async () => {
			node = await startRedis('commands-cluster', {
				password: PASSWORD,
				// A lone node knows its address only when told: CLUSTER SLOTS would name no host.
				args: [
					'--cluster-enabled',
					'yes',
					'--cluster-node-timeout',
					'2000',
					'--cluster-announce-ip',
					'127.0.0.1',
				],
			});
			const client = admin(node);
			await client.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
			await waitFor(
				async () => String(await client.call('CLUSTER', 'INFO')).includes('cluster_state:ok'),
				'the cluster to report cluster_state:ok',
				30_000,
				100,
			);
			client.disconnect();
		});
		afterAll(async () => await node?.dispose());

		it('the Test and deliveries as a user granted the list with the cluster commands → OK, every one sent, none refused', async () => {
			const listed = [...REDIS_COMMANDS.always, ...REDIS_COMMANDS.cluster];
			await grant(node, listed);
			const watching = await watch(node);
			const credential = {
				deployment: 'cluster',
				clusterNodes: `${node.host}:${node.port}`,
				...USER,
			};
			try {
				expect(await testRedisCredential(credential)).toEqual({
					status: 'OK',
					message: `Connected to Redis at the Redis Cluster of ${node.host}:${node.port}`,
				});
				await deliverTwice(credential);
				await sleep(200);
			} finally {
				watching.stop();
			}
			// Without replicas no start WAITs: the Test's own WAIT is the one sent.
			expect([...watching.seen].sort()).toEqual([...listed].sort());
			expect(await refused(node)).toEqual([]);
		});
	});
});
