/**
 * The built-in store as a trigger uses it: the process's own store (registry.ts), read from the
 * workflow's static data on first use and written back into it at each acceptance.
 *
 * - Production deliveries write the store's snapshot into the global static data under the node's
 *   id (`dedupe:<node id>`), so renaming the node keeps it. The delivery answers itself and n8n
 *   saves the static data it loaded for this request right after (n8nCompat.ts): one whole write
 *   per accepted event, a few milliseconds after the load. Starts (the execution's first step)
 *   change the store in memory only and reach the static data with the next acceptance: an
 *   execution saves the copy n8n loaded before its queue wait, so it never writes static data.
 *   Where n8n answers once the execution exists (2.0–2.33), the write is made when n8n reads the
 *   answer instead (`answered`), and marks the event started then, in the same save; when that
 *   read comes after a wait (ANSWER_FRESH_MS), nothing is written then, and the next acceptance
 *   saves the start.
 * - The row's snapshot is read once per process, by the first webhook (an execution's copy may
 *   be empty: `readSaved`), so the in-process store stays the source of truth afterwards (n8n
 *   saves static data without a lock, and the last writer wins). Ids persisted by version 0.1.0
 *   under the node's name are read once and moved.
 * - A delivery is answered 2xx once its acceptance is shown to be in the database (`durable`,
 *   unsavedAcceptances.ts): a later request's static data lists it (n8nCompat.ts, 14.; the
 *   trigger probes its own URL where none comes), or its execution started; a process killed
 *   before then leaves the delivery unanswered, and the service retries it, where an answer
 *   written first would be lost with the acceptance. Every save writes all the store holds, so a
 *   later request's snapshot shows every acceptance saved before it loaded.
 * - Test-URL deliveries (manual mode) get their own in-memory store: n8n does not save static data
 *   for them, and they must never mark an id that production will receive.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EventLedger } from '../lifecycle';
import { DEDUPE_CAPACITY } from './capacity';
import { MemoryDedupeStore, type DedupeOptions } from './memoryStore';
import {
	LEGACY_SNAPSHOT_KEY,
	ledgerScope,
	processesKey,
	readStaticDataKey,
	snapshotKey,
	type TriggerId,
} from '../keys';
import {
	AcceptedElsewhereError,
	isMarkers,
	markThisProcess,
	SavedIdsUnreadError,
} from './processMarkers';
import { isSnapshot, pendingFromSnapshot } from './snapshotFormat';
import { dedupeRegistry, type RegistryEntry } from './registry';
import { thisProcess } from '../thisProcess';
import { settings } from '../../../settings';
import { settle } from '../../../settle';

/**
 * Where n8n reads the answer once the execution exists (2.0–2.33), the store is written into
 * that request's static data only if the answer is read this soon after the delivery arrived:
 * later (a concurrency wait), the copy n8n saves then may roll back what other nodes saved.
 */
export const ANSWER_FRESH_MS = 1_000;

/**
 * The trigger as the built-in store needs it, read from n8n by the trigger (store.ts's DedupeSite
 * adds the Redis credential): plain values, and static data as a lazy read, since n8n writes back
 * the static data a request touched.
 */
export interface MemorySite extends TriggerId {
	/**
	 * The workflow's static data (n8n's `getWorkflowStaticData`): a webhook's copy, saved by n8n
	 * after the answer (`writable`), or an execution's, read only.
	 */
	staticData(type: 'global' | 'node'): IDataObject;
	/** The ids of the workflow's nodes, where n8n shows them (n8nCompat.ts, 8.). */
	nodeIds?(): string[] | undefined;
	/**
	 * Makes n8n load the static data from the database in a request of its own to the trigger's
	 * Production URL (trigger/ownUrl.ts): a webhook's shows the acceptances saved; an execution's,
	 * to the URL its item came to (`url`), makes the store read the ids saved.
	 */
	probe?(url?: string): Promise<void>;

	writable: boolean;
	warn(message: string): void;
}

/**
 * The built-in store's door for this request or execution: ids kept for `windowMs`, at most
 * `capacity` of them (DEDUPE_CAPACITY unless a test sets its own).
 */
