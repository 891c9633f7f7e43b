/**
 * A bounded load generator for localhost: at most `concurrency` tasks in flight, `count` tasks in
 * all, and a hard deadline after which no new task starts. Used by the reliability suite and by
 * `npm run bench` (items 5–6).
 */
export interface LoadResult<T> {
	results: Array<{ value?: T; error?: Error }>;
	/** Tasks not started because the deadline passed. */
	notStarted: number;
	elapsedMs: number;
}

export async function runBounded<T>(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<T>,
	deadlineMs = 120_000,
): Promise<LoadResult<T>> {
	const started = Date.now();
	const results: LoadResult<T>['results'] = [];
	let next = 0;
	let notStarted = 0;
	const worker = async (): Promise<void> => {
		while (next < count) {
			const index = next++;
			if (Date.now() - started > deadlineMs) {
				notStarted++;
				continue;
			}
			try {
				results[index] = { value: await task(index) };
			} catch (error) {
				results[index] = { error: error as Error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
	return { results, notStarted, elapsedMs: Date.now() - started };
}

/** Deterministic shuffle (Fisher–Yates with a seeded LCG), so a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
	const out = [...items];
	let state = seed >>> 0;
	for (let i = out.length - 1; i > 0; i--) {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		const j = state % (i + 1);
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}
