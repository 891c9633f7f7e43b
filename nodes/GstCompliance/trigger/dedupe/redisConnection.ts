/**
 * The connection of the shared dedupe store: the Redis credential read as connection settings (one
 * Redis, or the nodes of a Redis Cluster), n8n's own `ioredis` loaded only when such a credential
 * is attached, and the clients. The package has no runtime dependencies: n8n (2.41: ioredis 5.3.2,
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

import { redact as redactSecrets } from '../../errors/redact';

export interface RedisNode {
	host: string;
	port: number;
}

export interface RedisConnection {
	host: string;
	port: number;
	database: number;
	user?: string;
	password?: string;
	ssl?: boolean;
	disableTlsVerification?: boolean;
	/** Set for a Redis Cluster: the nodes to discover it from (host and port are then unused). */
	clusterNodes?: RedisNode[];
}

/** What the store needs of a client: one Lua script on one key (works the same on a cluster). */
export type RedisClient = Redis | Cluster;

/** Redis could not be reached or refused the command. The message names hosts and ports only. */
export class DedupeUnavailableError extends Error {
	constructor(
		readonly where: string,
		reason: string,
	) {
		super(`Redis dedupe store at ${where} unavailable: ${reason}`);
		this.name = 'DedupeUnavailableError';
	}
}

/**
 * A credential field holds something that is not what it asks for (a URL in Host, a malformed
 * cluster node). Refused at the Test button and at runtime; the message never repeats the value
 * (it may hold a password).
 */
export class RedisCredentialError extends Error {
	constructor(field: string, reason: string) {
		super(
			`The GST Compliance Dedupe Redis credential's ${field} ${reason}. Put host names or IP addresses alone in Host or Cluster Nodes, the password in Password, the user in User and the port in Port (Cluster Nodes: host:port, comma-separated).`,
		);
		this.name = 'RedisCredentialError';
	}
}

/** Why a host value is not a host name alone, or undefined when it is. */
function hostProblem(host: string): string | undefined {
	if (host.includes('://')) return 'is a URL (it contains "://")';
	if (host.includes('@')) return 'contains "@" (a user or password belongs in its own field)';
	if (host.includes('/')) return 'contains "/"';
	if (/\s/.test(host)) return 'contains whitespace';
	return undefined;
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
	const result = await load().then(
		(module) => ({ module }),
		(error: NodeJS.ErrnoException) => ({ error }),
	);
	if ('error' in result)
		throw new RedisClientMissingError(result.error.code ?? result.error.message);
	const { module } = result as { module: { default?: unknown; Cluster?: unknown } };
	const Redis = module.default ?? module;
	const Cluster = module.Cluster ?? (Redis as { Cluster?: unknown }).Cluster;
	if (typeof Redis !== 'function' || typeof Cluster !== 'function')
		throw new RedisClientMissingError('the module found exports no Redis client class');
	return { Redis, Cluster } as RedisModule;
}

/** Hosts and ports as shown in errors and logs (never the user or password). */
export function describeConnection(connection: RedisConnection): string {
	const nodes = connection.clusterNodes;
	if (!nodes) return `${connection.host}:${connection.port} (db ${connection.database})`;
	return `the Redis Cluster of ${nodes.map((node) => `${node.host}:${node.port}`).join(', ')}`;
}

/** `host:port, host:port` (as n8n's QUEUE_BULL_REDIS_CLUSTER_NODES); IPv6 hosts in brackets. */
function parseClusterNodes(text: string): RedisNode[] {
	const entries = text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	if (entries.length === 0) throw new RedisCredentialError('Cluster Nodes', 'is empty');
	return entries.map((entry, index) => {
		const which = `entry ${index + 1}`;
		const colon = entry.lastIndexOf(':');
		const rawHost = colon > 0 ? entry.slice(0, colon) : '';
		const host = rawHost.replace(/^\[(.*)\]$/, '$1');
		const portText = colon > 0 ? entry.slice(colon + 1) : '';
		const problem = hostProblem(entry);
		if (problem) throw new RedisCredentialError('Cluster Nodes', `${which} ${problem}`);
		const port = Number(portText);
		if (!host || !/^\d+$/.test(portText) || port < 1 || port > 65_535)
			throw new RedisCredentialError('Cluster Nodes', `${which} is not host:port`);
		return { host, port };
	});
}

/** The connection a credential describes; throws RedisCredentialError for fields that are not one. */
export function connectionFromCredential(data: Record<string, unknown>): RedisConnection {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	const number = (value: unknown, fallback: number) => {
		const n = typeof value === 'string' ? Number(value) : value;
		return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : fallback;
	};
	const common = {
		database: number(data.database, 0),
		user: text(data.user) || undefined,
		password: text(data.password) || undefined,
		ssl: data.ssl === true,
		disableTlsVerification: data.disableTlsVerification === true,
	};
	if (data.deployment === 'cluster') {
		const clusterNodes = parseClusterNodes(text(data.clusterNodes));
		// A cluster has database 0 only; the field is hidden for clusters and its value unused.
		common.database = 0;
		return { host: clusterNodes[0].host, port: clusterNodes[0].port, ...common, clusterNodes };
	}
	const problem = hostProblem(text(data.host).trim());
	if (problem) throw new RedisCredentialError('Host', problem);
	return { host: text(data.host).trim() || 'localhost', port: number(data.port, 6379), ...common };
}

/**
 * Error texts from Redis never carry the password: the credential's user and password, and the
 * user info of any URL in the text (`redis://user:secret@host` → `redis://[redacted]@host`).
 */
export function redact(message: string, connection: RedisConnection): string {
	const secrets = [connection.password, connection.user].filter(
		(secret): secret is string => !!secret,
	);
	return redactSecrets(message, secrets);
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
		slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
		// A moved slot or a failover is followed, within the command timeout.
		maxRedirections: 16,
	});
}

/** Runs a command; any failure becomes a DedupeUnavailableError naming hosts and ports. */
export async function command<T>(connection: RedisConnection, run: () => Promise<T>): Promise<T> {
	const result = await run().then(
		(value) => ({ value }),
		(error: Error) => ({ error }),
	);
	if (!('error' in result)) return result.value;
	if (result.error instanceof DedupeUnavailableError) throw result.error;
	throw new DedupeUnavailableError(
		describeConnection(connection),
		redact(result.error.message, connection),
	);
}
