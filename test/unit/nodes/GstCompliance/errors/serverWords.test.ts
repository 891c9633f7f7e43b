/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
import { SERVER_WORDS_MAX, serverWords } from '@/nodes/GstCompliance/errors/serverWords';

const SECRET = 'client-secret-value-123';

describe('serverWords', () => {
	it.each<[string, unknown, string]>([
		['message inside an error object (the emulator)', { error: { code: 'X', message: 'm' } }, 'm'],
		['detail inside an error object', { error: { detail: 'd' } }, 'd'],
		['message', { message: 'm' }, 'm'],
		['detail', { detail: 'd' }, 'd'],
		['message before detail', { message: 'm', detail: 'd' }, 'm'],
		[
			'an error object’s words before the outer ones',
			{ error: { message: 'in' }, message: 'out' },
			'in',
		],
		[
			'the OAuth pair',
			{ error: 'invalid_client', error_description: 'bad secret' },
			'invalid_client - bad secret',
		],
		['the OAuth code alone', { error: 'invalid_client' }, 'invalid_client'],
		['the OAuth description alone', { error_description: 'bad secret' }, 'bad secret'],
		[
			'a description beside an error object without words',
			{ error: { code: 7 }, error_description: 'unknown' },
			'unknown',
		],
		['message before the OAuth pair', { message: 'm', error: 'e', error_description: 'ed' }, 'm'],
		['a blank message skipped', { message: '  ', detail: 'd' }, 'd'],
		['a message that is not text skipped', { message: 42, detail: 'd' }, 'd'],
		['blank OAuth fields skipped', { error: '', error_description: 'ed' }, 'ed'],
		['plain text', 'Bad Gateway', 'Bad Gateway'],
		['plain text, whitespace tidied', '  Bad \n Gateway ', 'Bad Gateway'],
		['a JSON string', '"said as JSON"', 'said as JSON'],
		['JSON text of an error object', '{"error":{"message":"m"}}', 'm'],
	])('serverWords(%s) → the words', (_label, body, words) => {
		expect(serverWords(body, [])).toBe(words);
	});

	it.each<[string, unknown]>([
		['blank text', '   '],
		['an empty body', ''],
		['JSON null', 'null'],
		['null', null],
		['undefined', undefined],
		['a number', 42],
		['a JSON array', '["invalid_client"]'],
		['an array', ['invalid_client']],
		['an object without words', { code: 7 }],
		['fields that are empty or not text', { error: '', error_description: 42 }],
	])('serverWords(%s) → nothing', (_label, body) => {
		expect(serverWords(body, [])).toBe('');
	});

	it('serverWords of words that carry the client secret → redacted', () => {
		const said = serverWords({ error_description: `secret ${SECRET} is old` }, [SECRET]);
		expect(said).toBe('secret [redacted] is old');
		expect(serverWords(`echo ${SECRET}`, [SECRET])).toBe('echo [redacted]');
	});

	it(`serverWords of longer words → the first ${SERVER_WORDS_MAX} characters and an ellipsis`, () => {
		expect(serverWords('x'.repeat(SERVER_WORDS_MAX), [])).toBe('x'.repeat(SERVER_WORDS_MAX));
		expect(serverWords({ message: 'y'.repeat(SERVER_WORDS_MAX + 1) }, [])).toBe(
			`${'y'.repeat(SERVER_WORDS_MAX)}…`,
		);
	});
});
