/**
 * A start that survives a failover: Redis replicates asynchronously, so a write the master has
 * acknowledged is lost when a replica that never received it is promoted, and the event's
 * redelivery then starts it again. Where the server has replicas, the store waits (WAIT, bounded)
 * for one of them to acknowledge the start. What this does not cover is in docs/deployments.md:
 * a replica slower than the bound, and acceptances (a lost acceptance costs a second execution
 * that the start then ends, never a second start).
 *
 * WAIT blocks the connection it runs on, on the server: on the process's shared connection, one
 * replica that stops acknowledging would hold every other accept and start behind it. So each
 * server gets a barrier of its own (`ReplicaBarrier`): a second connection that writes a marker
 * and WAITs for it. Redis replicates in order, so a replica that has the marker has every start
 * made before it; one barrier runs at a time, and the starts that finish meanwhile share the next.
 */
import type { Cluster, Redis } from 'ioredis';

import { replicaMarkerKey } from '../keys';
import type { RedisClient } from './redisConnection';
import { isDue } from '../../../throttle';

/** How long a start waits for a replica: well inside the client's 2 s command timeout. */
export const REPLICA_WAIT_MS = 1_000;
/** A server's replica count is read again this long after the last read. */
const REPLICAS_READ_EVERY_MS = 60_000;

/** `none`: the server has no replicas (or they cannot be counted); otherwise whether one acked. */
export type Replication = 'none' | 'acknowledged' | 'timedOut';

const replicaCounts = new WeakMap<Redis, { count: number; readMs: number }>();

/**
 * Waits for one replica of the server that holds `key` to acknowledge the writes made on it so
 * far, when that server has replicas, through the server's barrier. Never throws: a server that
 * cannot be asked counts as without. The barrier writes its own key (keys.ts `replicaMarkerKey`),
 * on a cluster with a hash tag that lands it on that master.
 */
export async function waitForReplica(
	client: RedisClient,
	key: string,
	timeoutMs = REPLICA_WAIT_MS,
): Promise<Replication> {
	const server = client.isCluster ? masterOf(client as Cluster, key) : (client as Redis);
	if (!server || (await replicaCount(server)) === 0) return 'none';
	let barrier = barriers.get(server);
	if (!barrier) {
		const marker = client.isCluster ? markerOn(client as Cluster, server) : replicaMarkerKey();
		if (marker === undefined) return 'none';
		barrier = new ReplicaBarrier(server, marker, timeoutMs);
		barriers.set(server, barrier);
	}
	return (await barrier.after()) ? 'acknowledged' : 'timedOut';
}

const barriers = new WeakMap<Redis, ReplicaBarrier>();

/**
 * One server's replication barrier: its own connection (closed with the shared one) writes a
 * marker and WAITs for one replica to have it. Callers whose writes are done join the next
 * barrier; one runs at a time.
 */
export class ReplicaBarrier {
	private readonly connection: Redis;
	private waiting: Array<(acknowledged: boolean) => void> = [];
	private running = false;
	/** Rounds run: the marker's value, so each round writes. */
	private rounds = 0;

	constructor(
		server: Redis,
		private readonly marker: string,
		private readonly timeoutMs: number,
	) {
		this.connection = server.duplicate();
		this.connection.on('error', () => undefined);
		server.once('end', () => this.connection.disconnect());
	}

	/** Resolves once a replica has every write made on the server before this call. */
	async after(): Promise<boolean> {
		return await new Promise<boolean>((resolve) => {
			this.waiting.push(resolve);
			void this.pump();
		});
	}

	private async pump(): Promise<void> {
		if (this.running) return;
		this.running = true;
		while (this.waiting.length > 0) {
			const batch = this.waiting.splice(0);
			const acknowledged = await this.round();
			for (const resolve of batch) resolve(acknowledged);
		}
		this.running = false;
	}

	private async round(): Promise<boolean> {
		this.rounds++;
		try {
			if (this.connection.status === 'wait') await this.connection.connect();
			await this.connection.set(this.marker, String(this.rounds), 'PX', 60_000);
			return Number(await this.connection.call('WAIT', 1, this.timeoutMs)) >= 1;
		} catch {
			return false;
		}
	}
}

/** `connected_slaves` of INFO replication, read at most once a minute per connection. */
async function replicaCount(server: Redis): Promise<number> {
	const nowMs = Date.now();
	const known = replicaCounts.get(server);
	if (known && !isDue(known.readMs, nowMs, REPLICAS_READ_EVERY_MS)) return known.count;
	const info = await Promise.resolve()
		.then(async () => await server.info('replication'))
		.catch(() => '');
	const count = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
	replicaCounts.set(server, { count, readMs: nowMs });
	return count;
}

/** The marker key with a hash tag that puts it on `server`'s slots; undefined when none is found. */
function markerOn(cluster: Cluster, server: Redis): string | undefined {
	const owner = `${server.options.host}:${server.options.port}`;
	for (let tag = 0; tag < 65_536; tag++) {
		const key = replicaMarkerKey(tag);
		if (cluster.slots[keySlot(key)]?.[0] === owner) return key;
	}
	return undefined;
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
