/**
 * One lifecycle for every verified delivery, whichever store keeps the ledger (memory/ or redis/):
 *
 *   webhook():  accept   → the delivery is answered 2xx at once; n8n creates the execution
 *               answered → (n8n 2.0–2.33 only) n8n reads the answer once the execution exists
 *   execute():  start    → the first execution of an event does its work, any other ends empty
 *
 * - `answered`, where n8n answers only once the execution exists (n8nCompat.ts, 2.): the
 *   execution exists, so a store may mark the event started already, in the save n8n makes with
 *   that answer (the built-in store does; its execution's `start` then goes on). The Redis
 *   store's `start` needs no earlier mark: it does nothing.
 * - `accept` records the event as accepted (with its time) unless it already started
 *   (`duplicate`) or was accepted less than `startWithinMs` ago (`onItsWay`): either way the copy
 *   creates no execution. An event accepted longer ago that never started is taken again
 *   (`retaken`): its execution was lost (n8n died before writing it, or never ran it again after a
 *   restart), so this copy, typically a replay from the Developer hub, starts it.
 * - `start` runs as the first step of the execution, after n8n's concurrency queue, on whichever
 *   process runs it (a worker in queue mode), also for executions n8n runs again after a restart.
 *   It marks the event started in one atomic step: `started` for the first, `duplicate` for any
 *   other execution of the same event, which then ends at once without items.
 * - `overdue` names, once each, the events accepted more than `startWithinMs` ago that never
 *   started: nothing acknowledged is lost silently. The trigger says them in n8n's log and on the
 *   next started item.
 *
 * Exactly once is decided at `start`, not by how many executions n8n created; `accept` only keeps
 * copies from creating executions that would end empty. No n8n types: the trigger's webhook() and
 * execute() are the glue (dedupe/store.ts opens the store).
 */

export type Acceptance =
	/** New: start an execution. */
	| { kind: 'accepted' }
	/** Accepted `acceptedMs` (on the store's clock), more than `startWithinMs` ago, never started. */
	| { kind: 'retaken'; acceptedMs: number }
	/** Started already, inside the window. */
	| { kind: 'duplicate' }
	/** Accepted `acceptedMs` ago, less than `startWithinMs`, not started yet: on its way. */
	| { kind: 'onItsWay'; acceptedMs: number };

export type Start = 'started' | 'duplicate';

/**
 * An acceptance as the delivery's item carries it to the execution (trigger/output.ts), and as the
 * start reads it: one name from the accept to the start.
 */
export interface AcceptanceMark {
	/** This acceptance's own: a start with it recognises its own earlier write. */
	token: string;
	/** The process that accepted, and when by its clock. */
	process: string;
	acceptedMs: number;
	/** The Production URL it came to, for a store that must read what it saved first. */
	url?: string;
}

/** An event accepted and never started within the bound. */
export interface OverdueEvent {
	eventId: string;
	/** When it was accepted, in ms since the epoch on the store's clock. */
	acceptedMs: number;
	/**
	 * The store cannot tell whether it started: the built-in store keeps a start in memory until
	 * the next accepted event saves it, and this one was accepted before the process restarted.
	 */
	uncertain?: boolean;
	/**
	 * The body it was delivered with, kept by a store that keeps deliveries (Redis), so the trigger
	 * can deliver it to itself again; `redelivered` says how that went.
	 */
	delivery?: Buffer;
	redelivered?: { ok: true } | { ok: false; why: string };
}

/**
 * What a look for overdue events does with what it finds. The built-in store's events go only to a
 * look whose names reach an item the user sees; the Redis store's only to one that can deliver
 * them again.
 */
export interface OverdueLook {
	/** Its names reach an item it starts (a hint or `dedupeNotice`), not the log alone. */
	shown: boolean;
	/** It can deliver a kept delivery to the trigger's own URL again (a webhook's look). */
	redelivers: boolean;
}

