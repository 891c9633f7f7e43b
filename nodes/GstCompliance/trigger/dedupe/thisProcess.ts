/**
 * This n8n process as the acceptances it makes name it (`AcceptanceMark.process`, lifecycle.ts),
 * whichever store keeps them, and as the built-in store's markers do (memory/processMarkers.ts): a
 * random id, since n8n gives a node no id of its process, and when it saved its first delivery.
 */
import { randomUUID } from 'crypto';

import type { AcceptanceMark } from './lifecycle';

export interface ThisProcess {
	id: string;
	/** When it saved its first delivery into static data (its marker's start). */
	startedMs?: number;
}

export const thisProcess: ThisProcess = { id: newId() };

/** A new acceptance by this process at `nowMs`, with a token of its own. */
export function newAcceptanceMark(nowMs: number): AcceptanceMark {
	return { token: randomUUID(), process: thisProcess.id, acceptedMs: nowMs };
}

/** A process of its own, as a restart gives (the tests' restart: registry.ts `clear`). */
export function renewThisProcess(): void {
	thisProcess.id = newId();
	delete thisProcess.startedMs;
}

function newId(): string {
	return randomUUID().slice(0, 8);
}
