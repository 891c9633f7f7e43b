/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Dedupe persistence: one store per workflow node (the registry), and the built-in store's ids
 * reaching n8n's database with every accepted event, under the node's id. n8n 2.41 (live
 * webhooks) loads the workflow with its static data, runs webhook(), which answers itself, saves
 * static data if it changed, then creates the execution, whose first step (the node's execute())
 * reads static data n8n loaded for it and must not change it. `deliver()` replays that sequence
 * with n8n-workflow's real Workflow (its ObservableObject static data) and n8n-core's contexts, so
 * this fails if the write is lost or an execution writes. A "restart" forgets the process's
 * stores; only the saved static data survives it.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import {
	ATTACH_REDIS_FROM,
	DEDUPE_CAPACITY,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/capacity';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import type { DedupeSnapshot } from '@/nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat';
import { processesKey, snapshotKey } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import {
	OVERLAP_MS,
	PROCESS_LIVE_MS,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/processMarkers';
import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import { thisProcess } from '@/nodes/GstCompliance/trigger/dedupe/thisProcess';
import { releaseTrigger } from '@/nodes/GstCompliance/trigger/dedupe/store';
import { normaliseOptions } from '@/nodes/GstCompliance/trigger/options';
import { settings } from '@/nodes/GstCompliance/settings';
import * as output from '@/nodes/GstCompliance/trigger/output';
import {
	deliver,
	envelope,
	firstStepWith,
	newWorkflow,
	NOW_MS,
	signed,
	TRIGGER_NAME,
	type DeliveryResult,
	type WorkflowRow,
} from '@/test/integration/helpers/deliverToTrigger';

const HOUR = 3_600_000;
const SHIPPED: DedupeOptions = {
	windowMs: normaliseOptions({}).dedupeWindowMs,
	capacity: DEDUPE_CAPACITY,
};
/** One persisted record: an 11-character digest and a 3-character minute offset. */
const RECORD_CHARS = 14;
const DUPLICATE = { status: 200, body: { received: true, duplicate: true }, started: undefined };
/**
 * A copy that creates no execution: a duplicate of a started event (200), or after a restart,
 * of one whose start the store saves with the next accepted event (202, on its way).
 */
const NO_EXECUTION = expect.objectContaining({
	body: { received: true, duplicate: true },
	started: undefined,
});
const LEGACY_KEY = `node:${TRIGGER_NAME}`;

const event = (id: string) => signed(JSON.stringify(envelope({ id })));
/** An event signed at `atMs` (the stubbed clock of a test that moves it). */
const eventAt = (id: string, atMs: number) =>
	signed(JSON.stringify(envelope({ id })), Math.floor(atMs / 1000));
/** What n8n does across a restart: the process's stores are gone, static data is reloaded. */
const restart = (row: WorkflowRow) => {
	dedupeRegistry.clear();
	row.staticData = JSON.parse(JSON.stringify(row.staticData)) as IDataObject;
};
/** The built-in store's snapshot as saved in the row's global static data. */
const saved = (row: WorkflowRow) =>
	(row.staticData.global as IDataObject | undefined)?.[snapshotKey(row.nodeId)] as
		| DedupeSnapshot
		| undefined;

// Every delivery here runs at NOW_MS in a fresh process (no store remembered from another test).
beforeEach(() => {
	jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
	dedupeRegistry.clear();
});
afterEach(() => jest.restoreAllMocks());

describe('the shipped store policy', () => {
	it('a store with DEDUPE_CAPACITY → keeps 125,000 ids; the 125,001st pushes out the oldest', () => {
		const T0 = Date.UTC(2025, 0, 15);
		const store = new MemoryDedupeStore(SHIPPED);
		for (let i = 0; i < 125_000; i++) store.claimNow(`evt_${i}`, T0);
		expect(store.size).toBe(125_000);
		expect(store.claimNow('evt_0', T0)).toBe(false);
		expect(store.claimNow('evt_new', T0)).toBe(true);
		expect(store.size).toBe(125_000);
		expect(store.claimNow('evt_124999', T0)).toBe(false);
		expect(store.claimNow('evt_0', T0)).toBe(true);
	});
});

describe('saving the ids in the workflow’s static data', () => {
	it('webhook() × 3 accepted events → all three ids saved under global "dedupe:<node id>"', async () => {
		const row = newWorkflow('wf-static-data');
		for (const id of ['evt_static_1', 'evt_static_2', 'evt_static_3']) {
			const result = await deliver({ ...event(id), workflow: row });
			expect(result).toMatchObject({ status: 202, body: { received: true } });
			expect(result.started).toHaveLength(1);
		}
		expect(snapshotKey('node-1')).toBe('dedupe:node-1');
		// Each save carries the starts before it; the last event's start rides on the next one.
		expect(saved(row)?.d.length).toBe(2 * RECORD_CHARS);
		expect(saved(row)?.p).toEqual([['evt_static_3', NOW_MS]]);
	});

	it('webhook() after a restart → a saved id is a duplicate, a new id starts', async () => {
		const row = newWorkflow('wf-restart');
		for (const id of ['evt_a', 'evt_b', 'evt_c']) await deliver({ ...event(id), workflow: row });
		restart(row);
		expect(await deliver({ ...event('evt_b'), workflow: row })).toEqual(DUPLICATE);
		expect((await deliver({ ...event('evt_d'), workflow: row })).started).toHaveLength(1);
	});

	it('webhook() after the node is renamed and n8n restarts → the id is still a duplicate', async () => {
		const row = newWorkflow('wf-rename');
		expect((await deliver({ ...event('evt_renamed'), workflow: row })).started).toHaveLength(1);
		row.nodeName = 'Invoices in';
		restart(row);
		expect(await deliver({ ...event('evt_renamed'), workflow: row })).toEqual(NO_EXECUTION);
	});
});

describe('answering once the acceptance shows as saved (a SIGKILL before the save leaves the event unacknowledged)', () => {
	const bound = settings.acceptanceSaveWithinMs;
	afterEach(() => {
		settings.acceptanceSaveWithinMs = bound;
	});

	it('webhook() with a free slot → nothing answered when n8n begins saving; 202 once the execution started (its row exists)', async () => {
		settings.acceptanceSaveWithinMs = 60_000;
		const row = newWorkflow();
		const result = await deliver({ ...event('evt_saved'), workflow: row });
		expect(result.acknowledgedBeforeSave).toBeUndefined();
		expect(result).toMatchObject({ status: 202, body: { received: true } });
		expect(result.started).toHaveLength(1);
	});

	it('webhook() whose execution waits for a slot → answered once a later request’s static data, loaded from the database, lists the acceptance', async () => {
		settings.acceptanceSaveWithinMs = 60_000; // a test that times out if nothing else answers
		const row = newWorkflow();
		let later: DeliveryResult | undefined;
		const first = await deliver({
			...event('evt_waits'),
			workflow: row,
			execution: 'later',
			beforeAnswer: async () => (later = await deliver({ ...event('evt_next'), workflow: row })),
		});
		expect(first.acknowledgedBeforeSave).toBeUndefined();
		expect(first).toMatchObject({ status: 202, body: { received: true } });
		expect(later).toMatchObject({
			status: 202,
			started: [expect.objectContaining({ id: 'evt_next' })],
		});
	});

	it('webhook() whose execution waits and no other request comes → the trigger probes its own Production URL, whose static data shows the acceptance saved: 202', async () => {
		settings.acceptanceSaveWithinMs = 60_000; // a test that times out if the probe shows nothing
		const row = newWorkflow();
		const result = await deliver({ ...event('evt_alone'), workflow: row, execution: 'later' });
		expect(result.acknowledgedBeforeSave).toBeUndefined();
		expect(result).toMatchObject({ status: 202, body: { received: true } });
		expect(saved(row)?.p?.map(([id]) => id)).toEqual(['evt_alone']);
	});

	it('webhook() whose save never lands (a database error, or n8n killed before it) → no 2xx: 503 after acceptanceSaveWithinMs; after a restart the event is unknown, and the service’s retry starts it', async () => {
		settings.acceptanceSaveWithinMs = 100;
		const row = newWorkflow();
		const first = await deliver({
			...event('evt_killed'),
			workflow: row,
			saveFails: true,
			execution: 'later',
		});
		expect(first.acknowledgedBeforeSave).toBeUndefined();
		expect(first).toMatchObject({
			status: 503,
			body: { error: 'Dedupe store unavailable, retry later' },
		});
		restart(row);
		const retry = await deliver({ ...event('evt_killed'), workflow: row });
		expect(retry).toMatchObject({ status: 202, body: { received: true } });
		expect(retry.started).toHaveLength(1);
	});

	it('webhook() whose save fails, then the service’s retry (a copy) while the first execution waits → the retry’s own request saves the store again, and the retry is answered once that shows: 202 duplicate, no second execution', async () => {
		settings.acceptanceSaveWithinMs = 100;
		const row = newWorkflow();
		const first = await deliver({
			...event('evt_retried'),
			workflow: row,
			saveFails: true,
			execution: 'later',
		});
		expect(first.status).toBe(503);
		settings.acceptanceSaveWithinMs = 60_000;
		const retry = await deliver({ ...event('evt_retried'), workflow: row });
		expect(retry).toMatchObject({ status: 202, body: { received: true, duplicate: true } });
		expect(retry.execution).toBeUndefined();
		expect((await first.execution!()).items).toHaveLength(1);
	});

	it('a copy of an acceptance not yet shown saved → waits with it; once shown saved, a copy is answered at once', async () => {
		settings.acceptanceSaveWithinMs = 60_000;
		const row = newWorkflow();
		let copy: DeliveryResult | undefined;
		await deliver({
			...event('evt_copied'),
			workflow: row,
			execution: 'later',
			// The copy's own request loads the saved acceptance: both are answered.
			beforeAnswer: async () => (copy = await deliver({ ...event('evt_copied'), workflow: row })),
		});
		expect(copy).toMatchObject({ status: 202, body: { received: true, duplicate: true } });
		const later = await deliver({ ...event('evt_copied'), workflow: row });
		expect(later.acknowledgedBeforeSave).toEqual({
			status: 202,
			body: { received: true, duplicate: true },
		});
	});
});

describe('static data of trigger nodes no longer in the workflow', () => {
	const globalOf = (row: WorkflowRow) => row.staticData.global as IDataObject;

	it('webhook() after a trigger node was deleted or replaced → its ids and process markers leave with the next save; the rest stays', async () => {
		const row = newWorkflow('wf-removed-node');
		const old = new MemoryDedupeStore(SHIPPED);
		old.claimNow('evt_old', NOW_MS);
		row.staticData = {
			global: {
				[snapshotKey('node-gone')]: old.snapshot(),
				[processesKey('node-gone')]: { abcd1234: [NOW_MS, NOW_MS] },
				counter: 41,
			},
		};
		expect((await deliver({ ...event('evt_new'), workflow: row })).started).toHaveLength(1);
		expect(Object.keys(globalOf(row)).sort()).toEqual([
			'counter',
			snapshotKey('node-1'),
			processesKey('node-1'),
		]);
	});

	it('webhook() beside other nodes’ own "dedupe:…" static data (a Code node’s dedupe:orders) → left as it is', async () => {
		const row = newWorkflow('wf-user-dedupe-keys');
		const userData = {
			'dedupe:orders': { last: 'ord_42' },
			'dedupe:customer:processes': ['cus_1'],
			'dedupe:invoices': { v: 2, seen: ['inv_1'] },
			counter: 41,
		};
		row.staticData = { global: { ...userData } };
		expect((await deliver({ ...event('evt_user'), workflow: row })).started).toHaveLength(1);
		expect(globalOf(row)).toMatchObject(userData);
	});

	it('webhook() after a second trigger was deleted, whose store this process still holds → it is not written back', async () => {
		const B = { id: 'node-b', name: 'E-way bills in' };
		const row = { ...newWorkflow('wf-removed-second'), triggers: [B] };
		await deliver({ ...event('evt_b'), workflow: row, node: B });
		expect(globalOf(row)[snapshotKey('node-b')]).toBeDefined();
		row.triggers = [];
		await deliver({ ...event('evt_1'), workflow: row });
		expect(globalOf(row)[snapshotKey('node-b')]).toBeUndefined();
		expect(globalOf(row)[snapshotKey('node-1')]).toBeDefined();
	});
});

describe('publishing an edit (n8n deactivates and activates the trigger)', () => {
	const answeredLater = { options: { acknowledge: 'afterExecutionCreated' } };

	it('webhook() after a re-publish, when another node’s execution saved an older copy of the static data meanwhile → still a duplicate', async () => {
		const row = newWorkflow('wf-republish');
		const olderCopy = JSON.parse(JSON.stringify(row.staticData)) as IDataObject;
		// Saved with its answer (n8n 2.0–2.33): the store holds nothing unsaved.
		expect(
			(await deliver({ ...event('evt_kept'), workflow: row, ...answeredLater })).started,
		).toHaveLength(1);
		// A Code node writing $getWorkflowStaticData: its execution loaded the row before that
		// delivery and saves its copy at its end.
		row.staticData = { ...olderCopy, global: { counter: 42 } };
		releaseTrigger({ workflowId: row.id, nodeId: row.nodeId });
		expect(await deliver({ ...event('evt_kept'), workflow: row, ...answeredLater })).toEqual(
			DUPLICATE,
		);
		// The next save puts the ids back beside the counter.
		await deliver({ ...event('evt_next'), workflow: row, ...answeredLater });
		expect(saved(row)?.d.length).toBe(2 * RECORD_CHARS);
		expect((row.staticData.global as IDataObject).counter).toBe(42);
	});
});

describe('several GST triggers in one workflow (n8n saves the whole static data, last writer wins)', () => {
	const A = { id: 'node-a', name: 'E-invoices in' };
	const B = { id: 'node-b', name: 'E-way bills in' };
	const started = (result: { started: unknown }) => (result.started ? 1 : 0);

	it('webhook() to A and B overlapping (each saves the copy it loaded) × 20, a restart, every event again → each started once', async () => {
		const row = { ...newWorkflow('wf-two-triggers'), triggers: [A, B] };
		let starts = 0;
		for (let i = 0; i < 20; i++) {
			// B's request loads the row, then A's whole request runs and saves, then B saves its copy.
			const a = deliver.bind(null, { ...event(`evt_a_${i}`), workflow: row, node: A });
			const b = await deliver({ ...event(`evt_b_${i}`), workflow: row, node: B, beforeAnswer: a });
			starts += started(b) + 1;
		}
		expect(starts).toBe(40);
		restart(row);
		for (let i = 0; i < 20; i++) {
			starts += started(await deliver({ ...event(`evt_a_${i}`), workflow: row, node: A }));
			starts += started(await deliver({ ...event(`evt_b_${i}`), workflow: row, node: B }));
		}
		expect(starts).toBe(40);
	});

	it('webhook() to B overlapping the save that moves A’s legacy ids → the move stands after a restart', async () => {
		const legacy = new MemoryDedupeStore(SHIPPED);
		legacy.claimNow('evt_legacy_a', NOW_MS - HOUR);
		const row = {
			...newWorkflow('wf-two-legacy'),
			staticData: {} as IDataObject,
			triggers: [A, B],
		};
		row.staticData[`node:${A.name}`] = { dedupe: legacy.snapshot() as unknown as IDataObject };
		await deliver({
			...event('evt_b_1'),
			workflow: row,
			node: B,
			beforeAnswer: async () => await deliver({ ...event('evt_a_new'), workflow: row, node: A }),
		});
		restart(row);
		expect(await deliver({ ...event('evt_legacy_a'), workflow: row, node: A })).toEqual(DUPLICATE);
		expect(await deliver({ ...event('evt_a_new'), workflow: row, node: A })).toEqual(NO_EXECUTION);
		expect(await deliver({ ...event('evt_b_1'), workflow: row, node: B })).toEqual(NO_EXECUTION);
	});
});

describe('noticing another n8n process that receives the same trigger’s deliveries', () => {
	const MINUTE = 60_000;
	const markerKey = (row: WorkflowRow) => processesKey(row.nodeId);
	/** What another process's save leaves in the row: its marker, by its own clock. */
	const otherSaves = (row: WorkflowRow, startedMs: number, lastSeenMs: number, id = 'other') => {
		const global = (row.staticData.global ?? {}) as IDataObject;
		global[markerKey(row)] = {
			...((global[markerKey(row)] as IDataObject | undefined) ?? {}),
			[id]: [startedMs, lastSeenMs],
		};
		row.staticData.global = global;
	};
	/** A delivery to this process at `atMs` on its clock; the item it starts with. */
	let sequence = 0;
	const deliverAt = async (row: WorkflowRow, atMs: number) => {
		jest.spyOn(Date, 'now').mockReturnValue(atMs);
		return (await deliver({ ...eventAt(`evt_at_${++sequence}`, atMs), workflow: row }))
			.started?.[0];
	};
	const markersOf = (row: WorkflowRow) =>
		(row.staticData.global as IDataObject)[markerKey(row)] as Record<string, number[]>;

	it('webhook() × 2 → this process marks itself as [first delivery, this save], and is not another process to itself', async () => {
		const row = newWorkflow('wf-marker');
		await deliverAt(row, NOW_MS);
		expect(await deliverAt(row, NOW_MS + MINUTE)).not.toHaveProperty('dedupeNotice');
		expect(markersOf(row)).toEqual({ [thisProcess.id]: [NOW_MS, NOW_MS + MINUTE] });
	});

	it('two live processes: the other’s marker keeps changing over OVERLAP_MS → dedupeNotice naming the Redis credential, and a warning', async () => {
		const warnings: string[] = [];
		jest
			.spyOn(Container.get(Logger), 'warn')
			.mockImplementation((...args: unknown[]) => void warnings.push(String(args[0])));
		const row = newWorkflow('wf-two-processes');
		otherSaves(row, NOW_MS - HOUR, NOW_MS - MINUTE);
		await deliverAt(row, NOW_MS);
		otherSaves(row, NOW_MS - HOUR, NOW_MS + MINUTE);
		expect(await deliverAt(row, NOW_MS + 2 * MINUTE)).not.toHaveProperty('dedupeNotice');
		otherSaves(row, NOW_MS - HOUR, NOW_MS + 6 * MINUTE);
		const item = await deliverAt(row, NOW_MS + 2 * MINUTE + OVERLAP_MS);
		expect(item?.dedupeNotice).toMatch(
			/^Another n8n process .*\(2 processes, .*Attach a GST Compliance Dedupe Redis credential/,
		);
		expect(warnings.filter((line) => line.includes('): Another n8n process'))).toEqual([
			expect.stringMatching(/\(wf-two-processes:node-1\)$/),
		]);
	});

	it('the only n8n restarted after its clock was set back (the old marker lies in this clock’s future) → no notice, and the old marker goes after PROCESS_LIVE_MS', async () => {
		const row = newWorkflow('wf-clock-back');
		otherSaves(row, NOW_MS + HOUR, NOW_MS + 2 * HOUR, 'before');
		for (const atMs of [NOW_MS, NOW_MS + 10 * MINUTE, NOW_MS + 30 * MINUTE])
			expect(await deliverAt(row, atMs)).not.toHaveProperty('dedupeNotice');
		expect(Object.keys(markersOf(row))).toContain('before');
		await deliverAt(row, NOW_MS + PROCESS_LIVE_MS);
		expect(Object.keys(markersOf(row))).toEqual([thisProcess.id]);
	});

	it('a rolling deploy: the old process saves for two more minutes, then stops → no notice, then or later', async () => {
		const row = newWorkflow('wf-rolling-deploy');
		otherSaves(row, NOW_MS - 5 * HOUR, NOW_MS - 1, 'old');
		expect(await deliverAt(row, NOW_MS)).not.toHaveProperty('dedupeNotice');
		otherSaves(row, NOW_MS - 5 * HOUR, NOW_MS + MINUTE, 'old');
		expect(await deliverAt(row, NOW_MS + MINUTE)).not.toHaveProperty('dedupeNotice');
		otherSaves(row, NOW_MS - 5 * HOUR, NOW_MS + 2 * MINUTE, 'old');
		for (const atMs of [2, 3, 10, 30].map((minutes) => NOW_MS + minutes * MINUTE))
			expect(await deliverAt(row, atMs)).not.toHaveProperty('dedupeNotice');
	});

	it('the other process stops saving → the notice ends PROCESS_LIVE_MS after its last change', async () => {
		const row = newWorkflow('wf-other-stops');
		otherSaves(row, NOW_MS, NOW_MS);
		await deliverAt(row, NOW_MS);
		otherSaves(row, NOW_MS, NOW_MS + MINUTE);
		await deliverAt(row, NOW_MS + MINUTE);
		otherSaves(row, NOW_MS, NOW_MS + 7 * MINUTE);
		expect(await deliverAt(row, NOW_MS + 7 * MINUTE)).toHaveProperty('dedupeNotice');
		expect(await deliverAt(row, NOW_MS + 7 * MINUTE + PROCESS_LIVE_MS - 1)).toHaveProperty(
			'dedupeNotice',
		);
		expect(await deliverAt(row, NOW_MS + 7 * MINUTE + PROCESS_LIVE_MS)).not.toHaveProperty(
			'dedupeNotice',
		);
	});

	it('malformed markers → no notice, and the next save drops them', async () => {
		const row = newWorkflow('wf-marker-malformed');
		await deliverAt(row, NOW_MS);
		(row.staticData.global as IDataObject)[markerKey(row)] = {
			...markersOf(row),
			notAMarker: 'x',
			tooShort: [NOW_MS],
			notNumbers: ['a', 'b'],
			three: [NOW_MS, NOW_MS, NOW_MS],
		} as unknown as IDataObject;
		expect(await deliverAt(row, NOW_MS + MINUTE)).not.toHaveProperty('dedupeNotice');
		expect(Object.keys(markersOf(row))).toEqual([thisProcess.id]);
		(row.staticData.global as IDataObject)[markerKey(row)] = null as unknown as IDataObject;
		expect(await deliverAt(row, NOW_MS + 2 * MINUTE)).not.toHaveProperty('dedupeNotice');
	});

	it('another live process and the store near its cap → both notes on the item', async () => {
		const row = newWorkflow('wf-marker-and-capacity');
		const store = new MemoryDedupeStore(SHIPPED);
		for (let i = 0; i < ATTACH_REDIS_FROM; i++) store.claimNow(`evt_old_${i}`, NOW_MS - HOUR);
		row.staticData = {
			global: { [snapshotKey(row.nodeId)]: store.snapshot() as unknown as IDataObject },
		};
		otherSaves(row, NOW_MS, NOW_MS);
		await deliverAt(row, NOW_MS);
		otherSaves(row, NOW_MS, NOW_MS + MINUTE);
		await deliverAt(row, NOW_MS + MINUTE);
		otherSaves(row, NOW_MS, NOW_MS + 7 * MINUTE);
		const notice = (await deliverAt(row, NOW_MS + 7 * MINUTE))?.dedupeNotice as string;
		expect(notice).toMatch(
			/^Another n8n process .* one record\. The GST Compliance Trigger's built-in dedupe store remembers 10,00\d event ids/,
		);
	});
});

describe('moving the ids saved by earlier versions (node static data, by node name)', () => {
	/** A row as an earlier version left it: the snapshot in `node:<name>`.dedupe. */
	const legacyRow = (id: string, eventIds: string[]) => {
		const store = new MemoryDedupeStore(SHIPPED);
		for (const eventId of eventIds) store.claimNow(eventId, NOW_MS - HOUR);
		const snapshot = store.snapshot();
		const row = { ...newWorkflow(id), staticData: { [LEGACY_KEY]: { dedupe: snapshot } } };
		return { row, snapshot };
	};

	it('webhook() with a legacy id after the upgrade → duplicate; that save moves the snapshot to global "dedupe:<node id>"', async () => {
		const { row, snapshot } = legacyRow('wf-legacy-duplicate', ['evt_legacy']);
		restart(row);
		expect(await deliver({ ...event('evt_legacy'), workflow: row })).toEqual(DUPLICATE);
		expect(row.staticData[LEGACY_KEY]).not.toHaveProperty('dedupe');
		expect(saved(row)).toEqual(snapshot);
	});

	it('webhook() with a new id after the upgrade → started; the legacy ids and the new one saved under the node id', async () => {
		const { row } = legacyRow('wf-legacy-start', ['evt_legacy']);
		restart(row);
		expect((await deliver({ ...event('evt_new'), workflow: row })).started).toHaveLength(1);
		expect(row.staticData[LEGACY_KEY]).not.toHaveProperty('dedupe');
		expect(saved(row)?.d.length).toBe(RECORD_CHARS);
		expect(saved(row)?.p).toEqual([['evt_new', NOW_MS]]);
		restart(row);
		expect(await deliver({ ...event('evt_legacy'), workflow: row })).toEqual(DUPLICATE);
		expect(await deliver({ ...event('evt_new'), workflow: row })).toEqual(NO_EXECUTION);
	});

	it('webhook() starting an event when a stale save brought the legacy ids back → the save drops them again', async () => {
		const { row } = legacyRow('wf-legacy-back', ['evt_legacy']);
		restart(row);
		await deliver({ ...event('evt_first'), workflow: row });
		expect(row.staticData[LEGACY_KEY]).not.toHaveProperty('dedupe');
		// Another trigger's request, loaded before the move, saved its copy.
		(row.staticData[LEGACY_KEY] as IDataObject).dedupe = { v: 1, base: 0, d: '' };
		await deliver({ ...event('evt_second'), workflow: row });
		expect(row.staticData[LEGACY_KEY]).not.toHaveProperty('dedupe');
	});

	it('webhook() when both keys exist → the node-id key is read, the legacy one left alone', async () => {
		const { row } = legacyRow('wf-legacy-both', ['evt_only_legacy']);
		const current = new MemoryDedupeStore(SHIPPED);
		current.claimNow('evt_only_current', NOW_MS - HOUR);
		(row.staticData as IDataObject).global = {
			[snapshotKey(row.nodeId)]: current.snapshot() as unknown as IDataObject,
		};
		restart(row);
		expect(await deliver({ ...event('evt_only_current'), workflow: row })).toEqual(DUPLICATE);
		expect((await deliver({ ...event('evt_only_legacy'), workflow: row })).started).toHaveLength(1);
	});
});

describe('executions n8n runs without the workflow’s static data (recovered after a restart, Retry, a queue worker)', () => {
	it('a recovered execution is the first thing after a restart → the saved ids survive it and the next acceptance: copies of events done before are duplicates', async () => {
		const row = newWorkflow('wf-recovered-first');
		for (const id of ['evt_done_1', 'evt_done_2'])
			expect((await deliver({ ...event(id), workflow: row })).started).toHaveLength(1);
		const waiting = await deliver({ ...event('evt_waiting'), workflow: row, execution: 'later' });
		restart(row);
		// n8n runs the queued execution again from its row: no static data.
		expect((await waiting.execution!({ withoutStaticData: true })).items).toHaveLength(1);
		expect((await deliver({ ...event('evt_next'), workflow: row })).started).toHaveLength(1);
		for (const id of ['evt_done_1', 'evt_done_2', 'evt_waiting'])
			expect(await deliver({ ...event(id), workflow: row })).toEqual(DUPLICATE);
		restart(row);
		for (const id of ['evt_done_1', 'evt_done_2', 'evt_waiting', 'evt_next'])
			expect(await deliver({ ...event(id), workflow: row })).toMatchObject(NO_EXECUTION);
	});

	it('a copy taken again past the Missed Event Warning while the first execution waited; the first runs and its start is saved; a restart; n8n runs the copy’s execution again before any delivery → it reads the saved ids first and ends empty (review 6, N1)', async () => {
		const row = newWorkflow('wf-retaken-recovered');
		const first = await deliver({ ...event('evt_E'), workflow: row, execution: 'later' });
		const later = NOW_MS + 31 * 60_000;
		jest.spyOn(Date, 'now').mockReturnValue(later);
		const copy = await deliver({ ...eventAt('evt_E', later), workflow: row, execution: 'later' });
		expect(copy.execution).toBeDefined();
		expect((await first.execution!()).items).toHaveLength(1);
		// The next acceptance saves E's start with the store.
		await deliver({ ...eventAt('evt_F', later), workflow: row });
		restart(row);
		const recovered = await copy.execution!({ withoutStaticData: true });
		expect(recovered.items).toEqual([]);
		expect(recovered.hints).toEqual([expect.stringContaining('"evt_E" was already started')]);
	});

	it('the same, where n8n cannot reach its own Production URL → the execution fails holding its event, to retry once a delivery has reached the trigger; that Retry ends empty', async () => {
		const row = newWorkflow('wf-retaken-unreachable');
		const unreachable = { webhookBaseUrl: 'http://127.0.0.1:9/webhook' };
		const first = await deliver({ ...event('evt_E'), workflow: row, execution: 'later' });
		const later = NOW_MS + 31 * 60_000;
		jest.spyOn(Date, 'now').mockReturnValue(later);
		const copy = await deliver({
			...eventAt('evt_E', later),
			workflow: row,
			execution: 'later',
			...unreachable,
		});
		expect((await first.execution!()).items).toHaveLength(1);
		await deliver({ ...eventAt('evt_F', later), workflow: row });
		restart(row);
		const sleep = jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		await expect(copy.execution!({ withoutStaticData: true })).rejects.toMatchObject({
			message: expect.stringContaining('cannot tell whether its event already started'),
			description: expect.stringContaining(
				'retry it from the executions list once a delivery has reached the trigger',
			),
		});
		sleep.mockRestore();
		await deliver({ ...eventAt('evt_G', later), workflow: row });
		expect((await copy.execution!({ withoutStaticData: true })).items).toEqual([]);
	});

	it('a recovered execution first, then an event lost at the crash → still named past the Missed Event Warning', async () => {
		const row = newWorkflow('wf-recovered-lost');
		await deliver({ ...event('evt_lost'), workflow: row, execution: 'later' });
		const waiting = await deliver({ ...event('evt_waiting'), workflow: row, execution: 'later' });
		restart(row);
		await waiting.execution!({ withoutStaticData: true });
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 31 * 60_000);
		const next = await deliver({ ...eventAt('evt_later', NOW_MS + 31 * 60_000), workflow: row });
		expect(next.started?.[0]?.dedupeNotice).toContain('"evt_lost"');
	});
});

describe('an execution on another n8n process than the one that accepted its delivery, while both run (a queue-mode worker)', () => {
	/**
	 * The Production URL as a queue-mode worker reaches it: served by another n8n process (a main
	 * or a webhook process), which answers the trigger's probe 204 without this process's store.
	 */
	let elsewhere: { baseUrl: string; close: () => void };
	beforeAll(async () => {
		const server = createServer((_req, res) => void res.writeHead(204).end());
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		elsewhere = {
			baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
			close: () => server.close(),
		};
	});
	afterAll(() => elsewhere.close());
	/** The execution runs on a process that was running before the delivery: a worker. */
	const onWorker = () => {
		dedupeRegistry.clear();
	};

	it('execute() → fails holding its event, saying to attach a Redis credential; nothing started', async () => {
		const row = newWorkflow('wf-worker');
		const first = await deliver({
			...event('evt_on_worker'),
			workflow: row,
			execution: 'later',
			webhookBaseUrl: elsewhere.baseUrl,
		});
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS - HOUR);
		onWorker();
		// What happened as the title, what to do under it.
		await expect(first.execution!({ withoutStaticData: true })).rejects.toMatchObject({
			message: expect.stringMatching(
				/another n8n process than the one that received its delivery.*lives in one process\.$/,
			),
			description: expect.stringMatching(
				/^Attach a GST Compliance Dedupe Redis credential.*once the credential is attached/,
			),
		});
		// The title and the remedy are said once each.
		const error = (await first.execution!({ withoutStaticData: true }).catch(
			(caught: unknown) => caught,
		)) as { description: string };
		expect(error.description).not.toContain('another n8n process');
		expect(
			error.description.match(/Attach a GST Compliance Dedupe Redis credential/g),
		).toHaveLength(1);
	});

	it('execute() on a worker whose clock is 2 min ahead of the process that accepted (review 6, N5) → fails holding its event, saying to attach a Redis credential: no clocks compared', async () => {
		const row = newWorkflow('wf-worker-ahead');
		const first = await deliver({
			...event('evt_worker_ahead'),
			workflow: row,
			execution: 'later',
			webhookBaseUrl: elsewhere.baseUrl,
		});
		// Started a minute before the acceptance, by the accepting process's clock.
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 60_000);
		jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		onWorker();
		await expect(first.execution!({ withoutStaticData: true })).rejects.toMatchObject({
			message: expect.stringMatching(/another n8n process than the one that received/),
		});
	});

	it('execute() of a delivery accepted before this process started (n8n runs it again after a restart) → starts it', async () => {
		const row = newWorkflow('wf-after-restart');
		const first = await deliver({ ...event('evt_before'), workflow: row, execution: 'later' });
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 1);
		restart(row);
		expect((await first.execution!({ withoutStaticData: true })).items).toHaveLength(1);
	});

	it('execute() run again after a restart across a clock stepped back 10 min (review 6, N4) → starts it; a Retry of it, later in the same process → started again as its own', async () => {
		const row = newWorkflow('wf-clock-back');
		// Accepted while the host's clock ran 10 min fast; the restart comes after NTP set it back.
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 10 * 60_000);
		const first = await deliver({
			...eventAt('evt_clock_back', NOW_MS + 10 * 60_000),
			workflow: row,
			execution: 'later',
		});
		jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
		restart(row);
		expect((await first.execution!({ withoutStaticData: true })).items).toHaveLength(1);
		expect((await first.execution!({ withoutStaticData: true })).items).toHaveLength(1);
	});

	it('execute() of an item queued by an earlier version (no acceptance carried) → starts it', async () => {
		const row = newWorkflow('wf-old-item');
		onWorker();
		const run = await firstStepWith(
			[{ [output.DELIVERED_FIELD]: { id: 'evt_old_item', type: 'einvoice.generated' } }],
			row,
		);
		expect(run.items).toHaveLength(1);
	});
});

