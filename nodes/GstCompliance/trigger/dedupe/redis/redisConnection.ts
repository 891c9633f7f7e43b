/**
 * Connecting the shared dedupe store: n8n's own `ioredis` loaded only when a Redis credential is
 * attached, a client built for the settings (redisSettings.ts), and a command run on it. The package has no runtime dependencies: n8n (2.41: ioredis 5.3.2,
 * the client its queue runs on) adds its module folders to NODE_PATH at start-up in the main,
 * worker and webhook processes alike, so `require('ioredis')` from a community package resolves to
 * n8n's copy (see docs/deployments.md, "Redis client"). ioredis is a devDependency for its types.
 *
 * Commands fail fast instead of queueing while Redis is away (no offline queue, a short connect and
 * command timeout), so a delivery meets an outage with an error within ~2 s, which the trigger
 * answers with a 5xx.
 * The process-wide pool of clients is redisClients.ts; the eviction-policy check redisEviction.ts.
 */
import type { Cluster, ClusterNode, Redis, RedisOptions } from 'ioredis';

import { redisFailure, type RedisFailure } from './redisFailure';
import { describeConnection, redactConnectionSecrets, type RedisConnection } from './redisSettings';
import { settle } from '../../../settle';

/** What the store needs of a client: one Lua script on one key (works the same on a cluster). */
export type RedisClient = Redis | Cluster;

/** Redis could not be reached or refused the command. The message names hosts and ports only. */
export class DedupeUnavailableError extends Error {
	/** Why, for the advice (redisFailure.ts). */
	readonly failure: RedisFailure;

	constructor(
		readonly where: string,
		reason: string,
	) {
		super(`Redis dedupe store at ${where} unavailable: ${reason}`);
		this.name = 'DedupeUnavailableError';
		this.failure = redisFailure(reason);
	}
}

/** This n8n process cannot load ioredis: the Redis store cannot run here at all. */
export class RedisClientMissingError extends Error {
	constructor(reason: string) {
		super(
			`The GST Compliance Trigger's Redis dedupe store needs the 'ioredis' module, which n8n ships and exposes to community packages; it could not be loaded in this n8n process (${reason}). Run the trigger in an n8n that includes ioredis, or detach the Redis credential to use the single-process store.`,
		);
		this.name = 'RedisClientMissingError';
	}
}

export const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 2_000;

export interface RedisModule {
	Redis: new (options: RedisOptions) => Redis;
	Cluster: new (nodes: ClusterNode[], options: Record<string, unknown>) => Cluster;
}

/**
 * Loads ioredis, or fails with an error that says what is missing: n8n always ships it, so this
 * fails only in an unusual install (e.g. a custom image that pruned n8n's dependencies). The
 * package compiles to CommonJS, so this `import()` is a `require` and resolves through NODE_PATH
 * (an ES-module import would not: ESM resolution ignores NODE_PATH).
 */
export async function loadRedisModule(
	load: () => Promise<unknown> = async () => await import('ioredis'),
): Promise<RedisModule> {
	const result = await settle(load());
	if (!result.ok) {
		const error = result.error as NodeJS.ErrnoException;
		throw new RedisClientMissingError(error.code ?? error.message);
	}
	const module = result.value as { default?: unknown; Cluster?: unknown };
	const Redis = module.default ?? module;
	const Cluster = module.Cluster ?? (Redis as { Cluster?: unknown }).Cluster;
	if (typeof Redis !== 'function' || typeof Cluster !== 'function')
		throw new RedisClientMissingError('the module found exports no Redis client class');
	return { Redis, Cluster } as RedisModule;
}

function serverOptions(connection: RedisConnection): RedisOptions {
	return {
		username: connection.user,
		password: connection.password,
		tls: connection.ssl
			? {
					rejectUnauthorized: !connection.disableTlsVerification,
					// A cluster's nodes each present their own name; Node takes it from the host.
					servername: connection.clusterNodes ? undefined : connection.host,
				}
			: undefined,
		maxRetriesPerRequest: 0,
		connectTimeout: CONNECT_TIMEOUT_MS,
		commandTimeout: COMMAND_TIMEOUT_MS,
		connectionName: 'n8n-gst-compliance-dedupe',
		// After a failover the old master answers READONLY: reconnecting resolves Host again, which
		// a provider's primary endpoint points at the new master. The failed command is not resent.
		reconnectOnError: (error: Error) => redisFailure(error.message) === 'readOnly',
	};
}

/**
 * A client for these settings, not yet connected. `retry` is ioredis's reconnect strategy: the
 * delay before the next attempt, or null to give up (the client then ends).
 */
export function createClient(
	module: RedisModule,
	connection: RedisConnection,
	retry: (times: number) => number | null,
): RedisClient {
	if (!connection.clusterNodes)
		return new module.Redis({
			...serverOptions(connection),
			host: connection.host,
			port: connection.port,
			db: connection.database,
			enableOfflineQueue: false,
			lazyConnect: true,
			retryStrategy: retry,
		});
	return new module.Cluster(connection.clusterNodes, {
		redisOptions: serverOptions(connection),
		enableOfflineQueue: false,
		lazyConnect: true,
		clusterRetryStrategy: retry,
		// Connects to each node by the name it is given, so TLS checks the certificate against that
		// name (managed cluster-mode services name hosts, not IPs); ioredis resolves it otherwise.
		dnsLookup: (address: string, callback: (error: null, address: string) => void) =>
			callback(null, address),
		slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
		// A moved slot or a failover is followed, within the command timeout.
		maxRedirections: 16,
	});
}

/**
 * What a client's error says of its cause: a cluster that could not refresh its slots reports the
 * last node's own error (a refused password, a timeout) as `lastNodeError`, and its connect fails
 * with "None of startup nodes is available", which names no cause.
 */
export function errorCause(error: Error): string {
	return (error as { lastNodeError?: Error }).lastNodeError?.message ?? error.message;
}

/** Runs a command; any failure becomes a DedupeUnavailableError naming hosts and ports. */
export async function command<T>(connection: RedisConnection, run: () => Promise<T>): Promise<T> {
	const result = await settle(run());
	if (result.ok) return result.value;
	if (result.error instanceof DedupeUnavailableError) throw result.error;
	throw new DedupeUnavailableError(
		describeConnection(connection),
		redactConnectionSecrets((result.error as Error).message, connection),
	);
}
