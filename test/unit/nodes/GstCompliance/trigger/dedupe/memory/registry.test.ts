/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import {
	DedupeRegistry,
	IDLE_STORE_MS,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import { thisProcess } from '@/nodes/GstCompliance/trigger/dedupe/thisProcess';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';

const HOUR = 3_600_000;
const NOW_MS = Date.UTC(2025, 0, 15, 4, 30, 0);
const SHIPPED: DedupeOptions = { windowMs: 24 * HOUR + 300_000, capacity: 125_000 };
/** A window no longer than IDLE_STORE_MS: an unused store may go after IDLE_STORE_MS. */
const SHORT: DedupeOptions = { windowMs: HOUR, capacity: 125_000 };
const t = (workflowId: string, nodeId: string) => ({ workflowId, nodeId });

describe('DedupeRegistry', () => {
	it('get(trigger) → one store and capacity watch per trigger, reconfigured on each use; clear() → new stores', () => {
		const registry = new DedupeRegistry();
		const create = jest.fn(() => new MemoryDedupeStore(SHIPPED));
		const a = registry.get(t('wf', 'node'), SHIPPED, create);
		const b = registry.get(t('wf', 'node'), { windowMs: HOUR, capacity: 5 }, create);
		expect(a).toBe(b);
		expect(a.read).toBe('nothing');
		expect(a.store.capacity).toBe(5);
		expect(create).toHaveBeenCalledTimes(1);
		expect(registry.get(t('wf', 'other'), SHIPPED, create).store).not.toBe(a.store);
		registry.clear();
		expect(registry.get(t('wf', 'node'), SHIPPED, create).store).not.toBe(a.store);
	});
});

describe('DedupeRegistry: memory of triggers no longer used', () => {
	it('get() once a store went unused for IDLE_STORE_MS → it is dropped, unless an accepted event waits in it', async () => {
		const registry = new DedupeRegistry();
		const create = () => new MemoryDedupeStore(SHORT);
		const idle = registry.get(t('wf', 'idle'), SHORT, create, NOW_MS).store;
		const leased = registry.get(t('wf', 'leased'), SHORT, create, NOW_MS).store;
		leased.acceptNow('evt_waiting', NOW_MS, HOUR);
		registry.get(t('wf', 'other'), SHORT, create, NOW_MS + IDLE_STORE_MS + 1);
		expect(registry.size).toBe(2);
		expect(registry.get(t('wf', 'leased'), SHORT, create).store).toBe(leased);
		expect(registry.get(t('wf', 'idle'), SHORT, create).store).not.toBe(idle);
	});

	it('get() once a store went unused for IDLE_STORE_MS → kept while a start is not saved yet, dropped once a snapshot saved it', async () => {
		const registry = new DedupeRegistry();
		const create = () => new MemoryDedupeStore(SHORT);
		const store = registry.get(t('wf', 'started'), SHORT, create, NOW_MS).store;
		await store.start('evt_done', NOW_MS);
		const later = NOW_MS + IDLE_STORE_MS + 1;
		registry.get(t('wf', 'other'), SHORT, create, later);
		expect(registry.size).toBe(2);
		store.snapshot();
		registry.get(t('wf', 'other'), SHORT, create, later + 60_000);
		expect(registry.size).toBe(1);
		expect(registry.get(t('wf', 'started'), SHORT, create, later + 60_000).store).not.toBe(store);
	});
});

describe('DedupeRegistry: which stores a save writes, and when an unused one goes', () => {
	const create = () => new MemoryDedupeStore(SHORT);

	it('ofWorkflow(workflow) → that workflow’s stores only, not another workflow’s', () => {
		const registry = new DedupeRegistry();
		const a = registry.get(t('wf', 'a'), SHORT, create).store;
		const b = registry.get(t('wf', 'b'), SHORT, create).store;
		registry.get(t('wf', 'a'), SHORT, create);
		registry.get(t('other', 'a'), SHORT, create);
		expect(registry.ofWorkflow('wf').map((entry) => entry.store)).toEqual([a, b]);
	});

	it('idle stores are looked for at most once a minute (a busy instance holds many)', () => {
		const registry = new DedupeRegistry();
		const store = registry.get(t('wf', 'a'), SHORT, create, NOW_MS).store;
		registry.get(t('wf', 'b'), SHORT, create, NOW_MS + HOUR);
		// a is idle from NOW + 1 h + 1 ms, but the last look was at NOW + 1 h.
		registry.get(t('wf', 'b'), SHORT, create, NOW_MS + HOUR + 59_999);
		expect(registry.size).toBe(2);
		registry.get(t('wf', 'b'), SHORT, create, NOW_MS + HOUR + 60_000);
		expect(registry.size).toBe(1);
		expect(registry.get(t('wf', 'a'), SHORT, create, NOW_MS + HOUR + 60_000).store).not.toBe(store);
	});

	it('the shipped times: a store unused for exactly an hour stays, a millisecond more and it goes', () => {
		const registry = new DedupeRegistry();
		const store = registry.get(t('wf', 'a'), SHORT, create, NOW_MS).store;
		registry.get(t('wf', 'b'), SHORT, create, NOW_MS + HOUR);
		expect(registry.get(t('wf', 'a'), SHORT, create, NOW_MS + HOUR).store).toBe(store);
		registry.get(t('wf', 'b'), SHORT, create, NOW_MS + 2 * HOUR + 1);
		expect(registry.get(t('wf', 'a'), SHORT, create, NOW_MS + 2 * HOUR + 1).store).not.toBe(store);
	});

	it('a store whose window is longer than IDLE_STORE_MS → kept unused until the window has passed (every id it holds expired)', () => {
		const registry = new DedupeRegistry();
		const shipped = () => new MemoryDedupeStore(SHIPPED);
		const store = registry.get(t('wf', 'a'), SHIPPED, shipped, NOW_MS).store;
		registry.get(t('wf', 'b'), SHIPPED, shipped, NOW_MS + SHIPPED.windowMs);
		expect(registry.get(t('wf', 'a'), SHIPPED, shipped, NOW_MS + SHIPPED.windowMs).store).toBe(
			store,
		);
		const past = NOW_MS + 2 * SHIPPED.windowMs + 1;
		registry.get(t('wf', 'b'), SHIPPED, shipped, past);
		expect(registry.get(t('wf', 'a'), SHIPPED, shipped, past).store).not.toBe(store);
	});
});

describe('this process, as its marker names it', () => {
	it('thisProcess → started at the first get and not moved by later ones; clear() → a new id, not started yet', () => {
		const registry = new DedupeRegistry();
		registry.clear();
		expect(thisProcess.startedMs).toBeUndefined();
		const create = () => new MemoryDedupeStore(SHIPPED);
		const entry = registry.get(t('wf', 'a'), SHIPPED, create, NOW_MS);
		registry.get(t('wf', 'a'), SHIPPED, create, NOW_MS + 5_000);
		expect(thisProcess.startedMs).toBe(NOW_MS);
		expect(entry.others.said).toBeUndefined();
		const before = thisProcess.id;
		registry.clear();
		expect(thisProcess.id).not.toBe(before);
		expect(thisProcess.startedMs).toBeUndefined();
	});
});

describe('the idle sweep after the clock steps back', () => {
	it('get() at a time before the last sweep → looks again at once: a store idle by then is dropped', async () => {
		const registry = new DedupeRegistry();
		const create = () => new MemoryDedupeStore(SHORT);
		const old = registry.get(t('wf', 'old'), SHORT, create, NOW_MS).store;
		old.acceptNow('evt_waiting', NOW_MS, HOUR);
		// Swept 5 h on: kept, an event waits in it.
		registry.get(t('wf', 'other'), SHORT, create, NOW_MS + 5 * HOUR);
		expect(registry.size).toBe(2);
		await old.start('evt_waiting', NOW_MS);
		old.snapshot();
		// The clock steps back to 4 h on: the store has been idle for 4 h, and is dropped.
		registry.get(t('wf', 'other'), SHORT, create, NOW_MS + 4 * HOUR);
		expect(registry.size).toBe(1);
	});
});