describe('an execution that fails before its event starts', () => {
	it('execute() whose item cannot be built → the execution fails holding its event; retried, it starts it once', async () => {
		const row = newWorkflow('wf-build-fails');
		jest.spyOn(output, 'buildOutput').mockRejectedValueOnce(new Error('output failed'));
		const first = await deliver({ ...event('evt_build'), workflow: row, execution: 'later' });
		await expect(first.execution!()).rejects.toThrow('output failed');
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await deliver({ ...event('evt_build'), workflow: row })).toEqual(DUPLICATE);
	});
});

describe('what an execution does to static data', () => {
	/** Another node's execution saves its counter while this delivery's execution waits for a slot. */
	const counterSavedMeanwhile = (row: WorkflowRow) => async () => {
		row.staticData = {
			...row.staticData,
			global: { ...(row.staticData.global as IDataObject), counter: 42 },
		};
	};

	it('webhook() answered at once → its save comes before the queue wait: a counter another node saves meanwhile stays 42', async () => {
		const row = newWorkflow('wf-counter-at-once');
		row.staticData = { global: { counter: 41 } };
		await deliver({
			...event('evt_counter'),
			workflow: row,
			beforeAnswer: counterSavedMeanwhile(row),
		});
		expect((row.staticData.global as IDataObject).counter).toBe(42);
		expect(saved(row)?.p).toEqual([['evt_counter', NOW_MS]]);
	});

	it('webhook() answered once the execution exists (n8n 2.0–2.33), the answer read after a concurrency wait → nothing written then: the counter another node saved meanwhile stays 42', async () => {
		const row = newWorkflow('wf-counter-after');
		row.staticData = { global: { counter: 41 } };
		const waited = await deliver({
			...event('evt_counter'),
			workflow: row,
			options: { acknowledge: 'afterExecutionCreated' },
			beforeAnswer: async () => {
				jest.spyOn(Date, 'now').mockReturnValue(NOW_MS + 5_000);
				await counterSavedMeanwhile(row)();
			},
		});
		expect(waited.started).toHaveLength(1);
		expect((row.staticData.global as IDataObject).counter).toBe(42);
		// The start is in the process's store, and saved with the next acceptance.
		expect(await deliver({ ...event('evt_counter'), workflow: row })).toEqual(DUPLICATE);
		await deliver({ ...eventAt('evt_after', NOW_MS + 5_000), workflow: row });
		restart(row);
		expect(await deliver({ ...event('evt_counter'), workflow: row })).toEqual(DUPLICATE);
		expect((row.staticData.global as IDataObject).counter).toBe(42);
	});

	it('webhook() answered once the execution exists, the answer read at once → saved with it', async () => {
		const row = newWorkflow('wf-answer-at-once');
		await deliver({
			...event('evt_quick'),
			workflow: row,
			options: { acknowledge: 'afterExecutionCreated' },
		});
		restart(row);
		expect(await deliver({ ...event('evt_quick'), workflow: row })).toEqual(DUPLICATE);
	});

	it('execute() → reads, never writes: n8n would save the copy it loaded before its queue wait over newer data', async () => {
		// The harness's execution throws if its static data changed (n8n saves it at the end).
		const row = newWorkflow('wf-execution-reads');
		const first = await deliver({ ...event('evt_1'), workflow: row, execution: 'later' });
		// Another node's execution saved meanwhile: a Code node's counter goes to 42.
		row.staticData.global = { ...(row.staticData.global as IDataObject), counter: 42 };
		await deliver({ ...event('evt_2'), workflow: row });
		restart(row); // the queued execution runs after a restart, with nothing in memory
		expect((await first.execution!()).items).toHaveLength(1);
		expect((row.staticData.global as IDataObject).counter).toBe(42);
	});

	it('one whole static-data save per accepted event, none for a copy or a start', async () => {
		const row = newWorkflow('wf-one-save');
		let saves = 0;
		let current = row.staticData;
		Object.defineProperty(row, 'staticData', {
			get: () => current,
			set: (value: IDataObject) => {
				saves++;
				current = value;
			},
		});
		for (let i = 0; i < 5; i++) await deliver({ ...event(`evt_${i}`), workflow: row });
		for (let i = 0; i < 5; i++) await deliver({ ...event(`evt_${i}`), workflow: row });
		expect(saves).toBe(5);
	});
});

