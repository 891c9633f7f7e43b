/**
 * Which event ids were already started, in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, several mains). One key per workflow + node + namespace + event-id
 * digest, so nothing grows without bound: Redis expires each key at the end of its window.
 *
 * A claim takes two steps, so that a process lost between the claim and the start of the
 * execution neither loses the event nor lets a redelivery start it meanwhile:
 *   1. `SET <key> p NX PX <pendingMs>`: only one delivery of an id wins, across all processes.
 *      A redelivery that finds `p` is answered 409 (the first one is still being started; the
 *      service retries later) and starts nothing.
 *   2. `confirm()` once n8n has created the execution: `SET <key> d PX <windowMs>`. Every later
 *      redelivery inside the window finds `d` and is acknowledged as a duplicate.
 * If the process dies between the two steps, `p` expires after `pendingMs` and the service's next
 * retry starts the event once. If it dies after the execution is created but before `d` is
 * written (the width of one Redis round trip), a redelivery after `pendingMs` starts it again.
 */
import { createHash } from 'crypto';
import type { Redis } from 'ioredis';

import type { DedupeStore } from './memoryStore';
import { command, type RedisConnection } from './redisClient';

/** Longer than n8n takes to create and enqueue an execution, even under load. */
export const PENDING_MS = 30_000;
const PENDING = 'p';
const DONE = 'd';
export const KEY_PREFIX = 'n8n-gst-compliance:dedupe:v1';

/** A redelivery arrived while the first delivery of the same id is still being started. */
export class DedupeInProgressError extends Error {
	constructor() {
		super('A delivery of this event is being processed; retry later');
		this.name = 'DedupeInProgressError';
	}
}

export interface RedisStoreOptions {
	/** `<workflow id>:<node id>:<production|test>`, as the single-process store keys its memory. */
	scope: string;
	windowMs: number;
	pendingMs?: number;
}

/** 132 bits of SHA-256, base64url: ids of any length make keys of one size. */
export function eventKey(scope: string, eventId: string): string {
	const digest = createHash('sha256').update(eventId).digest('base64url').slice(0, 22);
	return `${KEY_PREFIX}:${scope}:${digest}`;
}

export class RedisDedupeStore implements DedupeStore {
	private readonly pendingMs: number;

	constructor(
		private readonly client: Pick<Redis, 'set' | 'get'>,
		private readonly connection: RedisConnection,
		private readonly options: RedisStoreOptions,
	) {
		// A pending claim never outlives the window itself.
		this.pendingMs = Math.min(options.pendingMs ?? PENDING_MS, options.windowMs);
	}

	/**
	 * True: this delivery starts the event (confirm it once the execution exists). False: a
	 * duplicate. Throws DedupeInProgressError (answer 409) or DedupeUnavailableError (answer 503).
	 * The delivery's time is not needed: Redis' own clock expires the keys.
	 */
	async claim(eventId: string): Promise<boolean> {
		const key = eventKey(this.options.scope, eventId);
		// Twice at most: a key can expire between a refused SET and the GET that reads it.
		for (let attempt = 0; attempt < 2; attempt++) {
			const set = await command(this.connection, () =>
				this.client.set(key, PENDING, 'PX', this.pendingMs, 'NX'),
			);
			if (set === 'OK') return true;
			const state = await command(this.connection, () => this.client.get(key));
			if (state === DONE) return false;
			if (state === PENDING) throw new DedupeInProgressError();
		}
		throw new DedupeInProgressError();
	}

	/** Step 2: the execution exists; remember the id for the whole window. */
	async confirm(eventId: string): Promise<void> {
		const key = eventKey(this.options.scope, eventId);
		await command(this.connection, () => this.client.set(key, DONE, 'PX', this.options.windowMs));
	}
}
