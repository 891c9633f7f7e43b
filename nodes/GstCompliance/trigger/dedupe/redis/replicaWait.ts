/**
 * A start that survives a failover: Redis replicates asynchronously, so a write the master has
 * acknowledged is lost when a replica that never received it is promoted, and the event's
 * redelivery then starts it again. Where the server has replicas, the store waits (WAIT, bounded)
 * for one of them to acknowledge the start. What this does not cover is in docs/deployments.md:
 * a replica slower than the bound, and acceptances (a lost acceptance costs a second execution
 * that the start then ends, never a second start).
 */
import type { Cluster, Redis } from 'ioredis';

import type { RedisClient } from './redisConnection';

/** How long a start waits for a replica: well inside the client's 2 s command timeout. */
export const REPLICA_WAIT_MS = 1_000;
/** A server's replica count is read again this long after the last read. */
const REPLICAS_READ_EVERY_MS = 60_000;

/** `none`: the server has no replicas (or they cannot be counted); otherwise whether one acked. */
export type Replication = 'none' | 'acknowledged' | 'timedOut';

const replicaCounts = new WeakMap<Redis, { count: number; readMs: number }>();

/**
 * Waits for one replica of the server that holds `key` to acknowledge this connection's writes,
 * when that server has replicas. Never throws: a server that cannot be asked counts as without.
 */
export async function waitForReplica(
	client: RedisClient,
	key: string,
	timeoutMs = REPLICA_WAIT_MS,
): Promise<Replication> {
	const server = client.isCluster ? masterOf(client as Cluster, key) : (client as Redis);
	if (!server || (await replicaCount(server)) === 0) return 'none';
	const acknowledged = await server.call('WAIT', 1, timeoutMs).then(Number, () => 0);
	return acknowledged >= 1 ? 'acknowledged' : 'timedOut';
}

/** `connected_slaves` of INFO replication, read at most once a minute per connection. */
async function replicaCount(server: Redis): Promise<number> {
	const nowMs = Date.now();
	const known = replicaCounts.get(server);
	if (known && nowMs - known.readMs < REPLICAS_READ_EVERY_MS && nowMs >= known.readMs)
		return known.count;
	const info = await Promise.resolve()
		.then(async () => await server.info('replication'))
		.catch(() => '');
	const count = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
	replicaCounts.set(server, { count, readMs: nowMs });
	return count;
}

/** The connection to the master that serves `key`'s slot, as the cluster's slot table says. */
function masterOf(cluster: Cluster, key: string): Redis | undefined {
	const owner = cluster.slots[keySlot(key)]?.[0];
	return cluster
		.nodes('master')
		.find((node) => `${node.options.host}:${node.options.port}` === owner);
}

/** Redis Cluster's hash slot of a key: CRC16 (XMODEM) of the key, or of its `{hash tag}`. */
export function keySlot(key: string): number {
	const bytes = Buffer.from(key);
	const open = bytes.indexOf(0x7b);
	const close = open >= 0 ? bytes.indexOf(0x7d, open + 1) : -1;
	const hashed = close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
	let crc = 0;
	for (const byte of hashed) {
		crc ^= byte << 8;
		for (let bit = 0; bit < 8; bit++)
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc % 16384;
}
