/**
 * The process-wide pool of Redis clients, one per connection settings, shared by every delivery
 * and execution that uses them. Each reads the eviction policy at every (re)connection, when a
 * cluster adds a node and every few minutes in use, and warns once per change when Redis may
 * evict (redisEviction.ts).
 */
import { sleep } from 'n8n-workflow';

import {
	CONNECT_TIMEOUT_MS,
	createClient,
	errorCause,
	DedupeUnavailableError,
	loadRedisModule,
	type RedisClient,
	type RedisModule,
} from './redisConnection';
import { describeConnection, redactConnectionSecrets, type RedisConnection } from './redisSettings';
import { evictionProblem } from './redisEviction';
import { settle } from '../../../settle';
import { isDue } from '../../../throttle';

interface Entry {
	/** The settings it connects with, as the pool's key. */
	key: string;
	client: RedisClient;
	/** Work running on it now (use): it is not closed until that ends. */
	inFlight: number;
	/**
	 * Where connection errors and the eviction warning go: the warn log of the latest delivery
	 * that asked for the client (the pool has no logger of its own).
	 */
	onError: (message: string) => void;
	/**
	 * The eviction policy is to be read again: at each (re)connection, when a cluster adds a node,
	 * and POLICY_LOOK_EVERY_MS after the last look (a CONFIG SET on a connected server).
	 */
	policyStale: boolean;
	policyLookedMs: number;
	/** The problem last said (undefined while the policy is fine): each change is said once. */
	policySaid?: string;
	lastError?: string;
	/** One wait for readiness shared by every delivery that arrives while connecting. */
	waiting?: Promise<void>;
	lastUsedMs: number;
	/**
	 * The triggers (workflow and node) that used it; when n8n deactivates the last, it closes, once
	 * no work runs on it.
	 */
	users: Set<string>;
}

/**
 * A client that nothing has used this long and that runs no work (e.g. one of settings before a
 * password change, or of a deactivated workflow) stops reconnecting, and the next delivery of any
 * settings closes it.
 */
const IDLE_CLOSE_MS = 10 * 60_000;
/** The eviction policy is read again at most this long after the last look, while in use. */
const POLICY_LOOK_EVERY_MS = 5 * 60_000;
/** Reconnects at most every 2 s: deliveries in between fail fast. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/** One connected client per connection settings, shared by every delivery that uses them. */
export class RedisClients {
	private readonly clients = new Map<string, Entry>();

	private module?: Promise<RedisModule>;

	constructor(private readonly load: () => Promise<RedisModule> = loadRedisModule) {}

	/**
	 * Runs `work` on the client for these settings, connected; the client is not closed while it
	 * runs, by any path (the trigger released, the idle sweep, the reconnect strategy). Throws
	 * DedupeUnavailableError when Redis does not answer within the connect timeout. `user` names the
	 * trigger (`<workflow id>:<node id>`) among the client's users; `onError` is where its connection
	 * errors and warnings go from now on.
	 */
	async use<T>(
		connection: RedisConnection,
		work: (client: RedisClient) => Promise<T>,
		onError: (message: string) => void = () => {},
		user = '',
	): Promise<T> {
		const module = await this.loadOnce();
		const entry = this.entryFor(connection, module, onError, user);
		entry.inFlight++;
		try {
			if (entry.client.status !== 'ready') {
				entry.waiting ??= ready(entry, connection).finally(() => (entry.waiting = undefined));
				await entry.waiting;
			}
			lookAtPolicy(entry, connection);
			return await work(entry.client);
		} finally {
			entry.inFlight--;
			entry.lastUsedMs = Date.now();
			// Released while this ran: closed now that nothing runs on it.
			if (entry.inFlight === 0 && entry.users.size === 0) this.closeEntry(entry);
		}
	}

	/** The client for these settings, connected (for a caller that holds no work on it). */
	async get(connection: RedisConnection, onError?: (message: string) => void, user = '') {
		return await this.use(connection, async (client) => client, onError, user);
	}

	/** The pool's entry for these settings, created (not connected) when there is none. */
	private entryFor(
		connection: RedisConnection,
		module: RedisModule,
		onError: (message: string) => void,
		user: string,
	): Entry {
		// The settings as the key: a changed password or node list gets a client of its own.
		const key = JSON.stringify(connection);
		const nowMs = Date.now();
		this.closeIdle(nowMs);
		let entry = this.clients.get(key);
		if (entry?.client.status === 'end') {
			// It gave up reconnecting while idle: connect afresh.
			this.clients.delete(key);
			entry = undefined;
		}
		if (!entry) {
			const created = {
				key,
				lastUsedMs: nowMs,
				onError,
				users: new Set<string>(),
				inFlight: 0,
				policyStale: true,
				policyLookedMs: nowMs,
			} as Entry;
			created.client = createClient(module, connection, (times) =>
				created.inFlight === 0 && Date.now() - created.lastUsedMs > IDLE_CLOSE_MS
					? null
					: Math.min(100 * times, MAX_RECONNECT_DELAY_MS),
			);
			created.client.on('error', (error: Error) => {
				const message = redactConnectionSecrets(errorCause(error), connection);
				// One log line per distinct failure, not one per reconnect attempt.
				if (message !== created.lastError) created.onError(message);
				created.lastError = message;
			});
			created.client.on('ready', () => {
				created.lastError = undefined;
				// Another server may answer now (a restart, a failover, a replaced host).
				created.policyStale = true;
			});
			// A cluster's new master holds slots of its own, under a policy of its own.
			created.client.on('+node', () => (created.policyStale = true));
			entry = created;
			this.clients.set(key, entry);
		}
		entry.lastUsedMs = nowMs;
		entry.onError = onError;
		entry.users.add(user);
		return entry;
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
		for (const entry of this.clients.values()) {
			entry.users.delete(user);
			// One with work running closes when the work ends (use).
			if (entry.users.size === 0 && entry.inFlight === 0) this.closeEntry(entry);
		}
	}

	/** Closes every client; the next `get` connects afresh. */
	async close(): Promise<void> {
		const all = [...this.clients.values()];
		this.clients.clear();
		await Promise.all(all.map(({ client }) => client.quit().catch(() => client.disconnect())));
	}

	private closeIdle(nowMs: number): void {
		for (const entry of this.clients.values())
			if (entry.inFlight === 0 && nowMs - entry.lastUsedMs > IDLE_CLOSE_MS) this.closeEntry(entry);
	}

	/** Takes the entry out of the pool and disconnects it, unless a newer one took its place. */
	private closeEntry(entry: Entry): void {
		if (this.clients.get(entry.key) === entry) this.clients.delete(entry.key);
		entry.client.disconnect();
	}
}

/**
 * Reads the eviction policy when it is due, off the delivery's path; a problem is said to the
 * latest delivery's logger once per change (said again after it was fixed and came back).
 */
function lookAtPolicy(entry: Entry, connection: RedisConnection): void {
	const nowMs = Date.now();
	const due = isDue(entry.policyLookedMs, nowMs, POLICY_LOOK_EVERY_MS);
	if (!entry.policyStale && !due) return;
	entry.policyStale = false;
	entry.policyLookedMs = nowMs;
	void evictionProblem(entry.client, connection).then((problem) => {
		if (problem && problem.message !== entry.policySaid) entry.onError(problem.message);
		entry.policySaid = problem?.message;
	});
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
			reject(
				new DedupeUnavailableError(where, redactConnectionSecrets(errorCause(error), connection)),
			);
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
	const outcome = await settle(Promise.race([connected, timedOut]));
	cleanup();
	if (!outcome.ok) throw outcome.error;
}