export function memoryLedger(
	site: MemorySite,
	{ windowMs, capacity = DEDUPE_CAPACITY }: { windowMs: number; capacity?: number },
): EventLedger {
	const options: DedupeOptions = { windowMs, capacity };
	const { workflowId, nodeId } = site;
	const idsKey = snapshotKey(nodeId);
	const entry = dedupeRegistry.get(site, options, () => new MemoryDedupeStore(options));
	readSaved(site, entry, idsKey);
	const { store, watch } = entry;

	let acceptedMs: number | undefined;
	let persisted = false;
	const persist = (nowMs = Date.now()) => {
		if (!site.writable) return;
		persisted = true;
		const global = site.staticData('global');
		const present = site.nodeIds?.();
		saveAll(global, workflowId, present);
		if (present) dropGone(global, present);
		markThisProcess(global, processesKey(nodeId), thisProcess, nowMs, (id) =>
			entry.others.keeps(id, nowMs),
		);
		// A save that overlapped the move may have brought the legacy snapshot back.
		const nodeData = site.staticData('node');
		if (nodeData[LEGACY_SNAPSHOT_KEY] !== undefined) delete nodeData[LEGACY_SNAPSHOT_KEY];
		watch.check(site, ledgerScope(site), store);
	};

	return {
		accept: async (eventId, nowMs, startWithinMs) => {
			if (site.writable) {
				const markers = site.staticData('global')[processesKey(nodeId)];
				entry.others.look(markers, thisProcess.id, nowMs, (notice) =>
					site.warn(`${notice} (${ledgerScope(site)})`),
				);
			}
			// Synchronous up to the write: n8n saves the static data right after the answer.
			acceptedMs = nowMs;
			const acceptance = store.acceptNow(eventId, nowMs, startWithinMs);
			if (acceptance.kind === 'accepted' || acceptance.kind === 'retaken') {
				if (site.writable) entry.unsaved.add(eventId);
				persist(nowMs);
			}
			return acceptance;
		},
		start: async (eventId, nowMs, mark) => {
			// Accepted by another process, and nothing has read the saved ids into this one: run
			// again after a restart (they may say the event started: a copy taken again, whose first
			// execution ran before it), or on a process that receives no deliveries (a worker).
			if (mark && entry.read !== 'row' && mark.process !== thisProcess.id)
				await readSavedFirst(site, entry, mark.url);
			entry.unsaved.started(eventId);
			return await store.start(eventId, nowMs, mark);
		},
		startedElsewhere: async (eventId, mark) => await store.startedElsewhere(eventId, mark),
		// Named only where a user sees it: a delivery that starts nothing would say it in the log alone.
		overdue: async (nowMs, within, look) => (look.shown ? await store.overdue(nowMs, within) : []),
		notice: () => [entry.others.said, watch.notice(store)].filter(Boolean).join(' ') || undefined,
		// Saved with n8n's read of the answer, once the execution exists (n8nCompat.ts, 2.).
		answered: (eventId, nowMs) => {
			store.startAtAnswer(eventId, nowMs);
			// n8n saves the whole copy it loaded with this request: read after a wait, it may be
			// older than what other nodes saved meanwhile, so the start waits for the next save.
			if (acceptedMs !== undefined && nowMs - acceptedMs <= ANSWER_FRESH_MS) persist(nowMs);
			else store.unsavedStarts++;
		},
		// True at once when the acceptance is known to be in the database, else once it is shown to
		// be; false when it is not within `settings.acceptanceSaveWithinMs`.
		durable: (eventId) => {
			// A copy of an acceptance not shown saved yet (its save failed): this request's save
			// carries it again.
			if (!persisted && entry.unsaved.has(eventId)) persist();
			return entry.unsaved.whenSaved(eventId, {
				withinMs: settings.acceptanceSaveWithinMs,
				probeAfterMs: settings.acceptanceProbeAfterMs,
				wait: settings.sleep,
				probe: site.probe,
			});
		},
	};
}

