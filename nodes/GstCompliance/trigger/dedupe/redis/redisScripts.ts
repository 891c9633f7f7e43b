/**
 * The Redis store's steps as Lua scripts, and the values they keep in an event's key (redisStore.ts
 * says what each mark means; this file alone knows how one is written): each reads and writes one
 * event's key atomically, on Redis's clock (`TIME`), so the processes' clocks are never compared
 * and the store works the same on a Redis Cluster.
 */
import type { RedisClient } from './redisConnection';

/**
 * A started event's value: `d:t:<token>`, so the same item started again finds its own mark, or a
 * bare `d` for an item without a token (queued by version 0.1.0).
 */
export function startedMark(token = ''): string {
	return token ? `d:t:${token}` : 'd';
}

/**
 * Whether START with this token would answer 'duplicate' on an event key's value: the value is a
 * started mark (any `d…`) that is not this token's own.
 */
export function startedByAnother(value: string | null | undefined, token = ''): boolean {
	return value?.startsWith('d') === true && !(token !== '' && value === startedMark(token));
}

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS[1]; ARGV: windowMs, startWithinMs, the acceptance's token ('' for none). Returns {kind,
 * acceptedMs, nowMs}: kind 'accepted', 'retaken', 'duplicate' or 'onItsWay'. The mark is
 * `a:<ms>:<token>`, so an acceptance whose reply was lost can be taken back (TAKE_BACK).
 */
export const ACCEPT = `${NOW}
local mark = 'a:' .. now
if ARGV[3] ~= '' then mark = mark .. ':' .. ARGV[3] end
local v = redis.call('GET', KEYS[1])
if v then
  local kind = string.sub(v, 1, 1)
  if kind == 'd' then return {'duplicate', 0, now} end
  if kind == 'a' then
    local at = tonumber(string.match(v, '^a:(%d+)'))
    if at and now - at < tonumber(ARGV[2]) then return {'onItsWay', at, now} end
    redis.call('SET', KEYS[1], mark, 'PX', ARGV[1])
    return {'retaken', at or 0, now}
  end
end
redis.call('SET', KEYS[1], mark, 'PX', ARGV[1])
return {'accepted', now, now}
`;

/**
 * KEYS[1]; ARGV: the acceptance's token. Deletes the acceptance that token wrote, if it still
 * stands: its delivery was answered 5xx, so the service's retry must be accepted afresh.
 */
export const TAKE_BACK = `
local v = redis.call('GET', KEYS[1])
local suffix = ':' .. ARGV[1]
if v and string.sub(v, 1, 2) == 'a:' and string.sub(v, -string.len(suffix)) == suffix then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/**
 * KEYS[1]; ARGV: windowMs, the item's `startedMark`. Returns 'started' or 'duplicate': the same
 * item started again finds its own mark; a bare `d` (no token) is nobody's own.
 */
export const START = `
local v = redis.call('GET', KEYS[1])
local mark = ARGV[2]
if v and string.sub(v, 1, 1) == 'd' then
  if v == mark and mark ~= 'd' then return 'started' end
  return 'duplicate'
end
redis.call('SET', KEYS[1], mark, 'PX', ARGV[1])
return 'started'
`;

/**
 * KEYS[1] an event's key; ARGV: startWithinMs. Returns {state, acceptedMs}: 'overdue' (accepted
 * at least the bound ago, not started), 'waiting' (accepted less than the bound ago; with
 * Redis's time, as a third value), 'done'
 * (started) or 'gone' (its acceptance expired with the window before anyone looked: a start takes
 * its id out of the set, so it never started).
 */
export const CHECK = `${NOW}
local v = redis.call('GET', KEYS[1])
if not v then return {'gone', 0} end
local at = tonumber(string.match(v, '^a:(%d+)'))
if not at then return {'done', 0} end
if now - at >= tonumber(ARGV[1]) then return {'overdue', at} end
return {'waiting', at, now}
`;

/** A script call on one key; numbers as whole milliseconds (Redis refuses `PX 1.5`). */
export function script(source: string, key: string, ...args: Array<string | number>) {
	const whole = args.map((arg) => (typeof arg === 'number' ? Math.max(1, Math.ceil(arg)) : arg));
	return async (client: RedisClient) => await client.eval(source, 1, key, ...whole);
}
