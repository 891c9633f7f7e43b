/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The built-in store as a trigger uses it (memory/memoryLedger.ts), on plain static-data objects:
 * what a webhook's acceptance writes, what an execution never writes, the Test URL's own memory,
 * the move of an earlier version's snapshot, and the warning about another process. n8n's own
 * static-data handling around it is in test/integration/…/dedupe/memory/memoryLedger.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { settings } from '@/nodes/GstCompliance/settings';
import {
	ANSWER_FRESH_MS,
	READ_SAVED_DELAYS_MS,
	memoryLedger,
	type MemorySite,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryLedger';
import {
	AcceptedElsewhereError,
	SavedIdsUnreadError,
	OVERLAP_MS,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/processMarkers';
import { processesKey, snapshotKey } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { MemoryDedupeStore } from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import { thisProcess } from '@/nodes/GstCompliance/trigger/dedupe/thisProcess';

const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
const WITHIN = 30 * 60_000;
const OPTIONS = { windowMs: 24 * 3_600_000, capacity: 1_000 };

/** A site over plain static data; `deletes` counts deletions from the node's static data. */
function site(
	overrides: Partial<MemorySite> = {},
	data: { global?: IDataObject; node?: IDataObject } = {},
) {
	const global = data.global ?? {};
	let deletes = 0;
	const node = new Proxy(data.node ?? {}, {
		deleteProperty(target, key) {
			deletes++;
			return Reflect.deleteProperty(target, key);
		},
	});
	const warnings: string[] = [];
	const s: MemorySite = {
		workflowId: 'wf',
		nodeId: 'n1',
		writable: true,
		staticData: (type) => (type === 'global' ? global : node),
		warn: (message) => warnings.push(message),
		...overrides,
	};
	return { site: s, global, node, warnings, deletes: () => deletes };
}

beforeEach(() => dedupeRegistry.clear());

describe('what an acceptance writes', () => {
	it('accept of a new id → the snapshot (the id pending) and this process’s marker in the global static data', async () => {
		const { site: s, global } = site();
		expect(await memoryLedger(s, OPTIONS).accept('evt_1', NOW, WITHIN)).toEqual({
			kind: 'accepted',
		});
		expect(global[snapshotKey('n1')]).toMatchObject({ p: [['evt_1', NOW]] });
		expect(Object.keys(global[processesKey('n1')] as IDataObject)).toHaveLength(1);
	});

	it('accept retaking an id past the Start Deadline → written again with its new time', async () => {
		const { site: s, global } = site();
		const ledger = memoryLedger(s, OPTIONS);
		await ledger.accept('evt_1', NOW, WITHIN);
		expect((await ledger.accept('evt_1', NOW + WITHIN, WITHIN)).kind).toBe('retaken');
		expect(global[snapshotKey('n1')]).toMatchObject({ p: [['evt_1', NOW + WITHIN]] });
	});

	it('accept of a copy (on its way, or started) → nothing written', async () => {
		const { site: s, global } = site();
		const ledger = memoryLedger(s, OPTIONS);
		await ledger.accept('evt_1', NOW, WITHIN);
		delete global[snapshotKey('n1')];
		expect((await ledger.accept('evt_1', NOW + 1, WITHIN)).kind).toBe('onItsWay');
		await ledger.start('evt_1', NOW + 2);
		expect((await ledger.accept('evt_1', NOW + 3, WITHIN)).kind).toBe('duplicate');
		expect(global).not.toHaveProperty(snapshotKey('n1'));
	});

	it('no earlier version’s snapshot → nothing deleted from the node’s static data', async () => {
		const { site: s, deletes } = site();
		await memoryLedger(s, OPTIONS).accept('evt_1', NOW, WITHIN);
		expect(deletes()).toBe(0);
	});

	it('an earlier version’s snapshot in the node’s static data → moved to the global key, its ids remembered', async () => {
		const legacy = new MemoryDedupeStore(OPTIONS);
		await legacy.start('evt_old', NOW);
		const moved = site({}, { node: { dedupe: legacy.snapshot() as unknown as IDataObject } });
		const ledger = memoryLedger(moved.site, OPTIONS);
		expect(await ledger.accept('evt_old', NOW, WITHIN)).toEqual({ kind: 'duplicate' });
		await ledger.accept('evt_new', NOW, WITHIN);
		expect(moved.node).not.toHaveProperty('dedupe');
		expect(moved.deletes()).toBe(1);
		expect((moved.global[snapshotKey('n1')] as IDataObject).d).toBe(legacy.snapshot().d);
	});
});

describe('what an execution writes: nothing', () => {
	it('an execution’s start, accept and answer → its static data untouched', async () => {
		const { site: s, global } = site({ writable: false });
		const ledger = memoryLedger(s, OPTIONS);
		expect(await ledger.start('evt_1', NOW)).toBe('started');
		expect(await ledger.accept('evt_3', NOW, WITHIN)).toEqual({ kind: 'accepted' });
		ledger.answered('evt_2', NOW);
		expect(global).toEqual({});
	});

	it('an execution’s accepts while another process’s marker keeps changing → no warning (only a webhook reads markers)', async () => {
		const key = processesKey('n1');
		const global = { [key]: { other: [NOW - 1, NOW] } };
		const { site: s, warnings } = site({ writable: false }, { global });
		const ledger = memoryLedger(s, OPTIONS);
		for (const [i, atMs] of [NOW, NOW + 1_000, NOW + 1_000 + OVERLAP_MS].entries()) {
			(global[key] as IDataObject).other = [NOW - 1, atMs];
			await ledger.accept(`evt_${i}`, atMs, WITHIN);
		}
		expect(warnings).toEqual([]);
		expect(ledger.notice()).toBeUndefined();
	});
});

describe('reading the saved snapshot: the row’s once, an execution’s only into a store nothing read', () => {
	const saved = () => {
		const store = new MemoryDedupeStore(OPTIONS);
		store.claimNow('evt_saved', NOW);
		return { [snapshotKey('n1')]: JSON.parse(JSON.stringify(store.snapshot())) as IDataObject };
	};

	it('an execution with no static data first, then a webhook → the webhook reads the row’s snapshot in', async () => {
		const execution = site({ writable: false });
		expect(await memoryLedger(execution.site, OPTIONS).start('evt_waiting', NOW)).toBe('started');
		const webhook = site({}, { global: saved() });
		const ledger = memoryLedger(webhook.site, OPTIONS);
		expect(await ledger.accept('evt_saved', NOW, WITHIN)).toEqual({ kind: 'duplicate' });
		expect(await ledger.accept('evt_waiting', NOW, WITHIN)).toEqual({ kind: 'duplicate' });
	});

	it('an execution with the snapshot in its static data, first after a restart → reads it: another acceptance’s execution of a saved event is a duplicate', async () => {
		const execution = site({ writable: false }, { global: saved() });
		expect(
			await memoryLedger(execution.site, OPTIONS).start('evt_saved', NOW, {
				token: 'other',
				process: thisProcess.id,
				acceptedMs: NOW,
			}),
		).toBe('duplicate');
	});

	it('the row’s snapshot is read once per process, an execution’s copy once, and an execution never after the row', () => {
		const merges = jest.spyOn(MemoryDedupeStore.prototype, 'merge');
		memoryLedger(site({ writable: false }, { global: saved() }).site, OPTIONS);
		memoryLedger(site({ writable: false }, { global: saved() }).site, OPTIONS);
		expect(merges).toHaveBeenCalledTimes(1);
		memoryLedger(site({}, { global: saved() }).site, OPTIONS);
		memoryLedger(site({}, { global: saved() }).site, OPTIONS);
		memoryLedger(site({ writable: false }, { global: saved() }).site, OPTIONS);
		expect(merges).toHaveBeenCalledTimes(2);
		merges.mockRestore();
	});
});

describe('an execution of a delivery another running process accepted', () => {
	const mark = (process: string, acceptedMs: number) => ({ token: 't', process, acceptedMs });

	it('start of a delivery another process accepted, whose probe another process answers (a queue-mode worker) → AcceptedElsewhereError; accepted by this process → started, no probe; whose probe this process answers (run again after a restart) → the saved ids read first, then started', async () => {
		// Answered by the process that serves the Production URL, without this process's store.
		const elsewhere = jest.fn(async () => undefined);
		const onWorker = memoryLedger({ ...site({ writable: false }).site, probe: elsewhere }, OPTIONS);
		const url = 'http://n8n/webhook/x';
		const error = await onWorker
			.start('evt_1', NOW, { ...mark('other', NOW - 1), url })
			.catch((e: Error) => e);
		expect(error).toBeInstanceOf(AcceptedElsewhereError);
		expect(error).toMatchObject({ name: 'AcceptedElsewhereError' });
		expect(elsewhere).toHaveBeenCalledTimes(1);
		expect(await onWorker.start('evt_3', NOW, mark(thisProcess.id, NOW + 1))).toBe('started');
		expect(elsewhere).toHaveBeenCalledTimes(1);
		// The probe's request: n8n runs the trigger's webhook in this process, which reads the row.
		const here = jest.fn(async () => void memoryLedger(site({}).site, OPTIONS));
		const recovered = memoryLedger({ ...site({ writable: false }).site, probe: here }, OPTIONS);
		expect(await recovered.start('evt_2', NOW, { ...mark('other', NOW + 1), url })).toBe('started');
		expect(here).toHaveBeenCalledTimes(1);
		expect(here).toHaveBeenCalledWith(url);
	});

	it('start of a delivery another process accepted, where nothing lets it read the saved ids (no probe, no URL) → SavedIdsUnreadError: it cannot tell', async () => {
		jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const ledger = memoryLedger(site({ writable: false }).site, OPTIONS);
		await expect(ledger.start('evt_4', NOW, mark('other', NOW))).rejects.toBeInstanceOf(
			SavedIdsUnreadError,
		);
		const failing = jest.fn(async () => {
			throw new Error('ECONNREFUSED');
		});
		const probing = memoryLedger({ ...site({ writable: false }).site, probe: failing }, OPTIONS);
		await expect(
			probing.start('evt_4', NOW, { ...mark('other', NOW), url: 'http://n8n/webhook/x' }),
		).rejects.toBeInstanceOf(SavedIdsUnreadError);
		expect(failing).toHaveBeenCalledTimes(READ_SAVED_DELAYS_MS.length);
		jest.restoreAllMocks();
	});

	it('probes at once, then waits 1, 2, 4, 8 and 15 s between probes; a probe without the URL to send it to is never made', async () => {
		const sleep = jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const failing = jest.fn(async () => {
			throw new Error('ECONNREFUSED');
		});
		const ledger = memoryLedger({ ...site({ writable: false }).site, probe: failing }, OPTIONS);
		await expect(ledger.start('evt_5', NOW, mark('other', NOW))).rejects.toBeInstanceOf(
			SavedIdsUnreadError,
		);
		expect(failing).not.toHaveBeenCalled();
		await expect(
			ledger.start('evt_5', NOW, { ...mark('other', NOW), url: 'http://n8n/webhook/x' }),
		).rejects.toBeInstanceOf(SavedIdsUnreadError);
		expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1_000, 2_000, 4_000, 8_000, 15_000]);
		jest.restoreAllMocks();
	});

	it('start in a process whose store has read the row (a delivery came first) → decides at once on it, no probe, whoever accepted', async () => {
		memoryLedger(site({}).site, OPTIONS);
		const probe = jest.fn(async () => undefined);
		const ledger = memoryLedger({ ...site({ writable: false }).site, probe }, OPTIONS);
		expect(
			await ledger.start('evt_6', NOW, { ...mark('other', NOW), url: 'http://n8n/webhook/x' }),
		).toBe('started');
		expect(probe).not.toHaveBeenCalled();
	});
});