/**
 * Reads the saved snapshot into the process's store, adding to what it knows (a union: nothing
 * it knows is lost). A webhook's static data is the row's, read once per process. An execution's
 * may hold nothing at all (n8n runs recovered, retried and queue-mode executions from the
 * execution row, which keeps no static data): it is read only into a store nothing has read, and
 * the next webhook still reads the row's, so a recovered execution that runs first after a
 * restart never leaves the store, or the next save, without the saved ids.
 */
function readSaved(site: MemorySite, entry: RegistryEntry, idsKey: string): void {
	// Every webhook's static data is loaded from the database: what it lists is saved.
	if (site.writable && entry.unsaved.size > 0)
		entry.unsaved.seen(savedAcceptances(site.staticData('global')[idsKey]));
	if (entry.read === 'row' || (entry.read === 'executionCopy' && !site.writable)) return;
	const global = site.staticData('global');
	if (global[idsKey] === undefined && site.writable) moveLegacySnapshot(site, global, idsKey);
	entry.store.merge(global[idsKey]);
	entry.read = site.writable ? 'row' : 'executionCopy';
}

/**
 * How long an execution run again after a restart waits between probes for the store to read the
 * saved ids: n8n registers the production webhooks while it starts, after it has begun running
 * queued executions again.
 */
export const READ_SAVED_DELAYS_MS: readonly number[] = [0, 1_000, 2_000, 4_000, 8_000, 15_000];

/**
 * Probes the Production URL until n8n's request for it has let the store read the row's snapshot.
 * Whichever process serves that URL answers the probe, so a probe answered without this process's
 * store reading the row says that another process receives the trigger's deliveries while this one
 * runs their executions (a queue-mode worker): AcceptedElsewhereError, with no clock compared.
 * Throws SavedIdsUnreadError when no probe is answered (n8n still registering its webhooks after a
 * restart, for about 30 s, or an n8n that cannot reach its own URL).
 */
async function readSavedFirst(
	site: MemorySite,
	entry: RegistryEntry,
	url: string | undefined,
): Promise<void> {
	for (const delayMs of READ_SAVED_DELAYS_MS) {
		if (!site.probe || url === undefined) break;
		if (delayMs > 0) await settings.sleep(delayMs);
		const answered = await settle(site.probe(url));
		if (entry.read === 'row') return;
		if (answered.ok) throw new AcceptedElsewhereError();
	}
	throw new SavedIdsUnreadError();
}

/** The accepted ids a saved snapshot lists. */
function savedAcceptances(snapshot: unknown): string[] {
	return isSnapshot(snapshot) ? pendingFromSnapshot(snapshot).map(([eventId]) => eventId) : [];
}

/**
 * Writes the snapshot of every trigger of the workflow this process holds, not only this one's:
 * n8n saves the whole static data it loaded for this request (unlocked, last writer wins), so a
 * key left as loaded would overwrite what another trigger's request saved meanwhile.
 */
function saveAll(global: IDataObject, workflowId: string, present?: string[]): void {
	for (const entry of dedupeRegistry.ofWorkflow(workflowId))
		if (!present || present.includes(entry.nodeId))
			global[snapshotKey(entry.nodeId)] = { ...entry.store.snapshot() };
}

/**
 * Drops the ids and process markers of trigger nodes no longer in the workflow (deleted, or
 * replaced by a new node): nothing reads them again, and n8n would load and save them with every
 * delivery. A renamed node keeps its id, and so its ids. Only values this package writes go: a
 * Code node's own `dedupe:orders` is left as it is.
 */
function dropGone(global: IDataObject, present: string[]): void {
	for (const [key, value] of Object.entries(global)) {
		const named = readStaticDataKey(key);
		if (!named || present.includes(named.nodeId)) continue;
		if (named.holds === 'processes' ? isMarkers(value) : isSnapshot(value)) delete global[key];
	}
}

/** Moves the snapshot of an earlier version to its new key; both changes land in one save. */
function moveLegacySnapshot(site: MemorySite, global: IDataObject, key: string): void {
	const nodeData = site.staticData('node');
	const legacy = nodeData[LEGACY_SNAPSHOT_KEY];
	if (legacy === undefined) return;
	global[key] = legacy;
	delete nodeData[LEGACY_SNAPSHOT_KEY];
}