describe('keeping deliveries of different workflows and modes apart', () => {
	it('webhook() with one id in two workflows → started in each', async () => {
		for (const id of ['wf1', 'wf2'])
			expect(
				(await deliver({ ...event('evt_1'), workflow: newWorkflow(id) })).started,
			).toHaveLength(1);
	});

	it('webhook() on the test URL → no ids kept: each listening session runs its event, nothing saved', async () => {
		const workflow = newWorkflow();
		for (const session of [1, 2])
			expect({
				session,
				started: (await deliver({ ...event('evt_1'), workflow, mode: 'manual' })).started?.length,
			}).toEqual({ session, started: 1 });
		expect(workflow.staticData).toEqual({});
		expect(dedupeRegistry.size).toBe(0);

		expect((await deliver({ ...event('evt_1'), workflow })).started).toHaveLength(1);
		expect((await deliver({ ...event('evt_1'), workflow, mode: 'manual' })).started).toHaveLength(
			1,
		);
	});

	it('webhook() on the test URL, then in production → the save holds production’s ids only', async () => {
		const workflow = newWorkflow('wf-test-then-production');
		await deliver({ ...event('evt_test_only'), workflow, mode: 'manual' });
		await deliver({ ...event('evt_production'), workflow });
		restart(workflow);
		expect((await deliver({ ...event('evt_test_only'), workflow })).started).toHaveLength(1);
		expect(await deliver({ ...event('evt_production'), workflow })).toEqual(NO_EXECUTION);
	});

	it('webhook() on the test URL after a restart → starts an id production saved; production still a duplicate', async () => {
		const workflow = newWorkflow();
		expect((await deliver({ ...event('evt_seen'), workflow })).started).toHaveLength(1);
		expect(workflow.staticData).not.toEqual({});
		restart(workflow);
		expect(
			(await deliver({ ...event('evt_seen'), workflow, mode: 'manual' })).started,
		).toHaveLength(1);
		expect(await deliver({ ...event('evt_seen'), workflow })).toEqual(NO_EXECUTION);
	});
});

