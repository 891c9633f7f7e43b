/**
 * The trigger's use of the GST Compliance Dedupe Redis credential: the store it opens (one Redis
 * or a Redis Cluster, through the process's shared clients) and its Test button. Kept apart from the single-process store's static-data handling, which the Redis
 * store does not use: Redis is the only record of the ids.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { redisClients } from './redisClients';
import {
	createClient,
	DedupeUnavailableError,
	loadRedisModule,
	type RedisModule,
} from './redisConnection';
import {
	connectionFromCredential,
	describeConnection,
	redactConnectionSecrets,
	type RedisConnection,
} from './redisSettings';
import { evictionProblem, type EvictionProblem } from './redisEviction';
import { RedisDedupeStore } from './redisStore';

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
			redactConnectionSecrets(answer.error.message, connection),
		);
	return answer;
}

/**
 * The shared store for one trigger, from the credential's data; throws DedupeUnavailableError when
 * Redis does not answer. `user` names the trigger among the users of the shared client.
 */
export async function redisDedupeStore(
	credential: ICredentialDataDecryptedObject,
	store: { scope: string; windowMs: number; user: string; warn: (message: string) => void },
): Promise<RedisDedupeStore> {
	const connection = connectionFromCredential(credential);
	const warn = (message: string) =>
		store.warn(
			`GST Compliance Trigger: Redis dedupe store at ${describeConnection(connection)}: ${message}`,
		);
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
 * whose eviction policy may delete remembered ids. A policy that cannot be read (INFO forbidden)
 * passes with a note: the Redis may well be fine, and the user is told what to make sure of.
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
		if (eviction)
			return { status: 'OK', message: `Connected to Redis at ${where}, but ${eviction.message}` };
		return { status: 'OK', message: `Connected to Redis at ${where}` };
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
}
