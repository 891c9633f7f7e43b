/**
 * What the trigger tells the user in n8n's log: a note on its settings once per process, and why
 * deliveries are refused, the first of a run at once and then at most once a minute (failureLog.ts).
 * Process-wide because n8n gives a webhook no state of its own between requests.
 */
import { triggerRunKey } from './dedupe/keys';
import { FailureLog } from './failureLog';

/** The trigger a log line names, and where the line goes (webhook.ts reads these from n8n). */
export interface LoggedTrigger {
	workflowId: string;
	nodeId: string;
	nodeName: string;
	warn(message: string): void;
}

/** Notes already logged in this process: a clamped option is said once, not on every delivery. */
const loggedNotes = new Set<string>();

export function logOnce(trigger: LoggedTrigger, notes: string[]): void {
	for (const note of notes) {
		const key = triggerRunKey(trigger, note);
		if (loggedNotes.has(key)) continue;
		if (loggedNotes.size > 1_000) loggedNotes.clear();
		loggedNotes.add(key);
		trigger.warn(`GST Compliance Trigger "${trigger.nodeName}": ${note}`);
	}
}

/** Refusals the user must act on, counted per trigger and reason. */
const refusals = new FailureLog();

/** Says why deliveries are refused: the first of a run at once, then at most once a minute. */
export function sayRefused(
	trigger: LoggedTrigger,
	status: number,
	reason: string,
	why: string,
): void {
	const { workflowId } = trigger;
	const said = refusals.record(triggerRunKey(trigger, reason), Date.now());
	if (!said) return;
	const what =
		said.sinceMs === undefined
			? `a delivery was refused (${status})`
			: `${said.count} deliveries were refused (${status}) since ${new Date(said.sinceMs).toISOString().slice(11, 19)} UTC`;
	trigger.warn(
		`GST Compliance Trigger "${trigger.nodeName}" (workflow ${workflowId}): ${what}: ${why}`,
	);
}
