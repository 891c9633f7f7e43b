/** Summary statistics and a reproducible PRNG for the benchmarks. */
// @ts-nocheck


export interface Summary {
	median: number;
	min: number;
	max: number;
}

export function summarize(values: readonly number[]): Summary {
	if (values.length === 0) throw new Error('no values to summarize');
	return { median: percentile(values, 50), min: Math.min(...values), max: Math.max(...values) };
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank];
}

/** mulberry32: the same pseudo-random schedule on every run, so runs differ only by timing. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
