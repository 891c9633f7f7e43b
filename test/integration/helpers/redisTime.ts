/**
 * Time passing for a test's Redis keys. The Redis dedupe store leaves time to Redis's clock (each
 * key's time to live, and acceptance times read with TIME), which a test cannot move; this moves it
 * for the keys of one pattern: each key's time to live shrinks by the time said to pass (a key
 * whose time is up is deleted, as Redis would have expired it by then), and the acceptance times
 * the keys hold (`a:<ms>[:<token>]` values, the accepted index's scores) move back by as much.
 */
import type Redis from 'ioredis';

const PASS_TIME = `
local moved = 0
local shift = tonumber(ARGV[2])
for _, key in ipairs(redis.call('KEYS', ARGV[1])) do
  local kind = redis.call('TYPE', key)['ok']
  if kind == 'string' then
    local v = redis.call('GET', key)
    local at, token = string.match(v, '^a:(%d+)(.*)$')
    if at then redis.call('SET', key, 'a:' .. (tonumber(at) - shift) .. token, 'KEEPTTL') end
  elseif kind == 'zset' then
    local entries = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
    for i = 1, #entries, 2 do redis.call('ZADD', key, tonumber(entries[i + 1]) - shift, entries[i]) end
  end
  local ttl = redis.call('PTTL', key)
  if ttl > 0 then
    local left = ttl - tonumber(ARGV[2])
    if left <= 0 then redis.call('DEL', key) else redis.call('PEXPIRE', key, left) end
    moved = moved + 1
  end
end
return moved
`;

/** Shortens (or, for a negative `ms`, lengthens) every matching key's time to live by `ms`. */
export async function passRedisTime(
	client: Pick<Redis, 'eval'>,
	pattern: string,
	ms: number,
): Promise<void> {
	const whole = Math.round(ms);
	if (whole !== 0) await client.eval(PASS_TIME, 0, pattern, whole);
}
