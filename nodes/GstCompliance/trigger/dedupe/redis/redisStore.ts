/**
 * The lifecycle's ledger (../lifecycle.ts) in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, workers, several mains). One key per workflow + node + namespace +
 * event-id digest, expired by Redis at the end of its window, so nothing grows without bound; each
 * step touches that one key in one atomic script, so the store works the same on a Redis Cluster.
 *
 * - accept: free (no key) → `a:<accepted ms>:<token>`; `d` → duplicate; `a:` younger than the
 *   bound → on its way; older → taken again with the new time. An accept whose reply is lost
 *   takes its own mark back (its delivery is answered 5xx). A value this version does not write
 *   (no release before it had a Redis store) is no mark: the event is accepted.
 * - start: anything but `d…` → `d:t:<the acceptance's token>` for the window (started), or a bare
 *   `d` for an item without a token (queued by version 0.1.0); the same token → started again
 *   (the same item, its reply lost or retried); any other `d…` → duplicate.
 * Before its acceptance, an id goes into one sorted set per trigger (`…:<scope>:accepted`, member
 * the id itself, score this process's time, a first look only): a command on another key, so a
 * failure there leaves nothing accepted. A start or a duplicate takes the id out again, so the set
 * holds the events on their way and the lost ones; it has no expiry, so an event lost is named
 * however long after it the next look comes (Redis deletes the set once it is empty). `overdue`
 * takes the ids whose score is past the Missed Event Warning, asks each one's key (on Redis's
 * clock) whether it is still accepted and not started, and removes each from the set: the process
 * whose removal counts names it. The deadline and the window are Redis's (`TIME` inside the
 * scripts, key expiry): the processes' clocks may disagree and are never compared.
 */
import type { Acceptance, EventLedger, OverdueEvent, Start, StartMark } from '../lifecycle';
import { eventDigest } from '../eventDigest';
import { command, type RedisClient } from './redisConnection';
import { REPLICA_WAIT_MS, waitForReplica } from './replicaWait';
import { type RedisConnection } from './redisSettings';

export const KEY_PREFIX = 'n8n-gst-compliance:dedupe:v1';
/** The key each server's replica barrier writes (replicaWait.ts). */
const REPLICA_MARKER_KEY = `${KEY_PREFIX}:replica-barrier`;
/** How many overdue candidates one look reads. */
const OVERDUE_BATCH = 20;

export interface RedisStoreOptions {
	/** `<workflow id>:<node id>:<production|test>`, as the single-process store keys its memory. */
	scope: string;
	windowMs: number;
	/** Where a start no replica acknowledged in time is said. */
	warn?: (message: string) => void;
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
 * KEYS[1]; ARGV: windowMs, startWithinMs, the acceptance's token ('' for none). Returns {kind,
 * acceptedMs, nowMs}: kind 'accepted', 'retaken', 'duplicate' or 'onItsWay'. The mark is
 * `a:<ms>:<token>`, so an acceptance whose reply was lost can be taken back (TAKE_BACK).
 */
const ACCEPT = `${NOW}
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
const TAKE_BACK = `
local v = redis.call('GET', KEYS[1])
local suffix = ':' .. ARGV[1]
if v and string.sub(v, 1, 2) == 'a:' and string.sub(v, -string.len(suffix)) == suffix then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/**
 * KEYS[1]; ARGV: windowMs, the acceptance's token ('' for an item without one). Returns 'started'
 * or 'duplicate'. The mark is `d:t:<token>`: the same item started again finds its own mark.
 */
