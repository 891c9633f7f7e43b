/**
 * Bounded retries with exponential backoff that honour `Retry-After`. One implementation for the
 * token client and the API transport; the caller classifies each attempt and words the final error.
 */

export interface RetryPolicy {
	/** Attempts in total, the first one included. */
	maxAttempts: number;
	/** Wait before the first retry; doubles per retry (with jitter). */
	baseDelayMs: number;
	/** Cap of one backoff wait. */
	maxDelayMs: number;
	/** Longest `Retry-After` we wait for; a longer one ends the retries at once. */
	maxRetryAfterMs: number;
	/** Budget of all waits of one operation together. */
	maxTotalWaitMs: number;
}

export interface RetryDeps {
	sleep(ms: number): Promise<void>;
	/** 0 <= random() < 1, for jitter. */
	random(): number;
}

export type AttemptResult<T> =
	| { ok: true; value: T }
	| { ok: false; error: Error; retryable: boolean; retryAfterMs?: number };

/** An attempt that failed for good: the error goes to the caller at once. */
export const fatal = <T>(error: Error): AttemptResult<T> => ({
	ok: false,
	retryable: false,
	error,
});

/** An attempt worth making again, after `retryAfterMs` when the server said how long. */
export const retryable = <T>(error: Error, retryAfterMs?: number): AttemptResult<T> => ({
	ok: false,
	retryable: true,
	retryAfterMs,
	error,
});

export interface RetryFailure {
	/** The last attempt's error. */
	error: Error;
	attempts: number;
	/**
	 * fatal: not retryable; exhausted: out of attempts; retryAfterTooLong / budget: the wait is over
	 * a bound.
	 */
	reason: 'fatal' | 'exhausted' | 'retryAfterTooLong' | 'budget';
	/** The server's last `Retry-After`, when it sent one. */
	retryAfterMs?: number;
}

/**
 * Backoff before retry number `retry` (1-based): half fixed, half random, so callers spread out.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
	const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
	return Math.round(exponential / 2 + (exponential / 2) * random());
}

/**
 * The longest wait a `Retry-After` reads as: a larger number or a later date reads as this. Keeps
 * every date computed from it finite (an absurd value would otherwise make `new Date()` invalid);
 * each caller's own bound (`RetryPolicy.maxRetryAfterMs`, the token cache's pause) is far below.
 */
export const RETRY_AFTER_CEILING_MS = 24 * 3600 * 1000;

/** Longer header values are not a delay or a date (an HTTP-date is 29 characters). */
const MAX_RETRY_AFTER_LENGTH = 64;

const boundedWait = (ms: number): number =>
	Math.min(RETRY_AFTER_CEILING_MS, Math.max(0, Math.round(ms)));

/**
 * `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP-date (RFC 9110 10.2.3), as
 * a finite integer in 0..RETRY_AFTER_CEILING_MS. Undefined when absent or not of that grammar
 * (negative, non-finite, garbage, impossible dates); a past date is no wait.
 */
export function parseRetryAfter(value: unknown, nowMs: number): number | undefined {
	const raw = Array.isArray(value) ? (value as unknown[])[0] : value;
	if (typeof raw === 'number') {
		return Number.isFinite(raw) && raw >= 0 ? boundedWait(raw * 1000) : undefined;
	}
	if (typeof raw !== 'string') return undefined;
	const text = raw.trim();
	if (text.length > MAX_RETRY_AFTER_LENGTH) return undefined;
	// Fractions are not in the grammar but harmless; some servers send them.
	if (/^\d+(\.\d+)?$/.test(text)) return boundedWait(Number(text) * 1000);
	const date = parseHttpDate(text, nowMs);
	if (date === undefined || !Number.isFinite(nowMs)) return undefined;
	return boundedWait(date - nowMs);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i');
/** Obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT */
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i');
/** Obsolete asctime: Sun Nov  6 08:49:37 1994 */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, 'i');

/**
 * Epoch ms of an HTTP-date in one of its three forms; undefined for anything else or an impossible
 * date.
 */
export function parseHttpDate(text: string, nowMs: number): number | undefined {
	let day: string, month: string, year: number, time: string[];
	let match = IMF_FIXDATE.exec(text);
	if (match) {
		[day, month] = [match[1], match[2]];
		year = Number(match[3]);
		time = match.slice(4, 7);
	} else if ((match = RFC_850.exec(text))) {
		[day, month] = [match[1], match[2]];
		// RFC 9110: a two-digit year more than 50 years ahead is in the past century.
		const thisYear = new Date(Number.isFinite(nowMs) ? nowMs : 0).getUTCFullYear();
		year = 2000 + Number(match[3]);
		if (year > thisYear + 50) year -= 100;
		time = match.slice(4, 7);
	} else if ((match = ASCTIME.exec(text))) {
		// The day is space-padded (' 6'), which Number reads as 6.
		[month, day] = [match[1], match[2]];
		time = match.slice(3, 6);
		year = Number(match[6]);
	} else {
		return undefined;
	}
	const monthIndex = MONTHS.indexOf(month.toLowerCase());
	const [hours, minutes, secs] = time.map(Number);
	const date = Number(day);
	if (hours > 23 || minutes > 59 || secs > 60) return undefined;
	const ms = Date.UTC(year, monthIndex, date, hours, minutes, Math.min(secs, 59));
	// Date.UTC rolls 31 Feb over into 3 Mar and 00 Mar back into February; the date must exist.
	if (new Date(ms).getUTCDate() !== date) return undefined;
	return ms;
}

export async function withRetry<T>(
	policy: RetryPolicy,
	deps: RetryDeps,
	attempt: (attemptNumber: number) => Promise<AttemptResult<T>>,
	giveUp: (failure: RetryFailure) => Error,
): Promise<T> {
	let waited = 0;
	for (let attemptNumber = 1; ; attemptNumber++) {
		const result = await attempt(attemptNumber);
		if (result.ok) return result.value;
		const { error, retryAfterMs } = result;
		const fail = (reason: RetryFailure['reason']) =>
			giveUp({ error, attempts: attemptNumber, reason, retryAfterMs });
		if (!result.retryable) throw fail('fatal');
		if (attemptNumber >= policy.maxAttempts) throw fail('exhausted');
		if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs)
			throw fail('retryAfterTooLong');
		const wait = retryAfterMs ?? backoffDelay(policy, attemptNumber, deps.random);
		if (waited + wait > policy.maxTotalWaitMs) throw fail('budget');
		waited += wait;
		await deps.sleep(wait);
	}
}
