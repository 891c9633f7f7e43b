/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Run settings of the property tests. `npm test` runs each property a bounded number of times with
 * a fixed seed, so CI is reproducible; `npm run test:props` runs many more with a fresh seed (both
 * overridable: FC_NUM_RUNS, FC_SEED). fast-check prints the seed and the shrunk counterexample of a
 * failure; `FC_SEED=<seed> npm run test:props` replays it.
 */
import type { Parameters } from 'fast-check';

const LONG_RUN = process.env.npm_lifecycle_event === 'test:props';
const FIXED_SEED = 20261122;

export function fcParameters<T>(defaultRuns: number): Parameters<T> {
	const runs = Number(process.env.FC_NUM_RUNS);
	const seed = Number(process.env.FC_SEED);
	return {
		numRuns: Number.isInteger(runs) && runs > 0 ? runs : LONG_RUN ? defaultRuns * 20 : defaultRuns,
		seed: Number.isInteger(seed) ? seed : LONG_RUN ? undefined : FIXED_SEED,
		verbose: 1,
	};
}

/** A jest timeout that grows with the number of runs (no assertion on time is made). */
export function timeoutFor(defaultRuns: number, perRunMs: number): number {
	const { numRuns } = fcParameters(defaultRuns);
	return Math.max(30_000, (numRuns ?? defaultRuns) * perRunMs);
}
