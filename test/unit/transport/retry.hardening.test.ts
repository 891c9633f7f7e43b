/** parseRetryAfter: every value a server can send reads as a finite, bounded wait or as nothing. */
import { parseRetryAfter, RETRY_AFTER_CEILING_MS } from '../../../transport/retry';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

const isBoundedWait = (value: number | undefined) =>
	value === undefined || (Number.isInteger(value) && value >= 0 && value <= RETRY_AFTER_CEILING_MS);

describe('parseRetryAfter bounds', () => {
	it.each<[string, unknown]>([
		['20 nines', '99999999999999999999'],
		['a day', '86400'],
		['a year', String(365 * 86400)],
		['decimal seconds', '12345678901234567890.5'],
		['huge number', 1e300],
		['date in year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
		['RFC 850 date', 'Friday, 31-Dec-99 23:59:59 GMT'],
		['asctime date', 'Fri Dec 31 23:59:59 9999'],
	])('%s is a finite wait no longer than the ceiling', (_name, value) => {
		const ms = parseRetryAfter(value, NOW);
		expect(ms).toBeDefined();
		expect(isBoundedWait(ms)).toBe(true);
	});

	it.each<[string, unknown]>([
		['NaN', NaN],
		['Infinity', Infinity],
		['-Infinity', -Infinity],
		['negative number', -5],
		['negative text', '-5'],
		['exponent', '1e3'],
		['hex', '0x10'],
		['trailing garbage', '12abc'],
		['a word', 'soon'],
		['a bare weekday and number', 'Mon 1'],
		['a year', 'year 2030'],
		['ISO with garbage', '2030-01-01T00:00:00Z; drop table'],
		['empty', '   '],
		['object', { seconds: 5 }],
		['very long digits', '9'.repeat(5000)],
		['impossible date', 'Mon, 31 Feb 2030 10:00:00 GMT'],
		['bad hour', 'Mon, 01 Jan 2030 25:00:00 GMT'],
	])('%s is not a Retry-After', (_name, value) => {
		expect(parseRetryAfter(value, NOW)).toBeUndefined();
	});

	it('reads the three HTTP-date forms and treats a past date as no wait', () => {
		const inAMinute = new Date(NOW + 60_000);
		expect(parseRetryAfter(inAMinute.toUTCString(), NOW)).toBe(60_000);
		expect(parseRetryAfter('Thursday, 15-Jan-26 12:01:00 GMT', NOW)).toBe(60_000);
		expect(parseRetryAfter('Thu Jan 15 12:01:00 2026', NOW)).toBe(60_000);
		expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', NOW)).toBe(0);
		expect(parseRetryAfter(' 7 ', NOW)).toBe(7000);
		expect(parseRetryAfter(['3', '9'], NOW)).toBe(3000);
	});
});
