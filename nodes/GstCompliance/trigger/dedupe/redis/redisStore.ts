/**
 * The lifecycle's ledger (../lifecycle.ts) in Redis, shared by every n8n process that runs the
 * trigger (webhook processes, workers, several mains). One key per workflow + node + event-id
 * digest, expired by Redis at the end of its window, so nothing grows without bound; each
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
 * The body of each accepted delivery is kept beside its key (`…:delivery`, expiring with the
 * window), written before the acceptance like the index, and deleted by the start: an overdue event
 * comes with it, so the trigger delivers it to itself again and nobody has to replay it. Only a
 * look that can deliver again takes overdue events out of the set (a webhook's, whatever its
 * delivery starts; an execution's first step has no URL to deliver to).
 */
import type {
	Acceptance,
	EventLedger,
	OverdueEvent,
	OverdueLook,
	Start,
	AcceptanceMark,
} from '../lifecycle';
import { type LedgerScope, redisAcceptedKey, redisDeliveryKey, redisEventKey } from '../keys';
import { command, type RedisClient } from './redisConnection';
import { REPLICA_WAIT_MS, waitForReplica } from './replicaWait';
import {
	ACCEPT,
	CHECK,
	script,
	START,
	startedByAnother,
	startedMark,
	TAKE_BACK,
} from './redisScripts';
import { type RedisConnection } from './redisSettings';
import { settle } from '../../../settle';

/** How many overdue candidates one read of the accepted set takes. */
const OVERDUE_BATCH = 20;
/** How many a look reads at most: a kill inside a burst loses more than one batch holds. */
const OVERDUE_LOOK_MAX = 200;

