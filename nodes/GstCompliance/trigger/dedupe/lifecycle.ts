/**
 * One lifecycle for every verified delivery, whichever store remembers the ids:
 *
 *   claim (a lease) → prepare the item → renew the lease → [n8n creates the execution] → commit
 *
 * - The claim is a lease, not a mark: while it runs, a redelivery of the same id is answered
 *   "busy" (409, the service retries later); when it lapses unrenewed, the id is free again.
 * - Anything that fails before the execution exists leaves the id free for the service's retry:
 *   a failed preparation releases the claim at once; a process lost meanwhile, or an execution n8n
 *   fails to create, lets the lease lapse (`startMs` after the preparation).
 * - The lease covers the whole preparation (`prepareMs`, the refetch's own time budget) plus the
 *   time n8n takes to create the execution (`startMs`), and is renewed for the latter once the
 *   item is ready, so a slow preparation never lets a second delivery in.
 * - Once the item is ready, the claim is held until n8n reads the answer: renewed every third of
 *   `startMs` for as long as n8n keeps the delivery waiting (its concurrency queue creates the
 *   execution, then waits for a free slot before it reads the answer), so no waiting time counts
 *   against `startMs`. It is given back at once when n8n answers the request without reading the
 *   answer (no execution starts), and left to lapse after `maxWaitMs` or when the process dies.
 * - `commit` runs once n8n has created the execution: the id is remembered for the whole window.
 *   A commit that fails is retried; if it still fails, `onUnprotected` says which id a
 *   redelivery could start again and until when.
 *
 * No n8n types: the trigger's webhook() is the glue (persistence.ts builds the store).
 */

/** A lease on one event id, held by one delivery. */
export interface Claim {
	readonly eventId: string;
	/** Tells this delivery's lease from any other's on the same id. */
	readonly token: string;
}

export type ClaimResult =
	| { kind: 'claimed'; claim: Claim }
	| { kind: 'duplicate' }
	| { kind: 'busy' };

/** What a dedupe store does for the lifecycle; each store keeps its own record of the ids. */
export interface ClaimStore {
	/**
	 * `claimed`: this delivery holds the id until `nowMs + leaseMs`. `duplicate`: a delivery of it
	 * started inside the window. `busy`: another delivery holds a lease on it.
	 */
	claim(eventId: string, nowMs: number, leaseMs: number): Promise<ClaimResult>;
	/**
	 * Extends the lease to `nowMs + leaseMs`; false when the lease was lost to another delivery or
	 * the id was committed meanwhile.
	 */
	renew(claim: Claim, nowMs: number, leaseMs: number): Promise<boolean>;
	/**
	 * Remembers the id for the window from `fromMs` (the first attempt's time), whoever holds a
	 * lease on it; `nowMs` is this attempt's time on the same clock.
	 */
	commit(claim: Claim, fromMs: number, nowMs?: number): Promise<void>;
	/** Gives the id back, if this claim still holds it. */
	release(claim: Claim): Promise<void>;
}

export interface LifecycleOptions<T> {
	now(): number;
	sleep(ms: number): Promise<void>;
	/** The longest the preparation takes (its own deadline); the lease covers it. */
	prepareMs: number;
	/** Time n8n is given to create the execution once the item is ready. */
	startMs: number;
	/** How long a committed id is remembered; said in the log when a commit fails. */
	windowMs: number;
	/** Builds the item the workflow starts with (output shape, refetch). */
	prepare(): Promise<T>;
	/** Waits between commit attempts; the first attempt is made at once. */
	commitRetryDelaysMs?: readonly number[];
	/** Waits between renewals of a claim n8n has not yet read the answer for (a real timer). */
	tick(ms: number): Promise<void>;
	/** The longest the claim is held for an answer n8n has not read; then it lapses. */
	maxWaitMs: number;
	/** n8n answered the request itself without reading the answer: no execution starts. */
	answeredWithoutStart(): boolean;
	/** The held claim could not be kept (a renewal failed, or the wait outlasted `maxWaitMs`). */
	onHoldProblem(eventId: string, problem: string): void;
	/** A release after a failed preparation failed too; the lease then lapses on its own. */
	onReleaseFailure(eventId: string, error: Error): void;
	/** Every commit attempt failed: a redelivery until `untilMs` would start the event again. */
	onUnprotected(eventId: string, untilMs: number, error: Error): void;
}

