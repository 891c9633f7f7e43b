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
 *
 * Every dedupe key has a TTL, so a Redis that may evict (`volatile-*`, a common managed-Redis
 * default, or `allkeys-*`) deletes them first when it runs out of memory: ids are forgotten and a
 * redelivery starts its workflow again, with nothing in any log. Only `noeviction` keeps them (a
 * full Redis then refuses the write: the delivery is answered 503 and retried). So the Test button
 * refuses any other policy, and each client warns once at its first connect.
 */
import type { Cluster, ClusterNode, Redis, RedisOptions } from 'ioredis';
import { sleep } from 'n8n-workflow';

import { redact as redactSecrets } from '../../../transport/redact';

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

/** A Redis may evict keys: what it deletes first are the dedupe keys, each with a TTL. */
export const evictingPolicy = (policies: string): string =>
	`maxmemory-policy is ${policies}, so when Redis runs out of memory it deletes remembered event ids without a word, and a redelivery then starts its workflow again. Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction and redis.conf, or the provider's parameter group), or give the dedupe store a Redis of its own with that setting.`;

/** INFO is forbidden or renamed (managed Redis often does): the policy cannot be checked. */
export const unknownPolicy = (reason: string): string =>
	`could not read maxmemory-policy (${reason}), so whether Redis may delete remembered event ids is unknown. Make sure it is noeviction: under any other policy Redis deletes them without a word when it runs out of memory, and a redelivery then starts its workflow again.`;

