/**
 * Whether a Redis may evict the dedupe keys. Every dedupe key has a TTL, so a Redis that may evict
 * (`volatile-*`, a common managed-Redis default, or `allkeys-*`) deletes them first when it runs out
 * of memory: ids are forgotten and a redelivery starts its workflow again, with nothing in any log.
 * Only `noeviction` keeps them (a full Redis then refuses the write: the delivery is answered 503
 * and retried). The Test button refuses any other policy, and the shared clients warn when it
 * changes to one (redisClients.ts).
 */
import type { Cluster, Redis } from 'ioredis';

import { type RedisClient } from './redisConnection';
import { redactConnectionSecrets, type RedisConnection } from './redisSettings';
import { settle } from '../../../settle';

/** A Redis may evict keys: what it deletes first are the dedupe keys, each with a TTL. */
export const evictingPolicy = (policies: string): string =>
	`maxmemory-policy is ${policies}, so when Redis runs out of memory it deletes remembered event ids without a word, and a redelivery then starts its workflow again. Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction and redis.conf, or the provider's parameter group), or give the dedupe store a Redis of its own with that setting.`;

/** INFO is forbidden or renamed (managed Redis often does): the policy cannot be checked. */
export const unknownPolicy = (reason: string): string =>
	`could not read maxmemory-policy (${reason}), so whether Redis may delete remembered event ids is unknown. Make sure it is noeviction: under any other policy Redis deletes them without a word when it runs out of memory, and a redelivery then starts its workflow again.`;

/** What a Redis's eviction policy means for the ids: undefined when it is noeviction. */
export interface EvictionProblem {
	/** `evicting`: the policy lets Redis delete keys. `unknown`: it could not be read. */
	kind: 'evicting' | 'unknown';
	message: string;
}

/**
 * Reads `maxmemory-policy` from `INFO memory` (INFO rather than CONFIG GET: managed Redis forbids
 * CONFIG more often). On a cluster every master is read, since each holds its own slots; replicas
 * are not (one promoted later is read at the reconnection that follows). Never throws: a refused or
 * renamed INFO is an `unknown` problem, not a failure.
 */
export async function evictionProblem(
	client: RedisClient,
	connection: RedisConnection,
): Promise<EvictionProblem | undefined> {
	const policies = await readPolicies(client).catch((error: Error): ServerPolicy[] => [
		{ where: '', unknown: error.message },
	]);
	const on = (where: string) => (where ? ` on ${where}` : '');
	const evicting = policies
		.filter((server) => server.policy && server.policy !== 'noeviction')
		.map((server) => `${server.policy}${on(server.where)}`);
	if (evicting.length > 0)
		return { kind: 'evicting', message: evictingPolicy(evicting.join(', ')) };
	const unknown = policies
		.filter((server) => server.unknown)
		.map((server) => `${server.where ? `on ${server.where}: ` : ''}${server.unknown}`);
	if (unknown.length === 0) return undefined;
	return {
		kind: 'unknown',
		message: unknownPolicy(redactConnectionSecrets(unknown.join('; '), connection)),
	};
}

/** A server's policy, or why it is unknown; `where` is empty for a single Redis. */
interface ServerPolicy {
	where: string;
	policy?: string;
	unknown?: string;
}

async function readPolicies(client: RedisClient): Promise<ServerPolicy[]> {
	if (!client.isCluster) return [await readPolicy(client as Redis, '')];
	const masters = (client as Cluster).nodes('master');
	if (masters.length === 0) return [{ where: '', unknown: 'the cluster lists no master' }];
	return await Promise.all(
		masters.map(
			async (master) => await readPolicy(master, `${master.options.host}:${master.options.port}`),
		),
	);
}

async function readPolicy(server: Redis, where: string): Promise<ServerPolicy> {
	const info = await settle(server.info('memory'));
	if (!info.ok) return { where, unknown: (info.error as Error).message };
	const policy = /^maxmemory_policy:(\S+)/m.exec(info.value)?.[1];
	if (!policy) return { where, unknown: 'INFO memory has no maxmemory_policy' };
	return { where, policy };
}
