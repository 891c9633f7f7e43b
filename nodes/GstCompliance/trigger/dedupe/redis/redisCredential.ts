/**
 * The trigger's use of the GST Compliance Dedupe Redis credential: the store it opens (one Redis
 * or a Redis Cluster, through the process's shared clients) and its Test button. Kept apart from the single-process store's static-data handling, which the Redis
 * store does not use: Redis is the only record of the ids.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { type LedgerScope } from '../keys';
import { redisClients } from './redisClients';
import { sleep } from 'n8n-workflow';

import {
	CONNECT_TIMEOUT_MS,
	createClient,
	DedupeUnavailableError,
	errorCause,
	loadRedisModule,
	type RedisClient,
	type RedisModule,
} from './redisConnection';
import {
	connectionFromCredential,
	describeConnection,
	redactConnectionSecrets,
	type RedisConnection,
} from './redisSettings';
import { evictionProblem, type EvictionProblem } from './redisEviction';
import { REDIS_ADVICE, redisFailure } from './redisFailure';
import { rehearseStore } from './redisRehearsal';
import { RedisDedupeStore } from './redisStore';

/** How long the Test waits for a connection (ioredis's own connect timeouts each attempt). */
const PROBE_CONNECT_MS = 3 * CONNECT_TIMEOUT_MS;

/**
 * Connects once with these settings, PINGs, reads the eviction policy, runs the store's commands
 * on a probe event (redisRehearsal.ts) and disconnects (the credential's Test button).
 */
export async function probeOnce(
	connection: RedisConnection,
	module?: RedisModule,
	rehearse: (client: RedisClient, connection: RedisConnection) => Promise<void> = rehearseStore,
): Promise<{ pong: string; eviction?: EvictionProblem }> {
	const redis = module ?? (await loadRedisModule());
	const client = createClient(redis, connection, () => null);
	// What went wrong before ready comes only with the 'error' event: a refused AUTH closes the
	// connection (connect() says only "Connection is closed"), a cluster's connect names no cause,
	// and after a refused SELECT ioredis becomes ready all the same, in database 0.
	let cause: string | undefined;
	let ready = false;
	client.on('error', (error: Error) => (cause = errorCause(error)));
	// Bounded: a cluster whose slots name nodes it cannot reach may never settle its connect().
	const connected = Promise.race([
		client.connect(),
		sleep(PROBE_CONNECT_MS).then(() => {
			throw new Error(cause ?? `no answer within ${PROBE_CONNECT_MS} ms`);
		}),
	]).then(() => {
		if (cause) throw new Error(cause);
		ready = true;
	});
	const answer = await connected
		.then(async () => await client.ping())
		.then(async (pong) => {
			const eviction = await evictionProblem(client, connection);
			if (pong === 'PONG') await rehearse(client, connection);
			return { pong, eviction };
		})
		.catch((error: Error) => ({ error }));
	client.disconnect();
	if (!('error' in answer)) return answer;
	let reason = answer.error instanceof DedupeUnavailableError ? undefined : answer.error.message;
	if (reason && !ready && cause && !/None of startup nodes/.test(cause)) reason = cause;
	// A cluster whose TLS handshake fails reports only a closed connection: one plain client to the
	// first node names the certificate's problem.
	if (reason && connection.clusterNodes && connection.ssl && redisFailure(reason) !== 'auth')
		reason = (await firstNodeTlsProblem(redis, connection)) ?? reason;
	if (!reason) throw answer.error;
	throw new DedupeUnavailableError(
		describeConnection(connection),
		redactConnectionSecrets(reason, connection),
	);
}

/** The TLS error of one standalone connection to a cluster's first node, if there is one. */
async function firstNodeTlsProblem(
	module: RedisModule,
	connection: RedisConnection,
): Promise<string | undefined> {
	const client = createClient(module, { ...connection, clusterNodes: undefined }, () => null);
	// The TLS error comes with the 'error' event; connect() fails with the closed connection.
	let failure: string | undefined;
	client.on('error', (error: Error) => (failure ??= error.message));
	await Promise.race([client.connect(), sleep(PROBE_CONNECT_MS)]).catch(() => undefined);
	client.disconnect();
	return failure && redisFailure(failure) === 'certificate' ? failure : undefined;
}

/**
 * The shared store for one trigger, from the credential's data; throws DedupeUnavailableError when
 * Redis does not answer. `user` names the trigger among the users of the shared client.
 */
export async function redisDedupeStore(
	credential: ICredentialDataDecryptedObject,
	store: { scope: LedgerScope; windowMs: number; user: string; warn: (message: string) => void },
): Promise<RedisDedupeStore> {
	const connection = connectionFromCredential(credential);
	const warn = (message: string) =>
		store.warn(`Redis dedupe store at ${describeConnection(connection)}: ${message}`);
	// Connected now, so a Redis that does not answer fails the open; each step holds the client.
	await redisClients.get(connection, warn, store.user);
	return new RedisDedupeStore(
		async (step) => await redisClients.use(connection, step, warn, store.user),
		connection,
		{ scope: store.scope, windowMs: store.windowMs, warn },
	);
}

/**
 * The credential's Test button: connect and PING with exactly these settings, and refuse a Redis
 * whose eviction policy may delete remembered ids or cannot be read (INFO forbidden or renamed).
 * n8n shows a passed Test only as "Connection tested successfully", so a note on an OK would never
 * be read: a policy nobody can check fails, as BullMQ, n8n's queue, warns of one, and without INFO
 * the store cannot see its replicas either (replicaWait.ts). n8n saves a credential whose Test
 * failed, so a user who knows the policy is noeviction can go on.
 */
export async function testRedisCredential(
	data: ICredentialDataDecryptedObject | undefined,
): Promise<INodeCredentialTestResult> {
	let connection: RedisConnection;
	try {
		connection = connectionFromCredential(data ?? {});
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	try {
		const { pong, eviction } = await probeOnce(connection);
		const where = describeConnection(connection);
		if (pong !== 'PONG')
			return { status: 'Error', message: `Unexpected answer to PING from ${where}` };
		if (eviction?.kind === 'evicting')
			return {
				status: 'Error',
				message: `Connected to Redis at ${where}, but its ${eviction.message}`,
			};
		if (eviction) {
			const grant = /\bNOPERM\b/.test(eviction.message)
				? " Let the credential's user run INFO, which the store also reads its replicas with."
				: '';
			return {
				status: 'Error',
				message: `Connected to Redis at ${where}, but ${eviction.message}${grant}`,
			};
		}
		return { status: 'OK', message: `Connected to Redis at ${where}` };
	} catch (error) {
		const failure = error instanceof DedupeUnavailableError ? error.failure : undefined;
		const advice = failure && failure !== 'other' ? `. ${REDIS_ADVICE[failure]}` : '';
		return { status: 'Error', message: `${(error as Error).message}${advice}` };
	}
}
