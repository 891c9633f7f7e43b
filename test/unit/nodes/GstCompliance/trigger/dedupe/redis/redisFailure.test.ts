/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Why Redis failed, read from what Redis or the client said. */
import { redisFailure } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisFailure';

describe('redisFailure: the cause of a failure, from its words', () => {
	it.each([
		["OOM command not allowed when used memory > 'maxmemory'.", 'full'],
		['WRONGPASS invalid username-password pair or user is disabled.', 'auth'],
		['NOAUTH Authentication required.', 'auth'],
		["NOPERM User gst has no permissions to run the 'eval' command", 'auth'],
		['ERR invalid password', 'auth'],
		// Redis 7 checks a script's inner calls against the ACL (TIME inside ACCEPT and CHECK).
		[
			"ERR The user executing the script can't run this command or subcommand script: 1861ea4e, on @user_script:2.",
			'auth',
		],
		['ERR invalid username-password pair', 'auth'],
		["READONLY You can't write against a read only replica.", 'readOnly'],
		['Command timed out', 'timeout'],
		['connect ETIMEDOUT', 'timeout'],
		['no answer within 2000 ms', 'timeout'],
		['connect ECONNREFUSED 127.0.0.1:6379', 'unreachable'],
		['getaddrinfo ENOTFOUND cache', 'unreachable'],
		['getaddrinfo EAI_AGAIN cache', 'unreachable'],
		['connect EHOSTUNREACH 10.0.0.9:6379', 'unreachable'],
		['connect ENETUNREACH 10.0.0.9:6379', 'unreachable'],
		['read ECONNRESET', 'unreachable'],
		['write EPIPE', 'unreachable'],
		['Connection is closed.', 'unreachable'],
		['connection closed', 'unreachable'],
		["Stream isn't writeable and enableOfflineQueue options is false", 'unreachable'],
		['CLUSTERDOWN The cluster is down', 'unreachable'],
		['Failed to refresh slots cache.', 'unreachable'],
		['All nodes failed to connect', 'unreachable'],
		[
			"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
			'unreachable',
		],
		['LOADING Redis is loading the dataset in memory', 'unreachable'],
		// What a command gets when the connection closes under it (maxRetriesPerRequest: 0).
		[
			'Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
			'unreachable',
		],
		[
			"Hostname/IP does not match certificate's altnames: IP: 127.0.0.1 is not in the cert's list: ",
			'certificate',
		],
		['self-signed certificate in certificate chain', 'certificate'],
		['unable to verify the first certificate', 'certificate'],
		['ERR_TLS_CERT_ALTNAME_INVALID', 'certificate'],
		['getaddrinfo ENOTFOUND certificate.cache.internal', 'unreachable'],
		['ERR unknown command', 'other'],
		['', 'other'],
		// A cause's word inside a host name is not that cause: Redis's answers begin with it.
		['getaddrinfo ENOTFOUND OOM.cache.internal', 'unreachable'],
		['getaddrinfo ENOTFOUND READONLY.cache.internal', 'unreachable'],
		['getaddrinfo ENOTFOUND NOAUTH.cache.internal', 'unreachable'],
	])('redisFailure(%j) → %s', (reason, cause) => {
		expect(redisFailure(reason)).toBe(cause);
	});
});
