/**
 * Which event ids were already started, in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, several mains). One key per workflow + node + namespace + event-id
 * digest, so nothing grows without bound: Redis expires each key at the end of its window. One
 * claim touches one key only, so the store works the same on a Redis Cluster.
 *
 * The lifecycle's steps (lifecycle.ts) are each one atomic script on that key:
 * - claim: free (no key) → `p:<token>` for the lease; `d` → duplicate; a `p:` of another delivery
 *   → busy (answered 409, the service retries).
 * - renew: extends this delivery's own lease (or takes back a lapsed one nobody else took).
 * - commit: `d` for the whole window, whoever holds a lease.
 * - release: deletes the key if it is still this delivery's lease.
 * A value lives exactly as long as its `PX` (the lease, or the window), so a key that exists is
 * live and Redis's clock alone decides when a lease lapses or an id is forgotten: the processes'
 * clocks may disagree (two webhook processes 45 s apart both accept a signed delivery) and are never
 * compared. The times the lifecycle passes are therefore unused here, except a retried commit's
 * elapsed time on its own clock (see `commit`). Values of earlier versions (`p:<token>:<until>`, `d:<until>`, bare `p` and `d`)
 * were written with a `PX` of their own too, so they read the same way: a live lease, a started id.
 */
import { randomUUID } from 'crypto';

import { eventDigest } from './eventDigest';
import type { Claim, ClaimResult, ClaimStore } from './lifecycle';
import { command, type RedisClient } from './redisConnection';
import { type RedisConnection } from './redisSettings';

export const KEY_PREFIX = 'n8n-gst-compliance:dedupe:v1';

export interface RedisStoreOptions {
	/** `<workflow id>:<node id>:<production|test>`, as the single-process store keys its memory. */
	scope: string;
	windowMs: number;
}

/** 132 bits of SHA-256, base64url: ids of any length make keys of one size. */
export function eventKey(scope: string, eventId: string): string {
	return `${KEY_PREFIX}:${scope}:${eventDigest(eventId).slice(0, 22)}`;
}

/**
 * Reads a value: its kind ('p', 'd' or false for none) and a lease's token (nil for a bare `p`).
 * Tokens are UUIDs, so the token ends at the first ':' (earlier versions appended `:<until>`).
 */
const READ = `
local function read(key)
  local v = redis.call('GET', key)
  if not v then return false, nil end
  local kind = string.match(v, '^([pd])')
  if not kind then return false, nil end
  return kind, string.match(v, '^p:([^:]+)')
end
`;

/** KEYS[1]; ARGV: leaseMs, token. Returns 'claimed', 'duplicate' or 'busy'. */
const CLAIM = `${READ}
local kind = read(KEYS[1])
if kind == 'd' then return 'duplicate' end
if kind == 'p' then return 'busy' end
redis.call('SET', KEYS[1], 'p:' .. ARGV[2], 'PX', ARGV[1])
return 'claimed'
`;

/** KEYS[1]; ARGV: leaseMs, token. Returns 1 when the lease is this delivery's now. */
const RENEW = `${READ}
local kind, token = read(KEYS[1])
if kind == 'd' then return 0 end
if kind == 'p' and token ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], 'p:' .. ARGV[2], 'PX', ARGV[1])
return 1
`;

/** KEYS[1]; ARGV: the window's remaining ms. */
const COMMIT = `
redis.call('SET', KEYS[1], 'd', 'PX', ARGV[1])
return 1
`;

/** KEYS[1]; ARGV: token. */
const RELEASE = `${READ}
local kind, token = read(KEYS[1])
if kind == 'p' and token == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

export class RedisDedupeStore implements ClaimStore {
	constructor(
		private readonly client: Pick<RedisClient, 'eval'>,
		private readonly connection: RedisConnection,
		private readonly options: RedisStoreOptions,
	) {}

	/** `nowMs` is unused: Redis expires the lease `leaseMs` after it writes it. */
	async claim(eventId: string, _nowMs: number, leaseMs: number): Promise<ClaimResult> {
		const token = randomUUID();
		const result = await this.run(CLAIM, eventId, leaseMs, token);
		if (result === 'claimed') return { kind: 'claimed', claim: { eventId, token } };
		return { kind: result === 'duplicate' ? 'duplicate' : 'busy' };
	}

	/** `nowMs` is unused, as for `claim`. */
	async renew(claim: Claim, _nowMs: number, leaseMs: number): Promise<boolean> {
		return (await this.run(RENEW, claim.eventId, leaseMs, claim.token)) === 1;
	}

	/**
	 * Remembers the id for the window from `fromMs`: Redis keeps it for the window less the time
	 * this process's clock says has passed since then (a retried commit), never comparing clocks.
	 */
	async commit(claim: Claim, fromMs: number, nowMs = fromMs): Promise<void> {
		const remainingMs = this.options.windowMs - Math.max(0, nowMs - fromMs);
		await this.run(COMMIT, claim.eventId, remainingMs);
	}

	async release(claim: Claim): Promise<void> {
		await this.run(RELEASE, claim.eventId, claim.token);
	}

	private async run(script: string, eventId: string, ...args: Array<string | number>) {
		const key = eventKey(this.options.scope, eventId);
		// Redis takes whole milliseconds only (`PX 1.5` is an error).
		const whole = args.map((arg) => (typeof arg === 'number' ? Math.max(1, Math.ceil(arg)) : arg));
		return await command(
			this.connection,
			async () => await this.client.eval(script, 1, key, ...whole),
		);
	}
}
