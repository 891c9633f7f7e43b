/**
 * Why a Redis command or connection failed, read from what Redis or the client said: each cause
 * needs something different of the operator (storeRefusal.ts words the advice), so each is its own.
 */
export type RedisFailure =
	| 'full'
	| 'auth'
	| 'readOnly'
	| 'certificate'
	| 'timeout'
	| 'unreachable'
	| 'other';

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
		/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|Connection is closed|connection closed|isn't writeable|CLUSTERDOWN|All nodes failed|refresh slots cache|MASTERDOWN|LOADING|max retries per request/i,
	],
	// Node's TLS: the certificate does not name the host connected to, or no trusted CA signed it
	// (after the network causes, so a host name holding the word is still unreachable).
	['certificate', /ERR_TLS_CERT|altnames|certificate|self[- ]signed/i],
];

export function redisFailure(reason: string): RedisFailure {
	return CAUSES.find(([, pattern]) => pattern.test(reason))?.[0] ?? 'other';
}

/**
 * The commands the package runs on Redis, which a Redis user's ACL must grant: the store's own and
 * its scripts' inner ones (Redis checks those too), and what ioredis sends on connecting: INFO (its
 * ready check), CLIENT SETNAME, SELECT for a database other than 0, CLUSTER SLOTS and CLUSTER INFO
 * on a cluster. AUTH needs no grant (Redis lets every user run it). Pinned to what the package
 * sends by test/integration/nodes/GstCompliance/trigger/dedupe/redis/redisFailure.test.ts.
 */
export const REDIS_COMMANDS = {
	always: [
		'GET',
		'SET',
		'DEL',
		'EVAL',
		'TIME',
		'ZADD',
		'ZREM',
		'ZRANGEBYSCORE',
		'INFO',
		'WAIT',
		'PING',
		'CLIENT SETNAME',
	],
	database: ['SELECT'],
	cluster: ['CLUSTER SLOTS', 'CLUSTER INFO'],
} as const;

/** The commands as the advice and docs/deployments.md list them. */
export const REDIS_COMMAND_LIST = `${REDIS_COMMANDS.always.join(', ')}, ${REDIS_COMMANDS.database.join(', ')} (where Database is not 0), ${REDIS_COMMANDS.cluster.join(' and ')} (on a Redis Cluster)`;

/** What the operator does about each cause (storeRefusal.ts and the credential's Test say it). */
export const REDIS_ADVICE: Record<RedisFailure, string> = {
	full: "Redis is out of memory: it reached its maxmemory and, under noeviction, refuses new writes while keeping every remembered id. Raise Redis's maxmemory (or the instance size), free memory other keys hold, or shorten the trigger's Dedupe Window",
	auth: `Redis refused the credential: check the GST Compliance Dedupe Redis credential's User and Password, and that the user's ACL permission lets it run ${REDIS_COMMAND_LIST}; TIME runs inside the store's scripts, which Redis checks too`,
	readOnly:
		"Redis answered as a read-only replica: Host names a replica, or after a failover this connection still reaches the old master. Point the credential's Host at the current master (a provider's primary endpoint follows failovers); the client reconnects on this answer",
	certificate:
		"Redis's TLS certificate did not verify: it must name the host connected to and be signed by a trusted authority. For a Redis Cluster, list the nodes by the host names the certificate names (the provider's node or configuration endpoint names), not IP addresses; a self-signed certificate passes only with Disable TLS Verification, which leaves the connection open to interception",
	timeout:
		"Redis did not answer in time (2 s): it is overloaded, blocked by a slow command, or the network is slow. Check Redis's latency (SLOWLOG, LATENCY DOCTOR) and the network between n8n and Redis",
	unreachable: 'Check that Redis runs and that this n8n process reaches it (Host, Port, SSL)',
	other: "Check Redis's log for this error",
};
