/**
 * Retry policy: Retry-After parsing, exponential backoff with jitter, bounded attempts and waits.
 */
import {
	backoffDelay,
	parseRetryAfter,
	withRetry,
	type RetryPolicy,
} from '../../../transport/retry';

describe('retry', () => {
	const policy: RetryPolicy = {
		maxAttempts: 4,
		baseDelayMs: 100,
		maxDelayMs: 300,
		maxRetryAfterMs: 1000,
		maxTotalWaitMs: 1500,
	};
	const deps = (waits: number[]) => ({
		sleep: async (ms: number) => void waits.push(ms),
		random: () => 0.5,
	});
	const fail = (retryAfterMs?: number) => ({
		ok: false as const,
		retryable: true,
		error: new Error('x'),
		retryAfterMs,
	});

	it('parses Retry-After seconds and HTTP dates', () => {
		expect(parseRetryAfter('7', 0)).toBe(7000);
		expect(parseRetryAfter('1.5', 0)).toBe(1500);
		expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
		expect(parseRetryAfter('soon', 0)).toBeUndefined();
		expect(parseRetryAfter(undefined, 0)).toBeUndefined();
	});

	it('backs off exponentially up to the cap, half of each wait fixed and half random', () => {
		const waits = (random: number) =>
			[1, 2, 3, 4].map((retry) => backoffDelay(policy, retry, () => random));
		// 100 ms doubling, capped at 300 ms.
		expect(waits(0)).toEqual([50, 100, 150, 150]);
		expect(waits(0.5)).toEqual([75, 150, 225, 225]);
		expect(waits(1)).toEqual([100, 200, 300, 300]);
	});

	it('stops after maxAttempts and reports the count', async () => {
		const waits: number[] = [];
		let calls = 0;
		const result = withRetry(
			policy,
			deps(waits),
			async () => (calls++, fail()),
			(f) => new Error(`${f.reason} ${f.attempts}`),
		);
		await expect(result).rejects.toThrow('exhausted 4');
		expect(calls).toBe(4);
		expect(waits).toHaveLength(3);
	});

	it('waits exactly Retry-After, refuses one over the bound and respects the total budget', async () => {
		const waits: number[] = [];
		let calls = 0;
		const value = await withRetry(
			policy,
			deps(waits),
			async () => (++calls < 2 ? fail(800) : { ok: true as const, value: 1 }),
			() => new Error(),
		);
		expect(value).toBe(1);
		expect(waits).toEqual([800]);

		await expect(
			withRetry(
				policy,
				deps([]),
				async () => fail(5000),
				(f) => new Error(f.reason),
			),
		).rejects.toThrow('retryAfterTooLong');
		await expect(
			withRetry(
				policy,
				deps([]),
				async () => fail(900),
				(f) => new Error(`${f.reason} ${f.attempts}`),
			),
		).rejects.toThrow('budget 2');
	});

	it('does not retry a fatal result', async () => {
		let calls = 0;
		const result = withRetry(
			policy,
			deps([]),
			async () => (calls++, { ok: false as const, retryable: false, error: new Error('no') }),
			(f) => f.error,
		);
		await expect(result).rejects.toThrow('no');
		expect(calls).toBe(1);
	});
});