describe('a copy of an accepted event, answered once its acceptance is shown saved', () => {
	it('durable(a copy) of an acceptance not shown saved yet → the copy’s request writes the store again, so n8n saves it; of one shown saved → writes nothing', async () => {
		const first = site({});
		const accepting = memoryLedger(first.site, OPTIONS);
		await accepting.accept('evt_c', NOW, WITHIN);
		const unsaved = site({}, { global: {} });
		const copy = memoryLedger(unsaved.site, OPTIONS);
		expect((await copy.accept('evt_c', NOW, WITHIN)).kind).toBe('onItsWay');
		expect(unsaved.global[snapshotKey('n1')]).toBeUndefined();
		void copy.durable('evt_c');
		expect(unsaved.global[snapshotKey('n1')]).toEqual(
			expect.objectContaining({ p: [['evt_c', NOW]] }),
		);
		// A request whose loaded static data lists it: shown saved.
		memoryLedger(site({}, { global: { ...unsaved.global } }).site, OPTIONS);
		const saved = site({}, { global: {} });
		const later = memoryLedger(saved.site, OPTIONS);
		await later.accept('evt_c', NOW, WITHIN);
		expect(later.durable('evt_c')).toBe(true);
		expect(saved.global[snapshotKey('n1')]).toBeUndefined();
	});
});