describe('ids that differ only in unpaired UTF-16 surrogates', () => {
	// As UTF-8 all three are "evt_\ufffd": hashed that way they shared one key, and only the first
	// of the three events ever started.
	it('webhook() with ids "evt_\\ud800", "evt_\\udc00", "evt_\\ufffd" → each started once', async () => {
		const workflow = newWorkflow('wf-surrogates');
		const ids = ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd'];
		for (const id of ids) {
			const result = await deliver({ ...event(id), workflow });
			expect({ id, started: result.started?.map((item) => item.id) }).toEqual({
				id,
				started: [id],
			});
		}
		for (const id of ids)
			expect({ id, ...(await deliver({ ...event(id), workflow })) }).toEqual({ id, ...DUPLICATE });
	});
});

describe('telling the user, on the started item, when the built-in store should give way to Redis', () => {
	/** A workflow row whose trigger already remembers `size` ids from the last hour. */
	function rowRemembering(size: number): WorkflowRow {
		const row = newWorkflow(`wf-notice-${size}`);
		const store = new MemoryDedupeStore(SHIPPED);
		for (let i = 0; i < size; i++) store.claimNow(`evt_old_${i}`, NOW_MS - HOUR);
		row.staticData = {
			global: { [snapshotKey(row.nodeId)]: store.snapshot() as unknown as IDataObject },
		};
		return row;
	}

	it(`webhook() with ${ATTACH_REDIS_FROM.toLocaleString('en')} ids remembered → the item carries dedupeNotice naming the fix`, async () => {
		const result = await deliver({
			...event('evt_busy_store'),
			workflow: rowRemembering(ATTACH_REDIS_FROM),
		});
		expect(result.started).toHaveLength(1);
		expect(result.started?.[0].dedupeNotice).toMatch(
			/remembers 10,00\d event ids .*Attach a GST Compliance Dedupe Redis credential/,
		);
	});

	it('webhook() with fewer ids remembered → no dedupeNotice', async () => {
		const result = await deliver({ ...event('evt_quiet_store'), workflow: rowRemembering(100) });
		expect(result.started).toHaveLength(1);
		expect(result.started?.[0]).not.toHaveProperty('dedupeNotice');
	});
});
