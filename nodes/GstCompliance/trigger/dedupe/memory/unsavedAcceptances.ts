/**
 * The built-in store's acceptances nothing has yet shown to be in the database, and the deliveries
 * waiting to answer them (memoryLedger.ts). n8n saves the static data a webhook changed right after
 * `webhook()` returns, unlocked, and tells the node nothing of it (n8nCompat.ts, 14.); what shows
 * the save landed:
 *
 * - a later production request of the workflow, whose static data n8n loads from the database
 *   before the node runs: its snapshot lists the acceptance (`seen`). In a burst the next
 *   deliveries are such requests; where none comes, the trigger makes one (`probe`: a request to
 *   its own Production URL, which its webhook answers 204 and nothing else);
 * - the event's execution starting in this process (`started`): n8n inserts the execution row
 *   before it runs it, and a restart runs that row again.
 *
 * A delivery with no such proof within `withinMs` is answered 503, so the service retries it; the
 * acceptance stays waiting, so the retry is answered 2xx only once it is shown saved too.
 */

/** How a delivery waits for proof that its acceptance is saved. */
export interface SaveProof {
	/** The longest it waits; then it is answered 503. */
	withinMs: number;
	/** How long it lets later deliveries or the execution show it before it probes. */
	probeAfterMs: number;
	/** The timer. */
	wait(ms: number): Promise<void>;
	/** A request whose static data n8n loads from the database (absent: none can be made). */
	probe?(): Promise<void>;
}

/** An acceptance waiting to be seen saved, and what releases the deliveries waiting on it. */
interface Waiting {
	seen: Promise<void>;
	release: () => void;
}

/** Acceptances waited for at most: the oldest go first (their deliveries answered meanwhile). */
const MAX_WAITING = 10_000;

export class UnsavedAcceptances {
	private readonly waiting = new Map<string, Waiting>();
	private probing = false;

	get size(): number {
		return this.waiting.size;
	}

	/** Whether a delivery of `eventId` would wait. */
	has(eventId: string): boolean {
		return this.waiting.has(eventId);
	}

	/** The acceptance of `eventId` was just written into this request's static data. */
	add(eventId: string): void {
		if (this.waiting.has(eventId)) return;
		if (this.waiting.size >= MAX_WAITING) this.release(this.waiting.keys().next().value!);
		let release!: () => void;
		const seen = new Promise<void>((resolve) => (release = resolve));
		this.waiting.set(eventId, { seen, release });
	}

	/** A request's freshly loaded snapshot lists these acceptances: they are in the database. */
	seen(eventIds: Iterable<string>): void {
		if (this.waiting.size === 0) return;
		for (const eventId of eventIds) this.release(eventId);
	}

	/** The event's execution started: its row exists. */
	started(eventId: string): void {
		this.release(eventId);
	}

	/**
	 * True when nothing is left to wait for (`eventId` seen already, or never accepted here); else
	 * true once it is seen or started, false after `proof.withinMs`. Probes meanwhile, one at a
	 * time for all that wait, while any does.
	 */
	whenSaved(eventId: string, proof: SaveProof): true | Promise<boolean> {
		const waiting = this.waiting.get(eventId);
		if (!waiting) return true;
		void this.probeWhileWaiting(proof);
		return Promise.race([
			waiting.seen.then(() => true),
			proof.wait(proof.withinMs).then(() => false),
		]);
	}

	private async probeWhileWaiting(proof: SaveProof): Promise<void> {
		if (!proof.probe || this.probing) return;
		this.probing = true;
		try {
			for (let waited = 0; waited < proof.withinMs; waited += proof.probeAfterMs) {
				await proof.wait(proof.probeAfterMs);
				if (this.waiting.size === 0) return;
				await proof.probe().catch(() => undefined);
			}
		} finally {
			this.probing = false;
		}
	}

	private release(eventId: string): void {
		const waiting = this.waiting.get(eventId);
		if (!waiting) return;
		this.waiting.delete(eventId);
		waiting.release();
	}
}
