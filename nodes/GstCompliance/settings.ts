import { sleep } from 'n8n-workflow';

import type { RetryDeps, RetryPolicy } from './http/retry';

/**
 * Process-wide knobs of the token client and the transport. Production uses the defaults; tests
 * swap the clock (the emulator's manual clock), shorten backoff bases and timeouts, and restore.
 * Module state on purpose: the credential's `authenticate` receives nothing but the credential
 * data and the request, so there is no other way to reach it.
 */
export interface GstSettings extends RetryDeps {
	/** Epoch milliseconds; decides token freshness. */
	now(): number;
	tokenRequestTimeoutMs: number;
	apiRequestTimeoutMs: number;
	tokenRetry: RetryPolicy;
	apiRetry: RetryPolicy;
	/**
	 * Re-mint when fewer than this many ms of a token's lifetime remain (60 s: docs/service-api.md,
	 * "Token lifetime and caching").
	 */
	refreshMarginMs: number;
	/**
	 * How many tokens (distinct token URL / client / secret) the cache keeps, more only while all are
	 * in use (credential/tokenCache.ts).
	 */
	tokenCacheSize: number;
	/**
	 * Longest pause of token requests after a 429 whose Retry-After was not waited out: later calls
	 * fail fast until then instead of asking the endpoint again, however long the Retry-After.
	 */
	maxTokenPauseMs: number;
	/**
	 * The longest a delivery accepted into the built-in store waits for proof that n8n saved its
	 * acceptance (a request's static data, or its execution starting) before it is answered 503,
	 * so the service retries (trigger/dedupe/memory/unsavedAcceptances.ts): n8n's save takes
	 * milliseconds, a second or more on a 2-core machine under a burst and other load.
	 */
	acceptanceSaveWithinMs: number;
	/**
	 * How long such a delivery lets later deliveries or its execution show its acceptance saved
	 * before the trigger makes n8n load the static data itself (trigger/ownUrl.ts, a probe): in a
	 * burst the next deliveries do within milliseconds.
	 */
	acceptanceProbeAfterMs: number;
}

export const settings: GstSettings = {
	now: () => Date.now(),
	sleep: async (ms) => await sleep(ms),
	random: () => Math.random(),
	tokenRequestTimeoutMs: 10_000,
	apiRequestTimeoutMs: 30_000,
	// docs/service-api.md gives no numbers for backoff or attempts; these keep one item under ~2
	// minutes.
	tokenRetry: {
		maxAttempts: 4,
		baseDelayMs: 500,
		maxDelayMs: 8_000,
		maxRetryAfterMs: 30_000,
		maxTotalWaitMs: 45_000,
	},
	apiRetry: {
		maxAttempts: 5,
		baseDelayMs: 500,
		maxDelayMs: 10_000,
		maxRetryAfterMs: 60_000,
		maxTotalWaitMs: 90_000,
	},
	refreshMarginMs: 60_000,
	// A practitioner has one client per GSTIN and files for hundreds to thousands of them from one
	// n8n; an entry is a token and its key, about 1.5 KB, so 10,000 entries stay near 15 MB.
	tokenCacheSize: 10_000,
	maxTokenPauseMs: 5 * 60_000,
	// Under the service's delivery timeout (not shown; the emulator waits 10 s), with room for the
	// wait before n8n runs the node. Past what n8n keeps up with, the save that proves an acceptance
	// waits in n8n's database queue for seconds (a burst of 100 at 25/s on 2 cores: up to 4.5 s).
	acceptanceSaveWithinMs: 8_000,
	acceptanceProbeAfterMs: 200,
};