describe('startedElsewhere: a look before the refetch', () => {
	it('→ true only for an event another acceptance started', async () => {
		const ledger = memoryLedger(site({ writable: false }).site, OPTIONS);
		const token = (t: string) => ({
			token: t,
			process: thisProcess.id,
			acceptedMs: NOW,
		});
		expect(await ledger.startedElsewhere('evt_1', token('a'))).toBe(false);
		await ledger.start('evt_1', NOW, token('a'));
		expect(await ledger.startedElsewhere('evt_1', token('a'))).toBe(false);
		expect(await ledger.startedElsewhere('evt_1', token('b'))).toBe(true);
	});
});

describe('an answer n8n reads once the execution exists (2.0–2.33)', () => {
	it.each([
		['at ANSWER_FRESH_MS after the delivery → written with that read', ANSWER_FRESH_MS, true],
		['later → nothing written then; the start waits for the next save', ANSWER_FRESH_MS + 1, false],
	])('read %s', async (_, afterMs, written) => {
		const { site: s, global } = site();
		const ledger = memoryLedger(s, OPTIONS);
		await ledger.accept('evt_1', NOW, WITHIN);
		delete global[snapshotKey('n1')];
		ledger.answered('evt_1', NOW + afterMs);
		expect(global[snapshotKey('n1')] !== undefined).toBe(written);
		const [entry] = dedupeRegistry.ofWorkflow('wf');
		expect(entry.store.unsavedStarts).toBe(written ? 0 : 1);
	});
});

