import {
	DedupeUnavailableError,
	RedisClientMissingError,
} from '../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { RedisCredentialError } from '../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { storeRefusal } from '../../../../../nodes/GstCompliance/trigger/storeErrors';

describe('what a store error means for a delivery', () => {
	it('storeRefusal(Redis unreachable) → 503 "retry later", the rate-limit key "dedupe", what to check', () => {
		const refusal = storeRefusal(new DedupeUnavailableError('redis:6379', 'connect ECONNREFUSED'));
		expect(refusal).toEqual({
			status: 503,
			reason: 'dedupe',
			answer: 'Dedupe store unavailable, retry later',
			why: expect.stringMatching(
				/redis:6379.*Check that Redis runs.*Host, Port, User and Password; the service retries the delivery$/,
			),
		});
	});

	it('storeRefusal(no ioredis in this n8n) → 503, and to remove the credential or run an n8n that ships it', () => {
		expect(storeRefusal(new RedisClientMissingError('not found'))).toMatchObject({
			status: 503,
			reason: 'dedupe',
			why: expect.stringMatching(/Remove the Redis credential from the trigger/),
		});
	});

	it('storeRefusal(a credential that cannot work) → 500 "not configured", the rate-limit key "redisCredential"', () => {
		const error = new RedisCredentialError('Host', 'holds a URL');
		expect(storeRefusal(error)).toEqual({
			status: 500,
			reason: 'redisCredential',
			answer: 'Trigger is not configured',
			why: `${error.message} Every delivery is refused until it is fixed`,
		});
	});

	it('storeRefusal(any other error) → undefined', () => {
		expect(storeRefusal(new Error('boom'))).toBeUndefined();
		expect(storeRefusal('boom')).toBeUndefined();
	});
});
