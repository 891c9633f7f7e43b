/**
 * How often the trigger says that deliveries are being refused for a reason the user must fix (a
 * wrong signing secret, a clock off, Redis down). Every refused delivery counts; the first of a
 * run is said at once, later ones at most once a minute with how many there were, so a service
 * retrying every few seconds neither floods the log nor goes unseen until it deactivates the
 * subscription after 50 failures. No n8n types: webhook.ts words and writes the line.
 */
import { makeRoom } from '../bounded';
import { isDue } from '../throttle';

/** Least time between two lines of one trigger and reason. */
export const SAY_EVERY_MS = 60_000;
/** Triggers × reasons tracked at most; the longest silent go first beyond it. */
const MAX_TRACKED = 1_000;

/** What to say now: how many refusals since the last line (this one included). */
export interface Refusals {
	count: number;
	/** When the last line was said; undefined for the first line of a run. */
	sinceMs?: number;
}

export class FailureLog {
	/** key → when it was last said, and refusals counted since. Map order: oldest said first. */
	private readonly runs = new Map<string, { saidMs: number; unsaid: number }>();

	constructor(private readonly everyMs = SAY_EVERY_MS) {}

	/** Counts one refusal under `key`; returns what to say now, or undefined to stay silent. */
	record(key: string, nowMs: number): Refusals | undefined {
		const run = this.runs.get(key);
		// A clock stepped back counts as time passed: the line is never held back for long.
		if (run && !isDue(run.saidMs, nowMs, this.everyMs)) {
			run.unsaid++;
			return undefined;
		}
		this.runs.delete(key);
		makeRoom(this.runs, MAX_TRACKED);
		this.runs.set(key, { saidMs: nowMs, unsaid: 0 });
		if (!run || run.unsaid === 0) return { count: 1 };
		return { count: run.unsaid + 1, sinceMs: run.saidMs };
	}
}
