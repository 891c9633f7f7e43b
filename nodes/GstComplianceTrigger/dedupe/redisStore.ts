/**
 * Which event ids were already started, in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, several mains). One key per workflow + node + namespace + event-id
 * digest, so nothing grows without bound: Redis expires each key at the end of its window. One
 * claim touches one key only, so the store works the same on a Redis Cluster.
 *
 * The lifecycle's steps (lifecycle.ts) are each one atomic script on that key:
 * - claim: free (absent, or a lapsed lease) → `p:<token>:<until>` for the lease; `d:<until>` →
 *   duplicate; a live `p:` of another delivery → busy (answered 409, the service retries).
 * - renew: extends this delivery's own lease (or takes back a lapsed one nobody else took).
 * - commit: `d:<until>` for the whole window, whoever holds a lease.
 * - release: deletes the key if it is still this delivery's lease.
 * Times are the delivering process's clock (passed in, so tests drive them); each value is also
 * written with `PX` for the time it stays meaningful, so Redis drops it by itself. Keys written by
 * earlier versions (`p` and `d` without a time) are read as a live lease and a started id.
 */
import { randomUUID } from 'crypto';

import { eventDigest } from './eventDigest';
import type { Claim, ClaimResult, ClaimStore } from './lifecycle';
import { command, type RedisClient, type RedisConnection } from './redisConnection';

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

/** Reads a value: kind ('p', 'd' or false), the lease's token, and its end (math.huge if none). */
const READ = `
local function read(key)
  local v = redis.call('GET', key)
  if not v then return false, nil, 0 end
  local kind, rest = string.match(v, '^([pd]):?(.*)$')
  if not kind then return false, nil, 0 end
  if rest == '' then return kind, nil, math.huge end
  if kind == 'd' then return kind, nil, tonumber(rest) or math.huge end
  local token, untilMs = string.match(rest, '^(.*):(%d+)$')
  return kind, token, tonumber(untilMs) or math.huge
end
`;

/** KEYS[1]; ARGV: now, leaseMs, token. Returns 'claimed', 'duplicate' or 'busy'. */
const CLAIM = `${READ}
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local kind, _, untilMs = read(KEYS[1])
if kind and untilMs > now then
  if kind == 'd' then return 'duplicate' end
  return 'busy'
end
redis.call('SET', KEYS[1], 'p:' .. ARGV[3] .. ':' .. (now + lease), 'PX', lease)
return 'claimed'
`;

/** KEYS[1]; ARGV: now, leaseMs, token. Returns 1 when the lease is this delivery's now. */
const RENEW = `${READ}
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local kind, token, untilMs = read(KEYS[1])
if kind == 'd' then return 0 end
if kind == 'p' and token ~= ARGV[3] and untilMs > now then return 0 end
redis.call('SET', KEYS[1], 'p:' .. ARGV[3] .. ':' .. (now + lease), 'PX', lease)
return 1
`;

/** KEYS[1]; ARGV: now, windowMs. */
const COMMIT = `
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('SET', KEYS[1], 'd:' .. (now + window), 'PX', window)
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

	async claim(eventId: string, nowMs: number, leaseMs: number): Promise<ClaimResult> {
		const token = randomUUID();
		const result = await this.run(CLAIM, eventId, nowMs, leaseMs, token);
		if (result === 'claimed') return { kind: 'claimed', claim: { eventId, token } };
		return { kind: result === 'duplicate' ? 'duplicate' : 'busy' };
	}

	async renew(claim: Claim, nowMs: number, leaseMs: number): Promise<boolean> {
		return (await this.run(RENEW, claim.eventId, nowMs, leaseMs, claim.token)) === 1;
	}

	/** A retried commit passes its first attempt's time: the window is counted from then or later. */
	async commit(claim: Claim, nowMs: number): Promise<void> {
		await this.run(COMMIT, claim.eventId, nowMs, this.options.windowMs);
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
