/**
 * Why a Redis command or connection failed, read from what Redis or the client said: each cause
 * needs something different of the operator (storeErrors.ts words the advice), so each is its own.
 */
export type RedisFailure = 'full' | 'auth' | 'readOnly' | 'timeout' | 'unreachable' | 'other';

/** Redis's error prefixes and the client's (ioredis, Node's net and dns) words, by cause. */
const CAUSES: Array<[RedisFailure, RegExp]> = [
	// noeviction and memory full: every write is refused, reads still work.
	['full', /^OOM\b/],
	// A script's inner call refused by the ACL (Redis 7) is a refused permission too.
	['auth', /^(NOAUTH|WRONGPASS|NOPERM)\b|invalid (username-)?password|can't run this command/i],
	// A replica refuses writes: Host names one, or the client still talks to the old master after a
	// failover demoted it.
	['readOnly', /^READONLY\b/],
	['timeout', /timed out|ETIMEDOUT|no answer within/i],
	[
		'unreachable',
		/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|Connection is closed|connection closed|isn't writeable|CLUSTERDOWN|All nodes failed|refresh slots cache|MASTERDOWN|LOADING/i,
	],
];

export function redisFailure(reason: string): RedisFailure {
	return CAUSES.find(([, pattern]) => pattern.test(reason))?.[0] ?? 'other';
}