/**
 * The store's door: every step of the lifecycle, as the trigger calls it, whichever store keeps
 * the ledger (each keeps its own record of the ids; a store with nothing to do for a step does
 * nothing). A new step is added here, in memory/memoryLedger.ts and in redis/redisStore.ts.
 */
export interface EventLedger {
	/**
	 * Records the event as accepted now, unless started or accepted less than `startWithinMs` ago.
	 * `token` is this acceptance's own mark (AcceptanceMark's), for a store that can take it back
	 * when its reply is lost; `delivery`, the body as received, for a store that keeps it until the
	 * start (Redis), so an event whose execution was lost can be delivered again.
	 */
	accept(
		eventId: string,
		nowMs: number,
		startWithinMs: number,
		token?: string,
		delivery?: Buffer,
	): Promise<Acceptance>;
	/**
	 * Marks the event started; `duplicate` when it already was, inside the window, by another
	 * acceptance than `mark`'s: the same item started again (its reply lost, a Retry from the
	 * executions list) is `started` again.
	 */
	start(eventId: string, nowMs: number, mark?: AcceptanceMark): Promise<Start>;
	/** Whether `start` would be `duplicate` now: started by another acceptance. Reads only. */
	startedElsewhere(eventId: string, mark?: AcceptanceMark): Promise<boolean>;
	/**
	 * Events accepted more than `startWithinMs` before `nowMs` that never started, each returned
	 * by one call only (the first to find it); a later copy of one is `retaken`. A store returns
	 * them only to a `look` that can do what it promises for them, and leaves them for the next.
	 */
	overdue(nowMs: number, startWithinMs: number, look: OverdueLook): Promise<OverdueEvent[]>;
	/**
	 * Whether the delivery of `eventId` (accepted, or a copy of one on its way) may be answered 2xx,
	 * its acceptance kept where a restart finds it: true when it is already (Redis ran the script),
	 * or a promise (the built-in store: true once a request's static data or its execution shows
	 * n8n saved it, false when nothing does in time; memory/unsavedAcceptances.ts).
	 */
	durable(eventId: string): true | Promise<boolean>;
	/** n8n reads the answer at `nowMs`, once the execution exists (see above). */
	answered(eventId: string, nowMs: number): void;
	/** A note for the started item: the built-in store's, when it should give way to Redis. */
	notice(): string | undefined;
}

/** What the trigger tells the user of an event accepted and never started. */
export function overdueMessage(event: OverdueEvent, startWithinMs: number): string {
	const minutes = Math.round(startWithinMs / 60_000);
	const accepted = `Event ${JSON.stringify(event.eventId)} was accepted at ${new Date(event.acceptedMs).toISOString()}`;
	if (event.redelivered?.ok)
		return `${accepted} and had not started within ${minutes} min: n8n did not create or run its execution (a restart or a database failure while it waited). The trigger delivered it to its own Production URL again: that delivery starts it once.`;
	if (event.redelivered)
		return `${accepted} and has not started within ${minutes} min: n8n did not create or run its execution (a restart or a database failure while it waited), and the trigger could not deliver it to its own Production URL again (${event.redelivered.why}). Replay it from the Developer hub: the replay starts it once; set WEBHOOK_URL to an address this n8n reaches, so the trigger can do it itself.`;
	if (event.uncertain)
		return `${accepted}, before n8n restarted, and the built-in dedupe store cannot tell whether its execution started (it saves starts with the next accepted event). Look for it in the executions list; if it has no execution, replay it from the Developer hub: the replay starts it.`;
	return `${accepted} and has not started within ${minutes} min: n8n did not create or run its execution (a restart or a database failure while it waited). Replay it from the Developer hub: the replay starts it once.`;
}

/** What the trigger tells the user of an execution that ends empty. */
export function duplicateStartMessage(eventId: string): string {
	return `Event ${JSON.stringify(eventId)} was already started by another execution of this workflow; this one ends here without items (a copy n8n created while the first waited, or ran again after a restart)`;
}
