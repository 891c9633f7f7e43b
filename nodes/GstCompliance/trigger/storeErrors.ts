/**
 * What a dedupe store that cannot be used means for a delivery (answered 5xx, so the service
 * retries) and for an execution (it fails, holding its item, to retry from the executions list):
 * one reading of each store error, with what the user must check.
 */
import { DedupeUnavailableError, RedisClientMissingError } from './dedupe/redis/redisConnection';
import { RedisCredentialError } from './dedupe/redis/redisSettings';

export interface StoreRefusal {
	status: 500 | 503;
	/** The rate-limit key of triggerLog.ts's refusals. */
	reason: 'dedupe' | 'redisCredential';
	/** The answer's `error`: fixed words, nothing of the server. */
	answer: string;
	/** What happened and what to check, for the log. */
	why: string;
}

/** The refusal for a store error; undefined for any other error. */
export function storeRefusal(error: unknown): StoreRefusal | undefined {
	if (error instanceof DedupeUnavailableError)
		return {
			status: 503,
			reason: 'dedupe',
			answer: 'Dedupe store unavailable, retry later',
			why: `${error.message}. Check that Redis runs and that this n8n process reaches it, and the GST Compliance Dedupe Redis credential's Host, Port, User and Password; the service retries the delivery`,
		};
	if (error instanceof RedisClientMissingError)
		return {
			status: 503,
			reason: 'dedupe',
			answer: 'Dedupe store unavailable, retry later',
			why: `${error.message}. Remove the Redis credential from the trigger, or run n8n with the ioredis module it ships`,
		};
	if (error instanceof RedisCredentialError)
		return {
			status: 500,
			reason: 'redisCredential',
			answer: 'Trigger is not configured',
			why: `${error.message} Every delivery is refused until it is fixed`,
		};
	return undefined;
}