const CONNECT_TIMEOUT_MS = 2_000;
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
function createClient(
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

/** What a Redis's eviction policy means for the ids: undefined when it is noeviction. */
export interface EvictionProblem {
	/** `evicting`: the policy lets Redis delete keys. `unknown`: it could not be read. */
	kind: 'evicting' | 'unknown';
	message: string;
}

/**
 * Reads `maxmemory-policy` from `INFO memory` (INFO rather than CONFIG GET: managed Redis forbids
 * CONFIG more often). On a cluster every master is read, since each holds its own slots; replicas
 * are not (one promoted later is read again only by a new client). Never throws: a refused or
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
	return { kind: 'unknown', message: unknownPolicy(redact(unknown.join('; '), connection)) };
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
	const info = await server.info('memory').then(
		(text) => ({ text }),
		(error: Error) => ({ error }),
	);
	if ('error' in info) return { where, unknown: info.error.message };
	const policy = /^maxmemory_policy:(\S+)/m.exec(info.text)?.[1];
	if (!policy) return { where, unknown: 'INFO memory has no maxmemory_policy' };
	return { where, policy };
}

/**
 * Connects once with these settings, PINGs, reads the eviction policy and disconnects (the
 * credential's Test button).
 */
export async function probeOnce(
	connection: RedisConnection,
	module?: RedisModule,
): Promise<{ pong: string; eviction?: EvictionProblem }> {
	const client = createClient(module ?? (await loadRedisModule()), connection, () => null);
	client.on('error', () => undefined); // the awaited connect() or ping() reports the failure
	const answer = await client
		.connect()
		.then(async () => await client.ping())
		.then(
			async (pong) => ({ pong, eviction: await evictionProblem(client, connection) }),
			(error: Error) => ({ error }),
		);
	client.disconnect();
	if ('error' in answer)
		throw new DedupeUnavailableError(
			describeConnection(connection),
			redact(answer.error.message, connection),
		);
	return answer;
}

interface Entry {
	client: RedisClient;
	/**
	 * Where connection errors and the eviction warning go: the warn log of the latest delivery
	 * that asked for the client (the pool has no logger of its own).
	 */
	onError: (message: string) => void;
	/** The eviction policy was read (once per client, at its first connect). */
	evictionChecked?: boolean;
	lastError?: string;
	/** One wait for readiness shared by every delivery that arrives while connecting. */
	waiting?: Promise<void>;
	lastUsedMs: number;
	/** The triggers (workflow and node) that used it; when n8n deactivates the last, it closes. */
	users: Set<string>;
}

/**
 * A client whose settings no delivery has asked for this long (e.g. before a password change, or
 * of a deactivated workflow) stops reconnecting, and the next delivery of any settings closes it.
 */
const IDLE_CLOSE_MS = 10 * 60_000;
/** Reconnects at most every 2 s: deliveries in between fail fast. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** One connected client per connection settings, shared by every delivery that uses them. */
export class RedisClients {
	private readonly clients = new Map<string, Entry>();

	private module?: Promise<RedisModule>;

	constructor(private readonly load: () => Promise<RedisModule> = loadRedisModule) {}

	/**
	 * The client for these settings, connected. Throws DedupeUnavailableError when Redis does not
	 * answer within the connect timeout.
	 */
	async get(connection: RedisConnection, onError: (message: string) => void = () => {}, user = '') {
		// The settings as the key: a changed password or node list gets a client of its own.
		const key = JSON.stringify(connection);
		const nowMs = Date.now();
		this.closeIdle(nowMs);
		const module = await this.loadOnce();
		let entry = this.clients.get(key);
		if (entry?.client.status === 'end') {
			// It gave up reconnecting while idle: connect afresh.
			this.clients.delete(key);
			entry = undefined;
		}
		if (!entry) {
			const created = { lastUsedMs: nowMs, onError, users: new Set<string>() } as Entry;
			created.client = createClient(module, connection, (times) =>
				Date.now() - created.lastUsedMs > IDLE_CLOSE_MS
					? null
					: Math.min(100 * times, MAX_RECONNECT_DELAY_MS),
			);
			created.client.on('error', (error: Error) => {
				const message = redact(error.message, connection);
				// One log line per distinct failure, not one per reconnect attempt.
				if (message !== created.lastError) created.onError(message);
				created.lastError = message;
			});
			created.client.on('ready', () => (created.lastError = undefined));
			entry = created;
			this.clients.set(key, entry);
		}
		entry.lastUsedMs = nowMs;
		entry.onError = onError;
		entry.users.add(user);
		if (entry.client.status !== 'ready') {
			const current = entry;
			current.waiting ??= ready(current, connection).finally(() => (current.waiting = undefined));
			await current.waiting;
		}
		if (!entry.evictionChecked) {
			entry.evictionChecked = true;
			// Off the delivery's path; said to whichever delivery's logger is the latest by then.
			const checked = entry;
			void evictionProblem(checked.client, connection).then((problem) => {
				if (problem) checked.onError(problem.message);
			});
		}
		return entry.client;
	}

	/** ioredis, loaded once; a failed load is tried again by the next delivery. */
	private async loadOnce(): Promise<RedisModule> {
		this.module ??= this.load().catch((error: Error) => {
			this.module = undefined;
			throw error;
		});
		return await this.module;
	}

	/**
	 * n8n deactivated this trigger (`<workflow id>:<node id>`): a client no other trigger used
	 * closes now, rather than when a later delivery finds it idle.
	 */
	release(user: string): void {
		for (const [key, entry] of this.clients) {
			entry.users.delete(user);
			if (entry.users.size === 0) {
				this.clients.delete(key);
				entry.client.disconnect();
			}
		}
	}

	/** Closes every client; the next `get` connects afresh. */
	async close(): Promise<void> {
		const all = [...this.clients.values()];
		this.clients.clear();
		await Promise.all(all.map(({ client }) => client.quit().catch(() => client.disconnect())));
	}

	private closeIdle(nowMs: number): void {
		for (const [key, entry] of this.clients)
			if (nowMs - entry.lastUsedMs > IDLE_CLOSE_MS) {
				this.clients.delete(key);
				entry.client.disconnect();
			}
	}
}

/**
 * Process-wide: n8n builds a new node and context for every request, and a connection per delivery
 * would cost a TCP (and TLS) handshake and AUTH each time.
 */
export const redisClients = new RedisClients();

async function ready(entry: Entry, connection: RedisConnection): Promise<void> {
	const { client } = entry;
	const where = describeConnection(connection);
	if (client.status === 'wait') void client.connect().catch(() => undefined);
	let cleanup = () => {};
	const connected = new Promise<void>((resolve, reject) => {
		const onReady = () => resolve();
		const onFail = (error: Error) =>
			reject(new DedupeUnavailableError(where, redact(error.message, connection)));
		const onEnd = () => reject(new DedupeUnavailableError(where, 'connection closed'));
		client.once('ready', onReady);
		client.once('error', onFail);
		client.once('end', onEnd);
		cleanup = () => {
			client.off('ready', onReady);
			client.off('error', onFail);
			client.off('end', onEnd);
		};
	});
	// Bounded even between reconnect attempts, which emit nothing while they wait.
	const timedOut = sleep(CONNECT_TIMEOUT_MS).then(() => {
		throw new DedupeUnavailableError(
			where,
			entry.lastError ?? `no answer within ${CONNECT_TIMEOUT_MS} ms`,
		);
	});
	const outcome = await Promise.race([connected, timedOut]).then(
		() => undefined,
		(error: Error) => error,
	);
	cleanup();
	if (outcome) throw outcome;
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