export type Admission<T> =
	| { kind: 'duplicate' }
	| { kind: 'busy' }
	/** The preparation failed; the claim was released, so the service's retry starts the event. */
	| { kind: 'failed'; error: Error }
	/**
	 * Start the workflow with `item`, then call `commit` once the execution exists. `commit` makes
	 * its first attempt synchronously (the single-process store writes static data before n8n
	 * saves it) and resolves when the id is remembered or every attempt failed; later calls share
	 * the first one's work.
	 */
	| { kind: 'start'; item: T; commit(): Promise<void> };

export const COMMIT_RETRY_DELAYS_MS: readonly number[] = [250, 1_000, 4_000];

export async function admit<T>(
	store: ClaimStore,
	eventId: string,
	options: LifecycleOptions<T>,
): Promise<Admission<T>> {
	const claimed = await store.claim(eventId, options.now(), options.prepareMs + options.startMs);
	if (claimed.kind !== 'claimed') return claimed;
	const { claim } = claimed;

	let item: T;
	try {
		item = await options.prepare();
	} catch (error) {
		await store
			.release(claim)
			.catch((releaseError: Error) => options.onReleaseFailure(eventId, releaseError));
		return { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
	}
	// The lease lapsed during an overlong preparation and another delivery holds the id (or
	// started it): that one starts the event, this one starts nothing.
	if (!(await store.renew(claim, options.now(), options.startMs))) return { kind: 'busy' };

	// n8n may read the answer more than once; the id is committed once.
	let committing: Promise<void> | undefined;
	const hold = holdClaim(store, claim, options);
	return {
		kind: 'start',
		item,
		commit: async () => {
			hold.stop();
			return await (committing ??= commitWithRetry(store, claim, options));
		},
	};
}

/** Renewals between the item being ready and n8n reading the answer. */
export const RENEWALS_PER_START = 3;

/**
 * Keeps the claim while n8n has not read the answer: a delivery waiting for n8n's concurrency
 * slot is still this delivery, and a redelivery meanwhile must be answered busy.
 */
function holdClaim<T>(store: ClaimStore, claim: Claim, options: LifecycleOptions<T>) {
	const heldFrom = options.now();
	const everyMs = options.startMs / RENEWALS_PER_START;
	let held = true;
	let failing = false;
	const loop = async () => {
		for (;;) {
			await options.tick(everyMs);
			if (!held) return;
			if (options.answeredWithoutStart()) {
				await store
					.release(claim)
					.catch((error: Error) => options.onReleaseFailure(claim.eventId, error));
				return;
			}
			const now = options.now();
			if (now - heldFrom >= options.maxWaitMs) {
				const minutes = Math.round((now - heldFrom) / 60_000);
				options.onHoldProblem(
					claim.eventId,
					`n8n has not started it after ${minutes} min; its claim now lapses`,
				);
				return;
			}
			const renewed = await store.renew(claim, now, options.startMs).then(
				(kept) => kept,
				(error: Error) => error,
			);
			if (!held) return; // committed meanwhile: a refused renewal says nothing
			if (renewed === false) {
				options.onHoldProblem(claim.eventId, 'another delivery took its lapsed claim');
				return;
			}
			if (renewed instanceof Error) {
				// Retried at the next tick; said once per run of failures.
				if (!failing)
					options.onHoldProblem(
						claim.eventId,
						`its claim could not be renewed (${renewed.message})`,
					);
				failing = true;
			} else failing = false;
		}
	};
	void loop();
	return {
		stop: () => {
			held = false;
		},
	};
}

async function commitWithRetry<T>(
	store: ClaimStore,
	claim: Claim,
	options: LifecycleOptions<T>,
): Promise<void> {
	const committedAt = options.now();
	const delays = options.commitRetryDelaysMs ?? COMMIT_RETRY_DELAYS_MS;
	let lastError: Error | undefined;
	for (let attempt = 0; attempt <= delays.length; attempt++) {
		if (attempt > 0) await options.sleep(delays[attempt - 1]);
		try {
			await store.commit(claim, committedAt, options.now());
			return;
		} catch (error) {
			lastError = error as Error;
		}
	}
	options.onUnprotected(claim.eventId, committedAt + options.windowMs, lastError as Error);
}