export interface RedisStoreOptions {
	/** The ledger the store keeps: a trigger's, or the credential test's probe. */
	scope: LedgerScope;
	windowMs: number;
	/** Where a start no replica acknowledged in time is said. */
	warn?: (message: string) => void;
}

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
	 * whose script was sent but whose reply failed takes its acceptance back (`takeBack`): the
	 * delivery is answered 5xx, and the service's retry must not find it "on its way".
	 */
	async accept(
		eventId: string,
		nowMs: number,
		startWithinMs: number,
		token = '',
		delivery?: Buffer,
	): Promise<Acceptance> {
		const setKey = redisAcceptedKey(this.options.scope);
		const key = redisEventKey(this.options.scope, eventId);
		const deliveryKey = redisDeliveryKey(this.options.scope, eventId);
		return await this.step(async (run) => {
			// Indexed first (NX: a copy keeps the first score), so a failure leaves nothing accepted;
			// the delivery too, so every acceptance has it.
			await run(async (client) => await client.zadd(setKey, 'NX', nowMs, eventId));
			if (delivery)
				await run(
					async (client) =>
						await client.set(
							deliveryKey,
							delivery.toString('base64'),
							'PX',
							Math.max(1, Math.ceil(this.options.windowMs)),
						),
				);
			const [kind, acceptedMs] = (await run(
				script(ACCEPT, key, this.options.windowMs, startWithinMs, token),
			).catch(async (error: unknown) => {
				if (token) await this.takeBack(run, key, token);
				throw error;
			})) as [Acceptance['kind'], number, number];
			// Tidying only (`overdue` drops a started id it finds): a retake's new time, a duplicate out.
			if (kind === 'retaken')
				await run(async (client) => await client.zadd(setKey, nowMs, eventId)).catch(() => 0);
			if (kind === 'duplicate') {
				await run(async (client) => await client.zrem(setKey, eventId)).catch(() => 0);
				await run(async (client) => await client.del(deliveryKey)).catch(() => 0);
			}
			if (kind === 'accepted' || kind === 'duplicate') return { kind };
			return { kind, acceptedMs: Number(acceptedMs) };
		});
	}

	/**
	 * Redis's clock decides the window (the lifecycle's `nowMs` is not needed). Where the server has
	 * replicas, a start returns once one of them has it (replicaWait.ts), or after the bound.
	 */
	async start(eventId: string, _nowMs?: number, mark?: AcceptanceMark): Promise<Start> {
		const key = redisEventKey(this.options.scope, eventId);
		return await this.step(async (run) => {
			const result = await run(script(START, key, this.options.windowMs, startedMark(mark?.token)));
			if (result !== 'duplicate') {
				const replication = await run(async (client) => await waitForReplica(client, key));
				if (replication === 'timedOut')
					this.options.warn?.(
						`the start of event ${JSON.stringify(eventId)} was not acknowledged by a replica within ${REPLICA_WAIT_MS} ms: it is on the master alone, and a failover before the replica catches up would forget it (a redelivery would start the event again). Check the replicas' lag (INFO replication)`,
					);
			}
			// Tidying only: `overdue` drops a started id it finds; the kept delivery expires anyway.
			await run(
				async (client) => await client.zrem(redisAcceptedKey(this.options.scope), eventId),
			).catch(() => 0);
			await run(
				async (client) => await client.del(redisDeliveryKey(this.options.scope, eventId)),
			).catch(() => 0);
			return result === 'duplicate' ? 'duplicate' : 'started';
		});
	}

	/**
	 * Deletes the acceptance `token` wrote, if it stands: on the accept's connection, which Redis
	 * runs after the accept (a late reply), else on the client connected afresh (the connection
	 * closed under the accept). A Redis unreachable for the connect timeout keeps the mark: the
	 * trigger delivers the event again after the Missed Event Warning (overdue.ts).
	 */
	private async takeBack(run: Run, key: string, token: string): Promise<void> {
		const taken = await settle(run(script(TAKE_BACK, key, token)));
		if (taken.ok) return;
		await this.step(async (again) => await again(script(TAKE_BACK, key, token))).catch(() => 0);
	}

	/** The accept's script ran in Redis before it answered: its acceptance is kept already. */
	durable(): true {
		return true;
	}

	/** Nothing to do: the start needs no earlier mark. */
	answered(): void {}

	/** Nothing to say: Redis is what the built-in store's notices ask for. */
	notice(): undefined {
		return undefined;
	}

	async startedElsewhere(eventId: string, mark?: AcceptanceMark): Promise<boolean> {
		const key = redisEventKey(this.options.scope, eventId);
		const value = await this.step(
			async (run) => await run(async (client) => await client.get(key)),
		);
		return startedByAnother(value, mark?.token);
	}

	async overdue(nowMs: number, startWithinMs: number, look: OverdueLook): Promise<OverdueEvent[]> {
		if (!look.redelivers) return [];
		const setKey = redisAcceptedKey(this.options.scope);
		return await this.step(async (run) => {
			const overdue: OverdueEvent[] = [];
			// Each candidate read leaves the range (named, started, or scored again as waiting).
			for (let read = 0; read < OVERDUE_LOOK_MAX; read += OVERDUE_BATCH) {
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
				overdue.push(...(await this.named(run, found, nowMs, startWithinMs)));
				if (found.length < OVERDUE_BATCH * 2) break;
			}
			return overdue;
		});
	}

	/** The overdue events among candidates `found` (id, score, …), each taken out of the set. */
	private async named(
		run: Run,
		found: string[],
		nowMs: number,
		startWithinMs: number,
	): Promise<OverdueEvent[]> {
		const setKey = redisAcceptedKey(this.options.scope);
		const overdue: OverdueEvent[] = [];
		for (let i = 0; i + 1 < found.length; i += 2) {
			const [eventId, score] = [found[i], Number(found[i + 1])];
			const [state, acceptedMs, redisNowMs] = (await run(
				script(CHECK, redisEventKey(this.options.scope, eventId), startWithinMs),
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
			const kept = await run(
				async (client) => await client.get(redisDeliveryKey(this.options.scope, eventId)),
			).catch(() => null);
			overdue.push({
				eventId,
				acceptedMs: state === 'gone' ? score : Number(acceptedMs),
				...(kept ? { delivery: Buffer.from(kept, 'base64') } : {}),
			});
		}
		return overdue;
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
