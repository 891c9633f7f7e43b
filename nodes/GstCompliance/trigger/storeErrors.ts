/**
 * What a dedupe store that cannot be used means for a delivery (answered 5xx, so the service
 * retries) and for an execution (it fails, holding its item, to retry from the executions list):
 * one reading of each store error, with what the user must check.
 */
import { DedupeUnavailableError, RedisClientMissingError } from './dedupe/redis/redisConnection';
import type { RedisFailure } from './dedupe/redis/redisFailure';
import { RedisCredentialError } from './dedupe/redis/redisSettings';
import { AcceptedElsewhereError } from './dedupe/memory/persistence';

export interface StoreRefusal {
	status: 500 | 503;
	/** The rate-limit key of triggerLog.ts's refusals: one per cause, so each is said. */
	reason: `dedupe:${RedisFailure | 'noClient'}` | 'redisCredential' | 'acceptedElsewhere';
	/** The answer's `error`: fixed words, nothing of the server. */
	answer: string;
	/** What happened and what to check, for the log. */
	why: string;
}

/** What the operator does about each cause (redisFailure.ts). */
const ADVICE: Record<RedisFailure, string> = {
	full: "Redis is out of memory: it reached its maxmemory and, under noeviction, refuses new writes while keeping every remembered id. Raise Redis's maxmemory (or the instance size), free memory other keys hold, or shorten the trigger's Dedupe Window",
	auth: "Redis refused the credential: check the GST Compliance Dedupe Redis credential's User and Password, and that the user's ACL permission lets it run GET, SET, DEL, EVAL, TIME, ZADD, ZREM, ZRANGEBYSCORE, INFO, WAIT and PING (TIME runs inside the store's scripts, which Redis checks too)",
	readOnly:
		"Redis answered as a read-only replica: Host names a replica, or after a failover this connection still reaches the old master. Point the credential's Host at the current master (a provider's primary endpoint follows failovers); the client reconnects on this answer",
	timeout:
		"Redis did not answer in time (2 s): it is overloaded, blocked by a slow command, or the network is slow. Check Redis's latency (SLOWLOG, LATENCY DOCTOR) and the network between n8n and Redis",
	unreachable: 'Check that Redis runs and that this n8n process reaches it (Host, Port, SSL)',
	other: "Check Redis's log for this error",
};

/** The refusal for a store error; undefined for any other error. */
export function storeRefusal(error: unknown): StoreRefusal | undefined {
	if (error instanceof DedupeUnavailableError)
		return {
			status: 503,
			reason: `dedupe:${error.failure}`,
			answer: 'Dedupe store unavailable, retry later',
			why: `${error.message}. ${ADVICE[error.failure]}; the service retries the delivery`,
		};
	if (error instanceof RedisClientMissingError)
		return {
			status: 503,
			reason: 'dedupe:noClient',
			answer: 'Dedupe store unavailable, retry later',
			why: `${error.message}. Remove the Redis credential from the trigger, or run n8n with the ioredis module it ships`,
		};
	if (error instanceof AcceptedElsewhereError)
		return {
			status: 500,
			reason: 'acceptedElsewhere',
			answer: 'Trigger is not configured',
			why: error.message.replace(/\.$/, ''),
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
