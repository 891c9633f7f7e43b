/**
 * The built-in store through its door (memory/memoryLedger.ts), as the trigger opens it for a
 * production delivery: over plain static data, for a trigger of its own. The bench fills and
 * measures it with the lifecycle's own steps, as the node does, never with the store's internals.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EventLedger } from '../nodes/GstCompliance/trigger/dedupe/lifecycle';
import { memoryLedger } from '../nodes/GstCompliance/trigger/dedupe/memory/memoryLedger';
import { dedupeRegistry } from '../nodes/GstCompliance/trigger/dedupe/memory/registry';
import { snapshotKey } from '../nodes/GstCompliance/trigger/dedupe/keys';

/** The node's default Start Deadline. */
export const START_WITHIN_MS = 30 * 60_000;

let triggers = 0;

export interface BenchLedger {
	ledger: EventLedger;
	/** The workflow's global static data, as n8n would save it after each acceptance. */
	global: IDataObject;
	/** What the store saved last (the snapshot under the node's key). */
	saved(): unknown;
}

/**
 * A new trigger's built-in ledger, remembering ids for `windowMs` (capacity: the node's own), in a
 * workflow of its own: a save writes every trigger of its workflow.
 */
export function builtInLedger(windowMs: number): BenchLedger {
	const global: IDataObject = {};
	const node: IDataObject = {};
	const nodeId = `bench-node-${++triggers}`;
	const ledger = memoryLedger(
		{
			workflowId: `bench-workflow-${triggers}`,
			nodeId,
			writable: true,
			staticData: (type) => (type === 'global' ? global : node),
			warn: () => undefined,
		},
		{ windowMs },
	);
	return { ledger, global, saved: () => global[snapshotKey(nodeId)] };
}

/**
 * Remembers `count` events started, the i-th at `atMs(i)`: started one by one, then the last
 * accepted and marked started as n8n reads its answer, in the save that carries them all.
 */
export async function fill(
	ledger: EventLedger,
	count: number,
	idOf: (i: number) => string,
	atMs: (i: number) => number,
): Promise<void> {
	for (let i = 0; i < count - 1; i++) await ledger.start(idOf(i), atMs(i));
	const last = count - 1;
	if ((await ledger.accept(idOf(last), atMs(last), START_WITHIN_MS)).kind !== 'accepted')
		throw new Error('the last filling event was not accepted');
	ledger.answered(idOf(last), atMs(last));
}

/** Lets go of every built-in ledger the bench opened (the process's registry of stores). */
export function releaseBuiltInLedgers(): void {
	dedupeRegistry.clear();
}
