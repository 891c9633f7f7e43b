/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import {
	DedupeUnavailableError,
	RedisClientMissingError,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { RedisCredentialError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import {
	AcceptedElsewhereError,
	SavedIdsUnreadError,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/processMarkers';
import { storeRefusal } from '@/nodes/GstCompliance/trigger/dedupe/storeRefusal';

describe('what a store error means for a delivery', () => {
	it('storeRefusal(Redis unreachable) → 503 "retry later", the rate-limit key "redis:unreachable", what to check', () => {
		const refusal = storeRefusal(new DedupeUnavailableError('redis:6379', 'connect ECONNREFUSED'));
		expect(refusal).toEqual({
			status: 503,
			reason: 'redis:unreachable',
			answer: 'Dedupe store unavailable, retry later',
			retriable: true,
			why: expect.stringMatching(
				/redis:6379.*Check that Redis runs and that this n8n process reaches it \(Host, Port, SSL\); the service retries the delivery$/,
			),
			advice: 'Check that Redis runs and that this n8n process reaches it (Host, Port, SSL)',
		});
	});

	// Each cause: its own words, its own advice, its own rate-limit key (so a second cause within
	// the minute is said too); none but a refused login points at the password.
	const causes = [
		{
			kind: 'full',
			reason: "OOM command not allowed when used memory > 'maxmemory'.",
			says: /Redis is out of memory.*maxmemory/,
		},
		{
			kind: 'auth',
			reason: 'WRONGPASS invalid username-password pair or user is disabled.',
			says: /refused the credential.*User and Password/,
		},
		{ kind: 'auth', reason: 'NOAUTH Authentication required.', says: /User and Password/ },
		{ kind: 'auth', reason: 'ERR invalid password', says: /User and Password/ }, // Redis before 6
		{
			kind: 'auth',
			reason: "NOPERM User gst has no permissions to run the 'eval' command",
			says: /permission.*ACL/,
		},
		{
			kind: 'auth',
			reason:
				"ERR The user executing the script can't run this command or subcommand script: 1861ea4e, on @user_script:2.",
			// Every command the store runs, inside its scripts included.
			says: /ACL permission lets it run GET, SET, DEL, EVAL, TIME, ZADD, ZREM, ZRANGEBYSCORE, INFO, WAIT, PING/,
		},
		{
			kind: 'readOnly',
			reason: "READONLY You can't write against a read only replica.",
			says: /read-only replica.*failover.*current master/,
		},
		{
			kind: 'certificate',
			reason:
				"Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list: ",
			says: /certificate did not verify.*must name the host connected to.*host names the certificate names.*Disable TLS Verification/,
		},
		{ kind: 'timeout', reason: 'Command timed out', says: /did not answer in time.*latency/ },
		{ kind: 'timeout', reason: 'no answer within 2000 ms', says: /did not answer in time/ },
		{
			kind: 'unreachable',
			reason: 'connect ECONNREFUSED 10.0.0.1:6379',
			says: /Check that Redis runs/,
		},
		{ kind: 'unreachable', reason: 'getaddrinfo ENOTFOUND cache', says: /Check that Redis runs/ },
		{ kind: 'unreachable', reason: 'Connection is closed.', says: /Check that Redis runs/ },
		// A cause's word inside a host name is not that cause: Redis's own answers begin with it.
		{
			kind: 'unreachable',
			reason: 'getaddrinfo ENOTFOUND OOM.cache.internal',
			says: /Check that Redis runs/,
		},
		{
			kind: 'unreachable',
			reason: 'getaddrinfo ENOTFOUND READONLY.cache.internal',
			says: /Check that Redis runs/,
		},
		{
			kind: 'unreachable',
			reason: 'getaddrinfo ENOTFOUND NOPERM.cache.internal',
			says: /Check that Redis runs/,
		},
		{ kind: 'other', reason: 'ERR unknown command', says: /Redis's log/ },
	] as const;
	it.each(causes)(
		'storeRefusal(Redis says "$reason") → the key dedupe:$kind and its own advice',
		({ kind, reason, says }) => {
			const refusal = storeRefusal(new DedupeUnavailableError('redis:6379', reason));
			expect(refusal).toMatchObject({ status: 503, reason: `redis:${kind}`, retriable: true });
			expect(refusal?.why).toMatch(says);
			expect(refusal?.why).toContain(reason);
			if (kind !== 'auth') expect(refusal?.why).not.toMatch(/Password/);
		},
	);

	it('storeRefusal(no ioredis in this n8n) → 503, and to remove the credential or run an n8n that ships it', () => {
		expect(storeRefusal(new RedisClientMissingError('not found'))).toMatchObject({
			status: 503,
			reason: 'redis:noClient',
			why: expect.stringMatching(/Remove the Redis credential from the trigger/),
			// Waiting does not bring the module: an execution's start is not tried again.
			retriable: false,
		});
	});

	it('storeRefusal(a credential that cannot work) → 500 "not configured", the rate-limit key "redisCredential"', () => {
		const error = new RedisCredentialError('Host', 'holds a URL');
		expect(storeRefusal(error)).toEqual({
			status: 500,
			reason: 'redisCredential',
			answer: 'Trigger is not configured',
			retriable: false,
			why: `${error.message} Every delivery is refused until it is fixed`,
		});
	});

	it('storeRefusal(an execution of a delivery another running process accepted) → 500 "not configured", the key "acceptedElsewhere", the credential to attach', () => {
		const error = new AcceptedElsewhereError();
		expect(storeRefusal(error)).toEqual({
			status: 500,
			reason: 'acceptedElsewhere',
			answer: 'Trigger is not configured',
			retriable: false,
			why: error.message.slice(0, -1),
		});
		expect(error.message).toMatch(/Attach a GST Compliance Dedupe Redis credential.*\.$/);
	});

	it('storeRefusal(an execution run again after a restart before the saved ids could be read) → the key "savedIdsUnread", not retriable in place, naming WEBHOOK_URL', () => {
		const error = new SavedIdsUnreadError();
		expect(storeRefusal(error)).toEqual({
			status: 500,
			reason: 'savedIdsUnread',
			answer: 'Trigger is not configured',
			retriable: false,
			why: error.message.slice(0, -1),
		});
		expect(error.message).toMatch(/cannot tell whether its event already started.*WEBHOOK_URL\.$/);
	});

	it('storeRefusal(any other error) → undefined', () => {
		expect(storeRefusal(new Error('boom'))).toBeUndefined();
		expect(storeRefusal('boom')).toBeUndefined();
	});
});
