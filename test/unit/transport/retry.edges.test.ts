/**
 * Retry-After and retry-loop edges: the value right at each bound, every month name, each time
 * field alone out of range, the RFC 850 century rule, and the reason a caller is told it gave up.
 */
import {
	parseHttpDate,
	parseRetryAfter,
	withRetry,
	type AttemptResult,
	type RetryFailure,
	type RetryPolicy,
} from '../../../transport/retry';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('parseRetryAfter edges', () => {
	it.each<[string, unknown, number | undefined]>([
		['numeric zero is no wait', 0, 0],
		['text zero is no wait', '0', 0],
		['a numeric value is seconds', 2.5, 2500],
		['two decimal digits', '1.25', 1250],
		['three decimal digits', '0.125', 125],
		['empty text', '', undefined],
		['64 characters (the longest accepted)', '0'.repeat(63) + '5', 5000],
		['64 characters inside surrounding spaces', ` ${'0'.repeat(63)}5 `, 5000],
		['65 characters', '0'.repeat(64) + '5', undefined],
	])('%s', (_name, value, expected) => {
		expect(parseRetryAfter(value, NOW)).toBe(expected);
	});
});

describe('parseHttpDate edges', () => {
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
		'%s reads as month %i in all three forms',
		(name, index) => {
			const expected = Date.UTC(2027, index, 1, 8, 9, 10);
			expect(parseHttpDate(`Fri, 01 ${name} 2027 08:09:10 GMT`, NOW)).toBe(expected);
			expect(parseHttpDate(`Friday, 01-${name.toUpperCase()}-27 08:09:10 GMT`, NOW)).toBe(expected);
			expect(parseHttpDate(`Fri ${name.toLowerCase()}  1 08:09:10 2027`, NOW)).toBe(expected);
		},
	);

	it.each<[string, string, number]>([
		['a year far ahead is the past century', 'Sunday, 06-Nov-94 08:49:37 GMT', 1994],
		['exactly 50 years ahead stays in this century', 'Sunday, 01-Jan-76 00:00:00 GMT', 2076],
		['51 years ahead is the past century', 'Sunday, 01-Jan-77 00:00:00 GMT', 1977],
		['this year', 'Sunday, 01-Jan-26 00:00:00 GMT', 2026],
	])('RFC 850 two-digit year: %s', (_name, text, year) => {
		const parsed = parseHttpDate(text, NOW);
		expect(parsed).toBeDefined();
		expect(new Date(parsed as number).getUTCFullYear()).toBe(year);
	});

	it('reads an asctime date with a space-padded day', () => {
		expect(parseHttpDate('Sun Nov  6 08:49:37 1994', NOW)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
	});

	it.each<[string, string, number | undefined]>([
		['23:59:59 is the last ordinary second', '23:59:59', Date.UTC(2027, 2, 1, 23, 59, 59)],
		['a leap second 23:59:60 reads as 23:59:59', '23:59:60', Date.UTC(2027, 2, 1, 23, 59, 59)],
		['hour 24 is rejected', '24:00:00', undefined],
		['minute 60 is rejected', '08:60:00', undefined],
		['minute 60 at the end of the day is rejected', '23:60:00', undefined],
		['second 61 is rejected', '08:09:61', undefined],
		['second 61 at the end of the day is rejected', '23:59:61', undefined],
	])('time of day: %s', (_name, time, expected) => {
		expect(parseHttpDate(`Mon, 01 Mar 2027 ${time} GMT`, NOW)).toBe(expected);
	});

	it.each<[string, string, number | undefined]>([
		['30 Feb is rejected', 'Tue, 30 Feb 2027 00:00:00 GMT', undefined],
		['29 Feb outside a leap year is rejected', 'Sun, 29 Feb 2027 00:00:00 GMT', undefined],
		['29 Feb in a leap year is accepted', 'Tue, 29 Feb 2028 00:00:00 GMT', Date.UTC(2028, 1, 29)],
		['31 Apr is rejected', 'Sat, 31 Apr 2027 00:00:00 GMT', undefined],
		['30 Apr is accepted', 'Fri, 30 Apr 2027 00:00:00 GMT', Date.UTC(2027, 3, 30)],
		['day 00 is rejected', 'Mon, 00 Mar 2027 00:00:00 GMT', undefined],
	])('calendar date: %s', (_name, text, expected) => {
		expect(parseHttpDate(text, NOW)).toBe(expected);
	});
});

describe('withRetry edges', () => {
	const policy: RetryPolicy = {
		maxAttempts: 5,
		baseDelayMs: 100,
		maxDelayMs: 300,
		maxRetryAfterMs: 1000,
		maxTotalWaitMs: 1500,
	};

	/** Runs attempts that fail with the given Retry-After values in turn, then succeed. */
	const run = async (retryAfters: Array<number | undefined>, retryable = true) => {
		const waits: number[] = [];
		const failures: RetryFailure[] = [];
		let calls = 0;
		const outcome = await withRetry<string>(
			policy,
			{ sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
			async (): Promise<AttemptResult<string>> =>
				calls < retryAfters.length
					? {
							ok: false,
							retryable,
							error: new Error(`attempt ${calls + 1}`),
							retryAfterMs: retryAfters[calls++],
						}
					: (calls++, { ok: true, value: 'done' }),
			(failure) => (failures.push(failure), new Error(failure.reason)),
		).catch((error: Error) => error);
		return { outcome, waits, failures, calls };
	};

	it('gives up on a non-retryable result with reason fatal, after one attempt', async () => {
		const { outcome, waits, failures, calls } = await run([undefined], false);
		expect(outcome).toBeInstanceOf(Error);
		expect(failures).toEqual([
			{ error: new Error('attempt 1'), attempts: 1, reason: 'fatal', retryAfterMs: undefined },
		]);
		expect(calls).toBe(1);
		expect(waits).toEqual([]);
	});

	it('waits a Retry-After exactly at maxRetryAfterMs', async () => {
		const { outcome, waits } = await run([1000]);
		expect(outcome).toBe('done');
		expect(waits).toEqual([1000]);
	});

	it('refuses a Retry-After one millisecond over maxRetryAfterMs', async () => {
		const { failures, waits } = await run([1001]);
		expect(failures.map((f) => f.reason)).toEqual(['retryAfterTooLong']);
		expect(waits).toEqual([]);
	});

	it('allows waits that add up to exactly maxTotalWaitMs', async () => {
		const { outcome, waits } = await run([750, 750]);
		expect(outcome).toBe('done');
		expect(waits).toEqual([750, 750]);
	});

	it('gives up with reason budget when the next wait would pass maxTotalWaitMs by 1 ms', async () => {
		const { failures, waits } = await run([750, 751]);
		expect(failures.map((f) => [f.reason, f.attempts])).toEqual([['budget', 2]]);
		expect(waits).toEqual([750]);
	});
});
