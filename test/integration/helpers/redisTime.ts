/**
 * Time passing for a test's Redis keys. The Redis dedupe store leaves liveness to Redis's clock
 * (each key's time to live), which a test cannot move; this moves it for the keys of one pattern:
 * each key's time to live shrinks by the time said to pass, and a key whose time is up is deleted,
 * as Redis would have expired it by then.
 */
import type Redis from 'ioredis';

const PASS_TIME = `
local moved = 0
for _, key in ipairs(redis.call('KEYS', ARGV[1])) do
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
