/**
 * Another n8n process receiving the same trigger, for the built-in store, whose memory is one
 * process's: noticing it (below), and refusing to start an event another running process accepted
 * (`AcceptedElsewhereError`).
 *
 * The per-process markers of the built-in store: each process that saves a trigger's ids writes
 * its own marker into the workflow's static data (`dedupe:<node id>:processes`, id → [first
 * delivery, last save] by its own clock), so a process can tell that another one receives the
 * same trigger's deliveries (several webhook processes or mains), where each would remember ids
 * in its own memory only.
 *
 * The times inside a marker are another process's clock, so they are never compared with this
 * one's: a process is live when this process sees its marker change, by this process's clock. A
 * marker that never changes (the process before a restart, whatever its clock said) is not live;
 * changes seen over less than OVERLAP_MS (the old process of a rolling deploy finishing its
 * deliveries) are not either.
 */
import type { IDataObject } from 'n8n-workflow';

import { makeRoom } from '../../../bounded';
import { isDue, WARN_EVERY_MS } from '../../../throttle';
import type { ThisProcess } from '../thisProcess';

/** Another process is live while its marker changed this recently, and kept this long. */
export const PROCESS_LIVE_MS = 60 * 60_000;
/** Changes of one marker seen over less than this are a deploy's overlap, not a second process. */
export const OVERLAP_MS = 5 * 60_000;
/** Markers of other processes followed at most (the oldest seen go first). */
const MAX_FOLLOWED = 64;

/** What this process saw of another's marker, by this process's clock. */
interface Seen {
	marker: string;
	firstSeenMs: number;
	firstChangeMs?: number;
	lastChangeMs?: number;
}

/** The other processes' markers of one trigger, as this process sees them change. */
export class OtherProcesses {
	private readonly seen = new Map<string, Seen>();
	private warnedMs?: number;
	/** What the last look found, for the next item (`notice`). */
	said?: string;

	/**
	 * A webhook's look at the markers n8n loaded: `said` holds the notice while another process
	 * keeps saving this trigger's ids, and `warn` gets it at most every WARN_EVERY_MS.
	 */
	look(markers: unknown, self: string, nowMs: number, warn: (notice: string) => void): void {
		this.observe(markers, self, nowMs);
		this.said = this.notice(nowMs);
		if (this.said && isDue(this.warnedMs, nowMs, WARN_EVERY_MS)) {
			this.warnedMs = nowMs;
			warn(this.said);
		}
	}

	/** Reads the markers n8n loaded for this delivery. */
	observe(markers: unknown, self: string, nowMs: number): void {
		if (typeof markers !== 'object' || markers === null) return;
		for (const [id, marker] of Object.entries(markers)) {
			if (id === self || !isMarker(marker)) continue;
			const value = JSON.stringify(marker);
			const known = this.seen.get(id);
			if (!known) {
				makeRoom(this.seen, MAX_FOLLOWED);
				this.seen.set(id, { marker: value, firstSeenMs: nowMs });
			} else if (known.marker !== value) {
				known.marker = value;
				known.firstChangeMs ??= nowMs;
				known.lastChangeMs = nowMs;
			}
		}
	}

	/** How many other processes keep saving this trigger's ids now. */
	live(nowMs: number): number {
		let count = 0;
		for (const seen of this.seen.values())
			if (
				seen.firstChangeMs !== undefined &&
				seen.lastChangeMs! - seen.firstChangeMs >= OVERLAP_MS &&
				nowMs - seen.lastChangeMs! < PROCESS_LIVE_MS
			)
				count++;
		return count;
	}

	/** Whether another process's marker stays in the static data: changed (or first seen) lately. */
	keeps(id: string, nowMs: number): boolean {
		const seen = this.seen.get(id);
		return !seen || nowMs - (seen.lastChangeMs ?? seen.firstSeenMs) < PROCESS_LIVE_MS;
	}

	/** What to tell the user while another process receives the same trigger's deliveries. */
	notice(nowMs: number): string | undefined {
		const others = this.live(nowMs);
		if (others === 0) return undefined;
		return `Another n8n process is receiving this GST Compliance Trigger's deliveries too (${others + 1} processes, e.g. several webhook processes or mains), and the built-in dedupe store remembers event ids in each process's own memory: a redelivery that reaches another process starts the workflow again. Attach a GST Compliance Dedupe Redis credential to the trigger, so every process shares one record.`;
	}
}

/**
 * Writes this process's marker (start, this save), keeping the well-formed markers of others that
 * `keeps` names.
 */
export function markThisProcess(
	global: IDataObject,
	key: string,
	self: ThisProcess,
	nowMs: number,
	keeps: (id: string) => boolean = () => true,
): void {
	const loaded = global[key];
	const markers: IDataObject = {};
	if (typeof loaded === 'object' && loaded !== null)
		for (const [id, marker] of Object.entries(loaded))
			if (id !== self.id && isMarker(marker) && keeps(id)) markers[id] = marker;
	markers[self.id] = [self.startedMs ?? nowMs, nowMs];
	global[key] = markers;
}

/** A markers object as this package writes it: one or more process ids, each [start, last]. */
export function isMarkers(value: unknown): boolean {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const markers = Object.values(value);
	return markers.length > 0 && markers.every(isMarker);
}

function isMarker(value: unknown): value is [number, number] {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		Number.isFinite(value[0]) &&
		Number.isFinite(value[1])
	);
}

/**
 * The built-in store cannot keep its promise across processes: in queue mode the execution that
 * starts an event runs on a worker, with no static data and a memory of its own, so neither the
 * process that accepted nor the one that starts would learn what the other did. A community node
 * cannot read n8n's configuration (no `process.env` on n8n Cloud), so the execution tells it from
 * its item and its Production URL: accepted by another process, whose URL another process serves
 * (memoryLedger.ts, readSavedFirst).
 */
export class AcceptedElsewhereError extends Error {
	constructor() {
		super(
			'This execution runs on another n8n process than the one that received its delivery, while both run (queue mode: a worker), and the built-in dedupe store lives in one process. Attach a GST Compliance Dedupe Redis credential to the trigger (any Redis every n8n process reaches; the queue’s own is fine).',
		);
		this.name = 'AcceptedElsewhereError';
	}
}

/**
 * An execution n8n runs again after a restart, of a delivery the process before it accepted, that
 * ran before anything let this process read the ids the trigger saved (a delivery, or the
 * trigger's own probe): deciding on an empty memory could start an event a second time.
 */
export class SavedIdsUnreadError extends Error {
	constructor() {
		super(
			'This execution ran again after n8n restarted, before the built-in dedupe store had read the event ids it saved, so it cannot tell whether its event already started. The trigger could not make n8n load them (a request to its own Production URL failed): check that this n8n reaches its WEBHOOK_URL.',
		);
		this.name = 'SavedIdsUnreadError';
	}
}
