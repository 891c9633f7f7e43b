/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * Bounded retries: `Retry-After` read as delay-seconds or one of the three HTTP-date forms, bounded
 * to a day; exponential backoff with jitter; and the retry loop's limits (attempts, the longest
 * `Retry-After`, the total wait) with the reason a caller is told it gave up.
 */
import {
	backoffDelay,
	parseHttpDate,
	parseRetryAfter,
	RETRY_AFTER_CEILING_MS,
	fatal,
	retryable,
	withRetry,
	type AttemptResult,
	type RetryFailure,
	type RetryPolicy,
} from '@/nodes/GstCompliance/http/retry';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('reads Retry-After as delay-seconds or an HTTP-date from now', () => {
	it.each<[string, unknown, number]>([
		['7', '7', 7000],
		['" 7 " (surrounding spaces)', ' 7 ', 7000],
		['numeric 0', 0, 0],
		['"0"', '0', 0],
		['numeric 2.5 (seconds)', 2.5, 2500],
		['"1.5" (a fraction)', '1.5', 1500],
		['"1.25" (two decimal digits)', '1.25', 1250],
		['"0.125" (three decimal digits)', '0.125', 125],
		['["3", "9"] (repeated header)', ['3', '9'], 3000],
		['64 characters (the longest accepted)', '0'.repeat(63) + '5', 5000],
		['64 characters inside surrounding spaces', ` ${'0'.repeat(63)}5 `, 5000],
		['an IMF-fixdate a minute ahead', new Date(NOW + 60_000).toUTCString(), 60_000],
		['an RFC 850 date a minute ahead', 'Thursday, 15-Jan-26 12:01:00 GMT', 60_000],
		['an asctime date a minute ahead', 'Thu Jan 15 12:01:00 2026', 60_000],
		['a past date', 'Thu, 01 Jan 2026 00:00:00 GMT', 0],
	])('parseRetryAfter(%s) → %i ms', (_name, value, expected) => {
		expect(parseRetryAfter(value, NOW)).toBe(expected);
	});
});

describe('ignores a Retry-After outside the grammar', () => {
	it.each<[string, unknown]>([
		['absent', undefined],
		['empty text', ''],
		['blank text', '   '],
		['65 characters', '0'.repeat(64) + '5'],
		['very long digits', '9'.repeat(5000)],
		['NaN', NaN],
		['Infinity', Infinity],
		['-Infinity', -Infinity],
		['a negative number', -5],
		['negative text', '-5'],
		['an exponent', '1e3'],
		['hex', '0x10'],
		['trailing garbage', '12abc'],
		['a word', 'soon'],
		['a bare weekday and number', 'Mon 1'],
		['a year', 'year 2030'],
		['ISO with garbage', '2030-01-01T00:00:00Z; drop table'],
		['an object', { seconds: 5 }],
		['a date that does not exist', 'Mon, 31 Feb 2030 10:00:00 GMT'],
	])('parseRetryAfter(%s) → undefined', (_name, value) => {
		expect(parseRetryAfter(value, NOW)).toBeUndefined();
	});
});

describe('bounds every Retry-After to a finite wait of at most a day', () => {
	it.each<[string, unknown]>([
		['20 nines', '99999999999999999999'],
		['a day', '86400'],
		['a year', String(365 * 86400)],
		['decimal seconds', '12345678901234567890.5'],
		['a huge number', 1e300],
		['a date in year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
		['an RFC 850 date', 'Friday, 31-Dec-99 23:59:59 GMT'],
		['an asctime date', 'Fri Dec 31 23:59:59 9999'],
	])('parseRetryAfter(%s) → an integer in 0..RETRY_AFTER_CEILING_MS', (_name, value) => {
		const ms = parseRetryAfter(value, NOW);
		expect(Number.isInteger(ms)).toBe(true);
		expect(ms).toBeGreaterThanOrEqual(0);
		expect(ms).toBeLessThanOrEqual(RETRY_AFTER_CEILING_MS);
	});
});

describe('reads the three HTTP-date forms, only of dates that exist', () => {
	const MONTH_NAMES = [
		'Jan',
		'Feb',
		'Mar',
		'Apr',
		'May',
		'Jun',
		'Jul',
		'Aug',
		'Sep',
		'Oct',
		'Nov',
		'Dec',
	];

	it.each(MONTH_NAMES.map((name, index) => [name, index] as const))(
		'parseHttpDate of %s in IMF-fixdate, RFC 850 (upper case) and asctime (lower case, space-padded day) → month %i',
		(name, index) => {
			const expected = Date.UTC(2027, index, 1, 8, 9, 10);
			expect(parseHttpDate(`Fri, 01 ${name} 2027 08:09:10 GMT`, NOW)).toBe(expected);
			expect(parseHttpDate(`Friday, 01-${name.toUpperCase()}-27 08:09:10 GMT`, NOW)).toBe(expected);
			expect(parseHttpDate(`Fri ${name.toLowerCase()}  1 08:09:10 2027`, NOW)).toBe(expected);
		},
	);

	it.each<[string, string, number]>([
		['a year far ahead: the past century', 'Sunday, 06-Nov-94 08:49:37 GMT', 1994],
		['exactly 50 years ahead: this century', 'Sunday, 01-Jan-76 00:00:00 GMT', 2076],
		['51 years ahead: the past century', 'Sunday, 01-Jan-77 00:00:00 GMT', 1977],
		['this year', 'Sunday, 01-Jan-26 00:00:00 GMT', 2026],
	])('parseHttpDate of an RFC 850 two-digit year, %s → %s', (_name, text, year) => {
		const parsed = parseHttpDate(text, NOW);
		expect(parsed).toBeDefined();
		expect(new Date(parsed as number).getUTCFullYear()).toBe(year);
	});

	it.each<[string, string, number | undefined]>([
		['23:59:59 (the last ordinary second)', '23:59:59', Date.UTC(2027, 2, 1, 23, 59, 59)],
		['23:59:60 (a leap second) → 23:59:59', '23:59:60', Date.UTC(2027, 2, 1, 23, 59, 59)],
		['hour 24', '24:00:00', undefined],
		['minute 60', '08:60:00', undefined],
		['minute 60 at the end of the day', '23:60:00', undefined],
		['second 61', '08:09:61', undefined],
		['second 61 at the end of the day', '23:59:61', undefined],
	])('parseHttpDate at %s → %s', (_name, time, expected) => {
		expect(parseHttpDate(`Mon, 01 Mar 2027 ${time} GMT`, NOW)).toBe(expected);
	});

	it.each<[string, string, number | undefined]>([
		['30 Feb', 'Tue, 30 Feb 2027 00:00:00 GMT', undefined],
		['29 Feb outside a leap year', 'Sun, 29 Feb 2027 00:00:00 GMT', undefined],
		['29 Feb in a leap year', 'Tue, 29 Feb 2028 00:00:00 GMT', Date.UTC(2028, 1, 29)],
		['31 Apr', 'Sat, 31 Apr 2027 00:00:00 GMT', undefined],
		['30 Apr', 'Fri, 30 Apr 2027 00:00:00 GMT', Date.UTC(2027, 3, 30)],
		['day 00', 'Mon, 00 Mar 2027 00:00:00 GMT', undefined],
	])('parseHttpDate of %s → %s', (_name, text, expected) => {
		expect(parseHttpDate(text, NOW)).toBe(expected);
	});
});

const policy: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 100,
	maxDelayMs: 300,
	maxRetryAfterMs: 1000,
	maxTotalWaitMs: 1500,
};

