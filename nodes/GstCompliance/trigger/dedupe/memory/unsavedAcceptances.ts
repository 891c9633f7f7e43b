/**
 * The built-in store's acceptances nothing has yet shown to be in the database, and the deliveries
 * waiting to answer them (persistence.ts). n8n saves the static data a webhook changed right after
 * `webhook()` returns, unlocked, and tells the node nothing of it; what shows it landed:
 *
 * - a later production request of the workflow, whose static data n8n loads from the database
 *   before the node runs: its snapshot lists the acceptance (`seen`);
 * - the event's execution starting in this process (`started`): n8n inserts the execution row
 *   before it runs it, and a restart runs that row again.
 *
 * A delivery waits for one of them, at most `withinMs` (the last of a burst behind a full
 * concurrency limit sees neither soon), then answers anyway: the save has had that long.
 */

/** An acceptance waiting to be seen saved, and what releases the deliveries waiting on it. */
interface Waiting {
	seen: Promise<void>;
	release: () => void;
}

export class UnsavedAcceptances {
	private readonly waiting = new Map<string, Waiting>();

	get size(): number {
		return this.waiting.size;
	}

	/** The acceptance of `eventId` was just written into this request's static data. */
	add(eventId: string): void {
		if (this.waiting.has(eventId)) return;
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
	 * resolves once it is seen or started, or after `withinMs` (`wait` is the timer).
	 */
	whenSaved(
		eventId: string,
		withinMs: number,
		wait: (ms: number) => Promise<void>,
	): true | Promise<void> {
		const waiting = this.waiting.get(eventId);
		if (!waiting) return true;
		return Promise.race([
			waiting.seen,
			wait(withinMs).then(() => {
				// Given up on: a copy of it is not made to wait again.
				if (this.waiting.get(eventId) === waiting) this.waiting.delete(eventId);
			}),
		]);
	}

	private release(eventId: string): void {
		const waiting = this.waiting.get(eventId);
		if (!waiting) return;
		this.waiting.delete(eventId);
		waiting.release();
	}
}
