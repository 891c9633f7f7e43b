/**
 * What a dedupe store that cannot be used means for a delivery (answered 5xx, so the service
 * retries) and for an execution (it fails, holding its item, to retry from the executions list):
 * one reading of each store error, with what the user must check.
 */
import { DedupeUnavailableError, RedisClientMissingError } from './redis/redisConnection';
import { REDIS_ADVICE, type RedisFailure } from './redis/redisFailure';
import { RedisCredentialError } from './redis/redisSettings';
import { AcceptedElsewhereError, SavedIdsUnreadError } from './memory/processMarkers';

/** The answer's `error` when the event cannot be recorded now: fixed words, the service retries. */
export const STORE_UNAVAILABLE = 'Dedupe store unavailable, retry later';

const NO_CLIENT_ADVICE =
	'Remove the Redis credential from the trigger, or run n8n with the ioredis module it ships';

export interface StoreRefusal {
	status: 500 | 503;
	/** The rate-limit key of triggerLog.ts's refusals: one per cause, so each is said. */
	reason:
		| `redis:${RedisFailure | 'noClient'}`
		| 'redisCredential'
		| 'acceptedElsewhere'
		| 'savedIdsUnread';
	/** The answer's `error`: fixed words, nothing of the server. */
	answer: string;
	/** What happened and what to check, for the log. */
	why: string;
	/** What to check beyond the error's own words (an execution's error shows those already). */
	advice?: string;
	/** The store may answer in a few seconds (a restart, a failover): worth trying again. */
	retriable: boolean;
}

/** The refusal for a store error; undefined for any other error. */
export function storeRefusal(error: unknown): StoreRefusal | undefined {
	if (error instanceof DedupeUnavailableError)
		return {
			status: 503,
			reason: `redis:${error.failure}`,
			answer: STORE_UNAVAILABLE,
			why: `${error.message}. ${REDIS_ADVICE[error.failure]}; the service retries the delivery`,
			advice: REDIS_ADVICE[error.failure],
			retriable: true,
		};
	if (error instanceof RedisClientMissingError)
		return {
			status: 503,
			reason: 'redis:noClient',
			answer: STORE_UNAVAILABLE,
			why: `${error.message}. ${NO_CLIENT_ADVICE}`,
			advice: NO_CLIENT_ADVICE,
			retriable: false,
		};
	if (error instanceof AcceptedElsewhereError)
		return {
			status: 500,
			reason: 'acceptedElsewhere',
			answer: 'Trigger is not configured',
			why: error.message.replace(/\.$/, ''),
			retriable: false,
		};
	if (error instanceof SavedIdsUnreadError)
		return {
			status: 500,
			reason: 'savedIdsUnread',
			answer: 'Trigger is not configured',
			why: error.message.replace(/\.$/, ''),
			retriable: false,
		};
	if (error instanceof RedisCredentialError)
		return {
			status: 500,
			reason: 'redisCredential',
			answer: 'Trigger is not configured',
			why: `${error.message} Every delivery is refused until it is fixed`,
			retriable: false,
		};
	return undefined;
}
