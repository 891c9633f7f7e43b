/**
 * The trigger's use of the GST Compliance Dedupe Redis credential: whether one is attached, the
 * store it opens (one Redis or a Redis Cluster, through the process's shared clients), and its
 * Test button. Kept apart from the single-process store's static-data handling, which the Redis
 * store does not use: Redis is the only record of the ids.
 */
import type {
	ICredentialDataDecryptedObject,
	INodeCredentialTestResult,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL } from '../../../transport/credentialNames';
import { cachedCredentials } from '../credentialCache';
import {
	connectionFromCredential,
	describeConnection,
	pingOnce,
	redisClients,
	type RedisConnection,
} from './redisConnection';
import { RedisDedupeStore } from './redisStore';

export function hasRedisCredential(context: IWebhookFunctions): boolean {
	return !!context.getNode().credentials?.[CREDENTIAL.redis];
}

/** The shared store for this trigger; throws DedupeUnavailableError when Redis does not answer. */
export async function redisDedupeStore(
	context: IWebhookFunctions,
	scope: string,
	windowMs: number,
): Promise<RedisDedupeStore> {
	const connection = connectionFromCredential(await cachedCredentials(context, CREDENTIAL.redis));
	const client = await redisClients.get(connection, (message) =>
		context.logger.warn(
			`GST Compliance Trigger: Redis dedupe store at ${describeConnection(connection)}: ${message}`,
		),
	);
	return new RedisDedupeStore(client, connection, { scope, windowMs });
}

/** The credential's Test button: connect and PING with exactly these settings. */
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
		const pong = await pingOnce(connection);
		return pong === 'PONG'
			? { status: 'OK', message: `Connected to Redis at ${describeConnection(connection)}` }
			: {
					status: 'Error',
					message: `Unexpected answer to PING from ${describeConnection(connection)}`,
				};
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
}