describe('backs off exponentially up to maxDelayMs, half of each wait fixed and half random', () => {
	it('backoffDelay for retries 1..4 at random 0, 0.5 and 1 → 100 ms doubling, capped at 300 ms', () => {
		const waits = (random: number) =>
			[1, 2, 3, 4].map((retry) => backoffDelay(policy, retry, () => random));
		expect(waits(0)).toEqual([50, 100, 150, 150]);
		expect(waits(0.5)).toEqual([75, 150, 225, 225]);
		expect(waits(1)).toEqual([100, 200, 300, 300]);
	});
});

/**
 * Runs withRetry over attempts that fail with the given Retry-After values in turn (all of them
 * when `retryAfters` is longer than maxAttempts), then succeed with 'done'.
 */
const run = async (retryAfters: Array<number | undefined>, worthRetrying = true) => {
	const waits: number[] = [];
	const failures: RetryFailure[] = [];
	let calls = 0;
	const outcome = await withRetry<string>(
		policy,
		{ sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
		async (): Promise<AttemptResult<string>> =>
			calls < retryAfters.length
				? worthRetrying
					? retryable(new Error(`attempt ${calls + 1}`), retryAfters[calls++])
					: fatal(new Error(`attempt ${++calls}`))
				: (calls++, { ok: true, value: 'done' }),
		(failure) => (failures.push(failure), new Error(failure.reason)),
	).catch((error: Error) => error);
	return { outcome, waits, failures, calls };
};

describe('gives up at once on a result that is not retryable', () => {
	it('withRetry of a fatal result → giveUp({ reason: fatal, attempts: 1 }) is thrown, no wait', async () => {
		const { outcome, waits, failures, calls } = await run([undefined], false);
		expect(outcome).toEqual(new Error('fatal'));
		expect(failures).toEqual([
			{ error: new Error('attempt 1'), attempts: 1, reason: 'fatal', retryAfterMs: undefined },
		]);
		expect(calls).toBe(1);
		expect(waits).toEqual([]);
	});
});

describe('stops after maxAttempts', () => {
	it('withRetry of attempts that always fail → exhausted after 4 attempts and 3 backoff waits', async () => {
		const { failures, waits, calls } = await run(Array<undefined>(10).fill(undefined));
		expect(failures.map((f) => [f.reason, f.attempts])).toEqual([['exhausted', 4]]);
		expect(calls).toBe(4);
		expect(waits).toEqual([75, 150, 225]);
	});
});

describe('waits exactly the Retry-After, up to maxRetryAfterMs', () => {
	it('withRetry after a Retry-After of exactly maxRetryAfterMs → waits it, then the value', async () => {
		const { outcome, waits } = await run([1000]);
		expect(outcome).toBe('done');
		expect(waits).toEqual([1000]);
	});

	it('withRetry after a Retry-After 1 ms over maxRetryAfterMs → retryAfterTooLong, no wait', async () => {
		const { failures, waits } = await run([1001]);
		expect(failures.map((f) => f.reason)).toEqual(['retryAfterTooLong']);
		expect(waits).toEqual([]);
	});
});

describe('keeps the waits of one operation within maxTotalWaitMs', () => {
	it('withRetry with waits adding up to exactly maxTotalWaitMs → waits both, then the value', async () => {
		const { outcome, waits } = await run([750, 750]);
		expect(outcome).toBe('done');
		expect(waits).toEqual([750, 750]);
	});

	it('withRetry whose next wait would pass maxTotalWaitMs by 1 ms → budget at attempt 2', async () => {
		const { failures, waits } = await run([750, 751]);
		expect(failures.map((f) => [f.reason, f.attempts])).toEqual([['budget', 2]]);
		expect(waits).toEqual([750]);
	});
});
