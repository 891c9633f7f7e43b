/**
 * The lifecycle's ledger (../lifecycle.ts) in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, workers, several mains). One key per workflow + node + namespace +
 * event-id digest, expired by Redis at the end of its window, so nothing grows without bound; each
 * step touches that one key in one atomic script, so the store works the same on a Redis Cluster.
 *
 * - accept: free (no key) → `a:<accepted ms>`; `d` → duplicate; `a:` younger than the bound →
 *   on its way; older → taken again with the new time. A lease of an earlier version (`p:…`, at
 *   most 30 s long) counts as on its way.
 * - start: anything but `d` → `d` for the window (started); `d` → duplicate.
 * The accepted ids also go into one sorted set per trigger (`…:<scope>:accepted`, score the
 * accepted time, member the id itself), a second command on another key: `overdue` reads it, and
 * removes each id it looks at, so one process names each overdue event. Times are Redis's own
 * (`TIME` inside the scripts): the processes' clocks may disagree and are never compared. Values
 * of earlier versions (`d:<until>`, bare `d`) read as started.
 */
import type { Acceptance, EventLedger, OverdueEvent, Start } from '../lifecycle';
import { eventDigest } from '../eventDigest';
import { command, type RedisClient } from './redisConnection';
import { type RedisConnection } from './redisSettings';

export const KEY_PREFIX = 'n8n-gst-compliance:dedupe:v1';
/** How many overdue candidates one look reads. */
const OVERDUE_BATCH = 20;

export interface RedisStoreOptions {
	/** `<workflow id>:<node id>:<production|test>`, as the single-process store keys its memory. */
	scope: string;
	windowMs: number;
}

/** 132 bits of SHA-256, base64url: ids of any length make keys of one size. */
export function eventKey(scope: string, eventId: string): string {
	return `${KEY_PREFIX}:${scope}:${eventDigest(eventId).slice(0, 22)}`;
}

/** The sorted set of one trigger's accepted ids. */
export function acceptedKey(scope: string): string {
	return `${KEY_PREFIX}:${scope}:accepted`;
}

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS[1]; ARGV: windowMs, startWithinMs. Returns {kind, acceptedMs, nowMs}: kind 'accepted',
 * 'retaken', 'duplicate' or 'onItsWay'.
 */
const ACCEPT = `${NOW}
local v = redis.call('GET', KEYS[1])
if v then
  local kind = string.sub(v, 1, 1)
  if kind == 'd' then return {'duplicate', 0, now} end
  if kind == 'p' then return {'onItsWay', now, now} end
  if kind == 'a' then
    local at = tonumber(string.sub(v, 3))
    if at and now - at < tonumber(ARGV[2]) then return {'onItsWay', at, now} end
    redis.call('SET', KEYS[1], 'a:' .. now, 'PX', ARGV[1])
    return {'retaken', at or 0, now}
  end
end
redis.call('SET', KEYS[1], 'a:' .. now, 'PX', ARGV[1])
return {'accepted', now, now}
`;

/** KEYS[1]; ARGV: windowMs. Returns 'started' or 'duplicate'. */
const START = `
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == 'd' then return 'duplicate' end
redis.call('SET', KEYS[1], 'd', 'PX', ARGV[1])
return 'started'
`;

/**
 * KEYS[1] the accepted set; ARGV: startWithinMs, windowMs, batch. Drops entries older than the
 * window, returns {nowMs, id, score, id, score, …} of those older than the bound.
 */
const OVERDUE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
local out = {now}
for i = 1, #found do out[#out + 1] = found[i] end
return out
`;

export class RedisDedupeStore implements EventLedger {
	constructor(
		private readonly client: Pick<RedisClient, 'eval' | 'zadd' | 'zrem' | 'pexpire' | 'get'>,
		private readonly connection: RedisConnection,
		private readonly options: RedisStoreOptions,
	) {}

	/** `nowMs` is unused: Redis's clock decides the bound and the window. */
	async accept(eventId: string, _nowMs: number, startWithinMs: number): Promise<Acceptance> {
		const [kind, acceptedMs, nowMs] = (await this.script(
			ACCEPT,
			eventKey(this.options.scope, eventId),
			this.options.windowMs,
			startWithinMs,
		)) as [Acceptance['kind'], number, number];
		if (kind === 'accepted' || kind === 'retaken') await this.remember(eventId, Number(nowMs));
		if (kind === 'accepted') return { kind };
		if (kind === 'duplicate') return { kind };
		return { kind, acceptedMs: Number(acceptedMs) };
	}

	async start(eventId: string): Promise<Start> {
		const result = await this.script(
			START,
			eventKey(this.options.scope, eventId),
			this.options.windowMs,
		);
		await this.run(async () => await this.client.zrem(acceptedKey(this.options.scope), eventId));
		return result === 'duplicate' ? 'duplicate' : 'started';
	}

	async overdue(_nowMs: number, startWithinMs: number): Promise<OverdueEvent[]> {
		const setKey = acceptedKey(this.options.scope);
		const [, ...found] = (await this.script(
			OVERDUE,
			setKey,
			startWithinMs,
			this.options.windowMs,
			OVERDUE_BATCH,
		)) as Array<string | number>;
		const overdue: OverdueEvent[] = [];
		for (let i = 0; i + 1 < found.length; i += 2) {
			const eventId = String(found[i]);
			const acceptedMs = Number(found[i + 1]);
			// One process names it: whoever removes it from the set.
			const removed = await this.run(async () => await this.client.zrem(setKey, eventId));
			if (removed !== 1) continue;
			const value = await this.run(
				async () => await this.client.get(eventKey(this.options.scope, eventId)),
			);
			if (typeof value === 'string' && value.startsWith('a:')) overdue.push({ eventId, acceptedMs });
		}
		return overdue;
	}

	/** Indexes an accepted id by the time Redis accepted it. */
	private async remember(eventId: string, acceptedMs: number): Promise<void> {
		const setKey = acceptedKey(this.options.scope);
		await this.run(async () => await this.client.zadd(setKey, acceptedMs, eventId));
		await this.run(
			async () => await this.client.pexpire(setKey, Math.ceil(this.options.windowMs)),
		);
	}

	private async script(script: string, key: string, ...args: Array<string | number>) {
		// Redis takes whole milliseconds only (`PX 1.5` is an error).
		const whole = args.map((arg) => (typeof arg === 'number' ? Math.max(1, Math.ceil(arg)) : arg));
		return await this.run(async () => await this.client.eval(script, 1, key, ...whole));
	}

	private async run<T>(call: () => Promise<T>): Promise<T> {
		return await command(this.connection, call);
	}
}
