/**
 * The Redis client of the shared dedupe store: n8n's own `ioredis`, loaded only when a Redis
 * credential is attached. The package has no runtime dependencies: n8n (2.41: ioredis 5.3.2, the
 * client its queue runs on) adds its module folders to NODE_PATH at start-up in the main, worker
 * and webhook processes alike, so `require('ioredis')` from a community package resolves to n8n's
 * copy (see docs/deployments.md, "Redis client"). ioredis is a devDependency for its types only.
 *
 * One client per process and connection settings, reused by every delivery. Commands fail fast
 * instead of queueing while Redis is away (no offline queue, a short connect and command timeout),
 * so a delivery meets an outage with an error within ~2 s, which the trigger answers with a 5xx.
 */
import { createHash } from 'crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { sleep } from 'n8n-workflow';

export interface RedisConnection {
	host: string;
	port: number;
	database: number;
	user?: string;
	password?: string;
	ssl?: boolean;
	disableTlsVerification?: boolean;
}

/** Redis could not be reached or refused the command. The message names host and port only. */
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
 * The Redis credential's Host holds more than a host name (a URL, user info, a path). Refused at
 * the Test button and at runtime; the message never repeats the value (it may hold a password).
 */
export class RedisCredentialError extends Error {
	constructor(reason: string) {
		super(
			`The GST Compliance Dedupe Redis credential's Host ${reason}. Put the host name or IP ` +
				'address alone in Host, the password in Password, the user in User and the port in Port.',
		);
		this.name = 'RedisCredentialError';
	}
}

/** Why a Host value is not a host name alone, or undefined when it is. */
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
			"The GST Compliance Trigger's Redis dedupe store needs the 'ioredis' module, which n8n " +
				'ships ' +
				`and exposes to community packages; it could not be loaded in this n8n process ` +
				`(${reason}). ` +
				'Run the trigger in an n8n that includes ioredis, or detach the Redis credential to use ' +
				'the single-process store.',
		);
		this.name = 'RedisClientMissingError';
	}
}

const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 2_000;

type RedisConstructor = new (options: RedisOptions) => Redis;

let loaded: RedisConstructor | undefined;

/**
 * Loads ioredis once, or fails with an error that says what is missing: n8n always ships it, so
 * this fails only in an unusual install (e.g. a custom image that pruned n8n's dependencies). The
 * package compiles to CommonJS, so this `import()` is a `require` and resolves through NODE_PATH
 * (an ES-module import would not: ESM resolution ignores NODE_PATH).
 */
export async function loadRedisClient(
	load: () => Promise<unknown> = async () => await import('ioredis'),
): Promise<RedisConstructor> {
	if (loaded) return loaded;
	const result = await load().then(
		(module) => ({ module }),
		(error: NodeJS.ErrnoException) => ({ error }),
	);
	if ('error' in result)
		throw new RedisClientMissingError(result.error.code ?? result.error.message);
	const { module } = result as { module: { default?: unknown } };
	const candidate = module.default ?? module;
	if (typeof candidate !== 'function')
		throw new RedisClientMissingError('the module found exports no Redis client class');
	loaded = candidate as RedisConstructor;
	return loaded;
}

/** Host and port as shown in errors and logs (never the user or password). */
export function describeConnection(connection: RedisConnection): string {
	return `${connection.host}:${connection.port} (db ${connection.database})`;
}

/** The connection a credential describes; throws RedisCredentialError for a Host that is not one. */
export function connectionFromCredential(data: Record<string, unknown>): RedisConnection {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	const problem = hostProblem(text(data.host).trim());
	if (problem) throw new RedisCredentialError(problem);
	const number = (value: unknown, fallback: number) => {
		const n = typeof value === 'string' ? Number(value) : value;
		return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : fallback;
	};
	return {
		host: text(data.host).trim() || 'localhost',
		port: number(data.port, 6379),
		database: number(data.database, 0),
		user: text(data.user) || undefined,
		password: text(data.password) || undefined,
		ssl: data.ssl === true,
		disableTlsVerification: data.disableTlsVerification === true,
	};
}