const START = `
local v = redis.call('GET', KEYS[1])
local mark = 'd'
if ARGV[2] ~= '' then mark = 'd:t:' .. ARGV[2] end
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
const CHECK = `${NOW}
local v = redis.call('GET', KEYS[1])
if not v then return {'gone', 0} end
local at = tonumber(string.match(v, '^a:(%d+)'))
if not at then return {'done', 0} end
if now - at >= tonumber(ARGV[1]) then return {'overdue', at} end
return {'waiting', at, now}
`;

/** The client the store runs its commands on. */
export type StoreClient = RedisClient;

/**
 * Runs one step of the store on a client that stays open until the step ends (the process's
 * shared clients, redisClients.ts `use`).
 */
export type ClientSource = <T>(step: (client: StoreClient) => Promise<T>) => Promise<T>;

/** A source that is always this client (a client the caller owns). */
export const fixedClient =
	(client: StoreClient): ClientSource =>
	async (step) =>
		await step(client);

export class RedisDedupeStore implements EventLedger {
	constructor(
		private readonly source: ClientSource,
		private readonly connection: RedisConnection,
		private readonly options: RedisStoreOptions,
	) {}

	/**
	 * `nowMs` scores the id in the accepted set only; Redis's clock decides the rest. An accept
	 * whose script was sent but whose reply failed (a timeout, a dropped connection) takes its
	 * acceptance back on the same connection, which Redis runs after it: the delivery is answered
	 * 5xx, and the service's retry must not find it "on its way".
	 */
	async accept(
		eventId: string,
		nowMs: number,
		startWithinMs: number,
		token = '',
	): Promise<Acceptance> {
		const setKey = acceptedKey(this.options.scope);
		const key = eventKey(this.options.scope, eventId);
		return await this.step(async (run) => {
			// Indexed first (NX: a copy keeps the first score), so a failure leaves nothing accepted.
			await run(async (client) => await client.zadd(setKey, 'NX', nowMs, eventId));
			const [kind, acceptedMs] = (await run(
				script(ACCEPT, key, this.options.windowMs, startWithinMs, token),
			).catch(async (error: unknown) => {
				if (token) await run(script(TAKE_BACK, key, token)).catch(() => 0);
				throw error;
			})) as [Acceptance['kind'], number, number];
			// Tidying only (`overdue` drops a started id it finds): a retake's new time, a duplicate out.
			if (kind === 'retaken')
				await run(async (client) => await client.zadd(setKey, nowMs, eventId)).catch(() => 0);
			if (kind === 'duplicate')
				await run(async (client) => await client.zrem(setKey, eventId)).catch(() => 0);
			if (kind === 'accepted' || kind === 'duplicate') return { kind };
			return { kind, acceptedMs: Number(acceptedMs) };
		});
	}

	/**
	 * Redis's clock decides the window (the lifecycle's `nowMs` is not needed). Where the server has
	 * replicas, a start returns once one of them has it (replicaWait.ts), or after the bound.
	 */
	async start(eventId: string, _nowMs?: number, mark?: StartMark): Promise<Start> {
		const key = eventKey(this.options.scope, eventId);
		return await this.step(async (run) => {
			const result = await run(script(START, key, this.options.windowMs, mark?.token ?? ''));
			if (result !== 'duplicate') {
				const replication = await run(
					async (client) => await waitForReplica(client, key, REPLICA_MARKER_KEY),
				);
				if (replication === 'timedOut')
					this.options.warn?.(
						`the start of event ${JSON.stringify(eventId)} was not acknowledged by a replica within ${REPLICA_WAIT_MS} ms: it is on the master alone, and a failover before the replica catches up would forget it (a redelivery would start the event again). Check the replicas' lag (INFO replication)`,
					);
			}
			// Tidying only: `overdue` drops a started id it finds.
			await run(
				async (client) => await client.zrem(acceptedKey(this.options.scope), eventId),
			).catch(() => 0);
			return result === 'duplicate' ? 'duplicate' : 'started';
		});
	}

	async startedElsewhere(eventId: string, mark?: StartMark): Promise<boolean> {
		const key = eventKey(this.options.scope, eventId);
		const value = await this.step(
			async (run) => await run(async (client) => await client.get(key)),
		);
		return value?.startsWith('d') === true && (!mark || value !== `d:t:${mark.token}`);
	}

	async overdue(nowMs: number, startWithinMs: number): Promise<OverdueEvent[]> {
		const setKey = acceptedKey(this.options.scope);
		return await this.step(async (run) => {
			const found = await run(
				async (client) =>
					await client.zrangebyscore(
						setKey,
						'-inf',
						nowMs - startWithinMs,
						'WITHSCORES',
						'LIMIT',
						0,
						OVERDUE_BATCH,
					),
			);
			const overdue: OverdueEvent[] = [];
			for (let i = 0; i + 1 < found.length; i += 2) {
				const [eventId, score] = [found[i], Number(found[i + 1])];
				const [state, acceptedMs, redisNowMs] = (await run(
					script(CHECK, eventKey(this.options.scope, eventId), startWithinMs),
				)) as [string, number, number?];
				if (state === 'waiting') {
					// Retaken, or looked at early (this process's clock ahead): scored again with its
					// acceptance time on this process's clock, so the first look past its deadline names it.
					const acceptedHereMs = nowMs - (Number(redisNowMs) - Number(acceptedMs));
					await run(async (client) => await client.zadd(setKey, 'XX', acceptedHereMs, eventId));
					continue;
				}
				// One process names it: whoever removes it from the set.
				const removed = await run(async (client) => await client.zrem(setKey, eventId));
				if (removed !== 1 || state === 'done') continue;
				overdue.push({ eventId, acceptedMs: state === 'gone' ? score : Number(acceptedMs) });
			}
			return overdue;
		});
	}

	/**
	 * The credential's Test: every command and script the store runs, once, on a probe event of
	 * this store's scope, which it then deletes. What would refuse a delivery (an ACL without one of
	 * the commands, a read-only replica, a renamed command) refuses this, with the same error; the
	 * tidying steps, which a delivery's path lets fail, run plain. INFO and WAIT are left out: a
	 * store that cannot read its replicas waits for none.
	 */
	async rehearse(nowMs: number): Promise<void> {
		const probe = 'credential-test';
		const key = eventKey(this.options.scope, probe);
		const setKey = acceptedKey(this.options.scope);
		try {
			await this.accept(probe, nowMs, 1, probe);
			await this.step(async (run) => await run(script(TAKE_BACK, key, probe)));
			await this.accept(probe, nowMs, 1, probe);
			await this.overdue(nowMs + 1_000, 1);
			await this.start(probe, nowMs, { token: probe, process: probe, acceptedMs: nowMs });
			await this.startedElsewhere(probe);
			await this.step(async (run) => {
				await run(async (client) => await client.zadd(setKey, nowMs, probe));
				await run(async (client) => await client.zrem(setKey, probe));
				await run(async (client) => await client.del(key));
			});
		} finally {
			// The accepted set has no expiry: a rehearsal refused half-way leaves nothing behind.
			await this.step(async (run) => {
				await run(async (client) => await client.del(setKey));
				await run(async (client) => await client.del(key));
			}).catch(() => undefined);
		}
	}

	/**
	 * One step of the store on one client, held open until the step ends; each command's failure
	 * is a DedupeUnavailableError naming hosts and ports.
	 */
	private async step<T>(work: (run: Run) => Promise<T>): Promise<T> {
		return await command(
			this.connection,
			async () =>
				await this.source(
					async (client) =>
						await work(
							async (call) => await command(this.connection, async () => await call(client)),
						),
				),
		);
	}
}

type Run = <T>(call: (client: StoreClient) => Promise<T>) => Promise<T>;

/** A script call on one key; numbers as whole milliseconds (Redis refuses `PX 1.5`). */
function script(source: string, key: string, ...args: Array<string | number>) {
	const whole = args.map((arg) => (typeof arg === 'number' ? Math.max(1, Math.ceil(arg)) : arg));
	return async (client: StoreClient) => await client.eval(source, 1, key, ...whole);
}
