/** The Redis credential's fields as a connection, and what Redis errors may say. */
import {
	connectionFromCredential,
	redact,
	RedisCredentialError,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/redisClient';

describe('connectionFromCredential: Host is a host name alone', () => {
	it.each([
		['redis://:hunter2-pass@10.0.0.5', /is a URL/],
		['rediss://user:hunter2-pass@cache.example.com:6380/0', /is a URL/],
		[':hunter2-pass@cache.example.com', /contains "@"/],
		['cache.example.com/0', /contains "\/"/],
		['cache.example.com hunter2-pass', /contains whitespace/],
	])('Host %j → refused, naming the field and what goes where, never the value', (host, why) => {
		let error: Error | undefined;
		try {
			connectionFromCredential({ host, password: '' });
		} catch (caught) {
			error = caught as Error;
		}
		expect(error).toBeInstanceOf(RedisCredentialError);
		expect(error?.message).toMatch(why);
		expect(error?.message).toMatch(/Redis credential's Host .* password in Password/);
		expect(error?.message).not.toContain('hunter2-pass');
		expect(error?.message).not.toContain(host);
	});

	it.each(['cache.example.com', '10.0.0.5', '::1', ' cache.example.com ', ''])(
		'Host %j → accepted (trimmed; empty is localhost)',
		(host) => {
			expect(connectionFromCredential({ host }).host).toBe(host.trim() || 'localhost');
		},
	);
});

describe('redact: Redis error texts carry no secret', () => {
	const connection = {
		host: 'h',
		port: 6379,
		database: 0,
		user: 'dedupe-user',
		password: 'S3cret-pw',
	};

	it('removes the user info of any URL in the text', () => {
		expect(
			redact('connect ECONNREFUSED redis://x:other-secret@h:6379/0 (retrying)', connection),
		).toBe('connect ECONNREFUSED redis://***@h:6379/0 (retrying)');
		expect(redact('rediss://only-user@h failed', connection)).toBe('rediss://***@h failed');
	});

	it("removes the credential's own user and password wherever they appear", () => {
		expect(redact('WRONGPASS dedupe-user S3cret-pw', connection)).toBe('WRONGPASS *** ***');
	});

	it('leaves a text without secrets as it is', () => {
		expect(redact('Connection is closed.', connection)).toBe('Connection is closed.');
	});
});