interface Entry {
	client: Redis;
	lastError?: string;
	/** One wait for readiness shared by every delivery that arrives while connecting. */
	waiting?: Promise<void>;
	lastUsedMs: number;
}

/**
 * A client whose settings no delivery has asked for this long (e.g. before a password change) is
 * closed.
 */
const IDLE_CLOSE_MS = 10 * 60_000;

function closeIdle(nowMs: number): void {
	for (const [key, entry] of clients)
		if (nowMs - entry.lastUsedMs > IDLE_CLOSE_MS) {
			clients.delete(key);
			entry.client.disconnect();
		}
}

const clients = new Map<string, Entry>();

function clientOptions(connection: RedisConnection): RedisOptions {
	return {
		host: connection.host,
		port: connection.port,
		db: connection.database,
		username: connection.user,
		password: connection.password,
		tls: connection.ssl
			? { rejectUnauthorized: !connection.disableTlsVerification, servername: connection.host }
			: undefined,
		enableOfflineQueue: false,
		maxRetriesPerRequest: 0,
		connectTimeout: CONNECT_TIMEOUT_MS,
		commandTimeout: COMMAND_TIMEOUT_MS,
		connectionName: 'n8n-gst-compliance-dedupe',
	};
}

/** Connects once with these settings, PINGs and disconnects (the credential's Test button). */
export async function pingOnce(connection: RedisConnection): Promise<string> {
	const client = new (await loadRedisClient())({
		...clientOptions(connection),
		lazyConnect: true,
		retryStrategy: () => null,
	});
	const where = describeConnection(connection);
	client.on('error', () => undefined); // the awaited connect() below reports the failure
	const answer = await client.connect().then(
		async () => ({ pong: await client.ping() }),
		(error: Error) => ({ error }),
	);
	client.disconnect();
	if ('error' in answer)
		throw new DedupeUnavailableError(where, redact(answer.error.message, connection));
	return answer.pong;
}

function cacheKey(connection: RedisConnection): string {
	return createHash('sha256').update(JSON.stringify(connection)).digest('base64url');
}

/**
 * The process-wide client for these settings, connected. Throws DedupeUnavailableError when Redis
 * does not answer within the connect timeout.
 */
export async function redisClient(
	connection: RedisConnection,
	onError: (message: string) => void = () => {},
): Promise<Redis> {
	const key = cacheKey(connection);
	const nowMs = Date.now();
	closeIdle(nowMs);
	let entry = clients.get(key);
	if (!entry) {
		const client = new (await loadRedisClient())({
			...clientOptions(connection),
			lazyConnect: true,
			// Keep reconnecting in the background, at most every 2 s: deliveries in between fail fast.
			retryStrategy: (times: number) => Math.min(100 * times, 2_000),
		});
		const created: Entry = { client, lastUsedMs: nowMs };
		client.on('error', (error: Error) => {
			const message = redact(error.message, connection);
			// One log line per distinct failure, not one per reconnect attempt.
			if (message !== created.lastError) onError(message);
			created.lastError = message;
		});
		client.on('ready', () => (created.lastError = undefined));
		entry = created;
		clients.set(key, entry);
	}
	entry.lastUsedMs = nowMs;
	if (entry.client.status !== 'ready') {
		const current = entry;
		current.waiting ??= ready(current, connection).finally(() => (current.waiting = undefined));
		await current.waiting;
	}
	return entry.client;
}

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

/** Runs a command; any failure becomes a DedupeUnavailableError naming host and port. */
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

/**
 * Error texts from Redis never carry the password: the credential's user and password, and the
 * user info of any URL in the text (`redis://user:secret@host` → `redis://***@host`).
 */
export function redact(message: string, connection: RedisConnection): string {
	let out = message.replace(/([a-z][a-z\d+.-]*:\/\/)[^\s/@]*@/gi, '$1***@');
	for (const secret of [connection.password, connection.user])
		if (secret && secret.length >= 3) out = out.split(secret).join('***');
	return out;
}

/** Closes every client (tests; n8n ends the process otherwise). */
export async function closeRedisClients(): Promise<void> {
	const all = [...clients.values()];
	clients.clear();
	await Promise.all(all.map(({ client }) => client.quit().catch(() => client.disconnect())));
}
