/**
 * The per-process markers of the built-in store: each process that saves a trigger's ids writes
 * its own [first delivery, last save] into the workflow's static data (`dedupe:<node id>:processes`),
 * so a process can tell that another one receives the same trigger's deliveries (several webhook
 * processes or mains), where each would remember ids in its own memory only.
 */
import type { IDataObject } from 'n8n-workflow';

/** Another process's marker counts as live this long after it was last written. */
export const PROCESS_LIVE_MS = 60 * 60_000;

/** The global static-data key of the processes that saved a trigger's ids: id → [start, last]. */
export function processesKey(idsKey: string): string {
	return `${idsKey}:processes`;
}

export interface ThisProcess {
	id: string;
	startedMs?: number;
}

/** Writes this process's marker (start, last save), dropping markers not written for a long time. */
export function markThisProcess(
	global: IDataObject,
	key: string,
	self: ThisProcess,
	nowMs: number,
): void {
	const loaded = global[key];
	const markers: IDataObject = {};
	if (typeof loaded === 'object' && loaded !== null)
		for (const [id, marker] of Object.entries(loaded))
			if (isMarker(marker) && nowMs - marker[1] < PROCESS_LIVE_MS) markers[id] = marker;
	markers[self.id] = [self.startedMs ?? nowMs, nowMs];
	global[key] = markers;
}

/**
 * What to tell the user when another process saved this trigger's ids since this one started:
 * both receive its deliveries, and each remembers ids in its own memory only.
 */
export function otherLiveProcess(
	markers: unknown,
	self: ThisProcess,
	nowMs: number,
): string | undefined {
	if (typeof markers !== 'object' || markers === null) return undefined;
	const startedMs = self.startedMs ?? nowMs;
	const others = Object.entries(markers).filter(
		([id, marker]) =>
			id !== self.id &&
			isMarker(marker) &&
			marker[1] >= startedMs &&
			nowMs - marker[1] < PROCESS_LIVE_MS,
	);
	if (others.length === 0) return undefined;
	return `Another n8n process is receiving this GST Compliance Trigger's deliveries too (${others.length + 1} processes, e.g. several webhook processes or mains), and the built-in dedupe store remembers event ids in each process's own memory: a redelivery that reaches another process starts the workflow again. Attach a GST Compliance Dedupe Redis credential to the trigger, so every process shares one record.`;
}

function isMarker(value: unknown): value is [number, number] {
	return (
		Array.isArray(value) &&
		value.length === 2 &&
		Number.isFinite(value[0]) &&
		Number.isFinite(value[1])
	);
}
