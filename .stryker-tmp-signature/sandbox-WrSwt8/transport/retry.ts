/**
 * Bounded retries with exponential backoff that honour `Retry-After`. One implementation for the
 * token client and the API transport; the caller classifies each attempt and words the final error.
 */
// @ts-nocheck


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

export interface RetryFailure {
	/** The last attempt's error. */
	error: Error;
	attempts: number;
	/** fatal: not retryable; exhausted: out of attempts; retryAfterTooLong / budget: the wait is over a bound. */
	reason: 'fatal' | 'exhausted' | 'retryAfterTooLong' | 'budget';
	/** The server's last `Retry-After`, when it sent one. */
	retryAfterMs?: number;
}

/** Backoff before retry number `retry` (1-based): half fixed, half random, so callers spread out. */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
	const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
	return Math.round(exponential / 2 + (exponential / 2) * random());
}

/** `Retry-After` as milliseconds from `nowMs`: delta seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, nowMs: number): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (typeof raw === 'number') return Math.max(0, raw * 1000);
	if (typeof raw !== 'string' || raw.trim() === '') return undefined;
	const text = raw.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
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