describe('another process receiving the same trigger’s deliveries', () => {
	it('accepts while another process’s marker keeps changing over OVERLAP_MS → one warning naming the key, the note on each item from then on', async () => {
		const key = processesKey('n1');
		const global = { [key]: { other: [NOW - 1, NOW] } };
		const { site: s, warnings } = site({}, { global });
		const ledger = memoryLedger(s, OPTIONS);
		const times = [NOW, NOW + 1_000, NOW + 1_000 + OVERLAP_MS, NOW + 2_000 + OVERLAP_MS];
		const notices: Array<string | undefined> = [];
		for (const [i, atMs] of times.entries()) {
			(global[key] as IDataObject).other = [NOW - 1, atMs];
			await ledger.accept(`evt_${i}`, atMs, WITHIN);
			notices.push(ledger.notice());
		}
		expect(notices).toEqual([
			undefined,
			undefined,
			expect.stringMatching(/^Another n8n process/),
			expect.stringMatching(/^Another n8n process/),
		]);
		expect(warnings).toEqual([expect.stringMatching(/\(wf:n1\)$/)]);
	});

	it('the warning after the clock stepped back → said again at once, not after as long as the step', async () => {
		const key = processesKey('n1');
		const global = { [key]: { other: [NOW - 1, NOW] } };
		const { site: s, warnings } = site({}, { global });
		const ledger = memoryLedger(s, OPTIONS);
		for (const [i, atMs] of [NOW, NOW + OVERLAP_MS, NOW + 2 * OVERLAP_MS].entries()) {
			(global[key] as IDataObject).other = [NOW - 1, atMs];
			await ledger.accept(`evt_step_${i}`, atMs, WITHIN);
		}
		expect(warnings).toHaveLength(1);
		await ledger.accept('evt_after_step', NOW + OVERLAP_MS - 3_600_000, WITHIN);
		expect(ledger.notice()).toMatch(/^Another n8n process/);
		expect(warnings).toHaveLength(2);
	});
});
