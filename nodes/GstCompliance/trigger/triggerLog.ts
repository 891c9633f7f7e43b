/**
 * What the trigger tells the user in n8n's log, in one voice (`logLine`: every line names the
 * trigger and its workflow the same way, so one search finds them all): a note on its settings
 * once per process, and why deliveries are refused, the first of a run at once and then at most
 * once a minute (failureLog.ts). Process-wide because n8n gives a webhook no state of its own
 * between requests.
 */
import { triggerRunKey } from './dedupe/keys';
import { FailureLog } from './failureLog';
import { makeRoom } from '../bounded';

/** The trigger a log line names. */
export interface NamedTrigger {
	workflowId: string;
	nodeName: string;
}

/** The trigger a log line names, and where its lines go (context.ts: through `logLine`). */
export interface LoggedTrigger extends NamedTrigger {
	nodeId: string;
	warn(message: string): void;
}

/** A line of the trigger's in n8n's log: the only place its prefix is written. */
export function logLine(trigger: NamedTrigger, message: string): string {
	return `GST Compliance Trigger "${trigger.nodeName}" (workflow ${trigger.workflowId}): ${message}`;
}

/** Notes already logged in this process: a clamped option is said once, not on every delivery. */
const loggedNotes = new Set<string>();
/** Notes remembered as said (bounded.ts). */
const NOTES_KEPT = 1_000;

export function logOnce(trigger: LoggedTrigger, notes: string[]): void {
	for (const note of notes) {
		const key = triggerRunKey(trigger, note);
		if (loggedNotes.has(key)) continue;
		makeRoom(loggedNotes, NOTES_KEPT);
		loggedNotes.add(key);
		trigger.warn(note);
	}
}

/** Refusals the user must act on, counted per trigger and reason. */
const refusalRuns = new FailureLog();

/** Says why deliveries are refused: the first of a run at once, then at most once a minute. */
export function sayRefused(
	trigger: LoggedTrigger,
	status: number,
	reason: string,
	why: string,
): void {
	const said = refusalRuns.record(triggerRunKey(trigger, reason), Date.now());
	if (!said) return;
	const what =
		said.sinceMs === undefined
			? `a delivery was refused (${status})`
			: `${said.count} deliveries were refused (${status}) since ${new Date(said.sinceMs).toISOString().slice(11, 19)} UTC`;
	trigger.warn(`${what}: ${why}`);
}
