/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: runs in Node under jest, never inside n8n; imports the package through the @/ alias */
/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a fixed password of the test's own redis-server */
/**
 * The lifecycle (accept at the webhook → n8n's execution → start as its first step) as a model-based
 * test over both real stores (the in-process store with its static-data snapshot, and Redis), with
 * an injected clock and random deliveries, the service's retries, dashboard replays, executions
 * queued and run in any order and concurrently, n8n running queued executions again after a
 * restart, a crash between the 202 and the execution row, crashes at any point, Redis down and
 * back, and evictions. What it checks is what a user counts: each event does its work once inside
 * the window, a copy creates no execution while its event is on its way, and nothing the service
 * got a 2xx for is lost without being named.
 */
import fc from 'fast-check';
import Redis from 'ioredis';

import type { EventLedger, OverdueEvent } from '@/nodes/GstCompliance/trigger/dedupe/lifecycle';
import { MemoryDedupeStore } from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { type RedisConnection } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import {
	fixedClient,
	RedisDedupeStore,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import { REDIS_PREFIX, ledgerScope } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { passRedisTime } from '@/test/integration/helpers/redisTime';
import { fcParameters, timeoutFor } from '@/test/properties/fcConfig';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const WINDOW_MS = 24 * 3_600_000;
/** The Start Deadline. */
const WITHIN_MS = 30 * 60_000;
const ID_COUNT = 6;

type Action =
	/** The service delivers an event (its first attempt, or a retry of one it got no 2xx for). */
	| { kind: 'deliver'; id: number; lostBeforeRow: boolean }
	/** The user replays an event from the Developer hub. */
	| { kind: 'replay'; id: number }
	/** The service retries every delivery it got no 2xx for. */
	| { kind: 'serviceRetries' }
	/** n8n runs one queued execution (a free slot), or two at once. */
	| { kind: 'run'; which: number; concurrent: boolean }
	/** The user retries a failed execution from the executions list. */
	| { kind: 'retryFailed' }
	/**
	 * The next start runs in the store but its reply is lost (a timeout past a stall, a dropped
	 * connection): the execution fails holding its event, and is tried again with the same item.
	 */
	| { kind: 'loseReply' }
	| { kind: 'clock'; deltaMs: number }
	/** n8n dies and starts again; it runs the queued executions again (1.x, 2.34+). */
	| { kind: 'restart' }
	| { kind: 'redisDown'; commands: number }
	| { kind: 'evict' }
	| { kind: 'lookOverdue' };

const action: fc.Arbitrary<Action> = fc.oneof(
	{
		weight: 8,
		arbitrary: fc.record({
			kind: fc.constant('deliver' as const),
			id: fc.nat(ID_COUNT - 1),
			lostBeforeRow: fc.nat(9).map((x) => x === 0),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({ kind: fc.constant('replay' as const), id: fc.nat(ID_COUNT - 1) }),
	},
	{ weight: 2, arbitrary: fc.constant({ kind: 'serviceRetries' as const }) },
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant('run' as const),
			which: fc.nat(5),
			concurrent: fc.boolean(),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'retryFailed' as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: 'loseReply' as const }) },
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			deltaMs: fc.oneof(
				fc.integer({ min: 0, max: 10 * 60_000 }),
				fc.integer({ min: WITHIN_MS - 60_000, max: WITHIN_MS + 60_000 }),
				fc.integer({ min: WINDOW_MS - 3_600_000, max: WINDOW_MS + 3_600_000 }),
			),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('redisDown' as const),
			commands: fc.integer({ min: 1, max: 6 }),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'evict' as const }) },
	{ weight: 2, arbitrary: fc.constant({ kind: 'lookOverdue' as const }) },
);

/** Scenarios of 10 to 40 steps (fast-check's default size would keep them near 5). */
const scenario = fc.array(action, { minLength: 10, maxLength: 40, size: 'max' });

/** The steps the model drives: the lifecycle's, without the trigger's answer and notes. */
type LedgerSteps = Pick<EventLedger, 'accept' | 'start' | 'startedElsewhere' | 'overdue'>;

/** The world a store lives in. */
interface StoreWorld {
	ledger(): LedgerSteps;
	/** The process dies and starts again: what it kept only in memory is gone. */
	restart(): void;
	failNext(commands: number): void;
	/** The store loses what it holds (Redis evicting; static data overwritten). */
	evict(): Promise<void>;
	/** Time passes for the store itself (Redis's clock). */
	advance(ms: number): Promise<void>;
	/** Expiry and deadlines within this much of their edge may go either way. */
	slackMs: number;
	/**
	 * A step's reply can be lost after the store ran it (Redis, over a network); the built-in
	 * store's steps are synchronous calls in the process.
	 */
	losesReplies: boolean;
	/**
	 * Starts the store keeps in memory only until the next acceptance (the built-in store): a
	 * restart before that makes these events uncertain.
	 */
	unsavedStarts(): number[];
}

/** One execution n8n holds for an event, with its acceptance's token (in its item). */
interface Execution {
	id: number;
	token: string;
}

class World {
	now = T0;
	queued: Execution[] = [];
	failed: Execution[] = [];
	/** Deliveries the service got no 2xx for: it retries them. */
	unacknowledged = new Set<number>();
	/** Every event the service delivered (got a 2xx for at some point). */
	acknowledged = new Set<number>();
	/** id → executions of it that did its work, with when. */
	work = new Map<number, number[]>();
	/** id → when it was last accepted (its current acceptance), in true time. */
	acceptedAt = new Map<number, number>();
	/** Ids a store loss (eviction) or an uncertain restart may start again: documented. */
	unprotected = new Set<number>();
	/** Ids named overdue, and how. */
	named = new Map<number, OverdueEvent>();
	/** Executions created per id (to count copies that created one). */
	created = new Map<number, number>();
	violations: string[] = [];
	/** The next start's reply is lost after the store ran it. */
	loseNextReply = false;
	/** id → when its start ran in the store and its execution failed anyway (held, to retry). */
	heldStarts = new Map<number, number>();
	private tokens = 0;

	constructor(readonly store: StoreWorld) {}

	async deliver(id: number, lostBeforeRow: boolean, from: 'service' | 'replay'): Promise<void> {
		let acceptance;
		const token = `tok_${++this.tokens}`;
		try {
			acceptance = await this.store.ledger().accept(`evt_${id}`, this.now, WITHIN_MS, token);
		} catch (error) {
			if (!(error instanceof DedupeUnavailableError)) throw error;
			// 503: the service retries; a replay is the user's to do again.
			if (from === 'service') this.unacknowledged.add(id);
			return;
		}
		this.unacknowledged.delete(id);
		this.acknowledged.add(id);
		this.check(id, acceptance.kind);
		if (acceptance.kind === 'accepted' || acceptance.kind === 'retaken') {
			this.acceptedAt.set(id, this.now);
			this.created.set(id, (this.created.get(id) ?? 0) + 1);
			// 202 sent; n8n writes the row, unless the process dies right then.
			if (!lostBeforeRow) this.queued.push({ id, token });
		}
	}

	/** The answer the model expects for an accept of `id` now. */
	private check(id: number, answer: string): void {
		if (this.unprotected.has(id)) return;
		const slack = this.store.slackMs;
		// Started in the store, its execution failed holding it: a copy is a duplicate.
		const held = this.heldStarts.get(id);
		if (held !== undefined && this.now - held < WINDOW_MS - slack) {
			if (answer !== 'duplicate')
				this.violations.push(`evt_${id}: ${answer}, while its started execution is held`);
			return;
		}
		if (held !== undefined && this.now - held <= WINDOW_MS + slack) return;
		const worked = this.work.get(id) ?? [];
		const last = worked[worked.length - 1];
		if (last !== undefined && this.now - last < WINDOW_MS - slack) {
			if (answer !== 'duplicate')
				this.violations.push(`evt_${id}: ${answer} inside the window of its start`);
			return;
		}
		if (last !== undefined && this.now - last <= WINDOW_MS + slack) return;
		const accepted = this.acceptedAt.get(id);
		if (accepted === undefined || this.now - accepted > WINDOW_MS + slack) {
			if (answer !== 'accepted' && !(accepted !== undefined && answer === 'retaken'))
				this.violations.push(`evt_${id}: ${answer}, never accepted in the window`);
			return;
		}
		const age = this.now - accepted;
		if (Math.abs(age - WITHIN_MS) <= slack || age > WINDOW_MS - slack) return;
		const expected = age < WITHIN_MS ? 'onItsWay' : 'retaken';
		if (answer !== expected)
			this.violations.push(`evt_${id}: ${answer}, expected ${expected} ${age} ms after acceptance`);
	}

	async run(execution: Execution): Promise<void> {
		let started;
		const mark = { token: execution.token, process: 'n8n', acceptedMs: this.now };
		try {
			started = await this.store.ledger().start(`evt_${execution.id}`, this.now, mark);
			if (this.loseNextReply) {
				this.loseNextReply = false;
				if (started === 'started') this.heldStarts.set(execution.id, this.now);
				throw new DedupeUnavailableError('redis:6379', 'Command timed out');
			}
		} catch (error) {
			if (!(error instanceof DedupeUnavailableError)) throw error;
			this.failed.push(execution); // the execution fails holding its event
			return;
		}
		if (started === 'duplicate') return;
		const id = execution.id;
		const worked = this.work.get(id) ?? [];
		const last = worked[worked.length - 1];
		if (
			last !== undefined &&
			this.now - last < WINDOW_MS - this.store.slackMs &&
			!this.unprotected.has(id)
		)
			this.violations.push(`evt_${id}: did its work twice inside the window`);
		this.work.set(id, [...worked, this.now]);
		this.heldStarts.delete(id);
	}

	async lookOverdue(): Promise<void> {
		let found: OverdueEvent[];
		try {
			found = await this.store
				.ledger()
				.overdue(this.now, WITHIN_MS, { shown: true, redelivers: true });
		} catch (error) {
			if (!(error instanceof DedupeUnavailableError)) throw error;
			return;
		}
		for (const event of found) {
			const id = Number(event.eventId.slice(4));
			this.named.set(id, event);
			const since = this.acceptedAt.get(id) ?? -Infinity;
			const worked = (this.work.get(id) ?? []).filter((at) => at >= since);
			if (worked.length > 0 && !event.uncertain && !this.unprotected.has(id))
				this.violations.push(`evt_${id}: named overdue although it started`);
		}
	}
}

async function runScenario(store: StoreWorld, actions: Action[]): Promise<World> {
	const world = new World(store);
	for (const step of actions) {
		switch (step.kind) {
			case 'deliver':
				await world.deliver(step.id, step.lostBeforeRow, 'service');
				break;
			case 'replay':
				await world.deliver(step.id, false, 'replay');
				break;
			case 'serviceRetries':
				for (const id of [...world.unacknowledged]) await world.deliver(id, false, 'service');
				break;
			case 'run': {
				if (world.queued.length === 0) break;
				const first = world.queued.splice(step.which % world.queued.length, 1)[0];
				const second = step.concurrent ? world.queued.shift() : undefined;
				await Promise.all([first, second].filter(Boolean).map(async (e) => await world.run(e!)));
				break;
			}
			case 'retryFailed':
				world.queued.push(...world.failed.splice(0));
				break;
			case 'loseReply':
				world.loseNextReply = store.losesReplies;
				break;
			case 'clock':
				world.now += step.deltaMs;
				await store.advance(step.deltaMs);
				break;
			case 'restart':
				for (const id of store.unsavedStarts()) world.unprotected.add(id);
				store.restart();
				break;
			case 'redisDown':
				store.failNext(step.commands);
				break;
			case 'evict':
				await store.evict();
				for (const id of [...world.work.keys(), ...world.acceptedAt.keys()])
					world.unprotected.add(id);
				world.acceptedAt.clear();
				break;
			case 'lookOverdue':
				await world.lookOverdue();
				break;
		}
	}

	// The end: Redis answers, n8n runs what it holds, the service retries until acknowledged; the
	// deadline passes and every overdue event is named; the user replays those; n8n runs them.
	store.failNext(0);
	const drain = async () => {
		for (let i = 0; i < 3 && world.unacknowledged.size > 0; i++)
			for (const id of [...world.unacknowledged]) await world.deliver(id, false, 'service');
		// Executions that fail again (a reply lost on the way) are retried until none is left.
		for (let i = 0; i < 3; i++) {
			world.queued.push(...world.failed.splice(0));
			while (world.queued.length > 0) await world.run(world.queued.shift()!);
		}
	};
	await drain();
	world.now += WITHIN_MS + 60_000;
	await store.advance(WITHIN_MS + 60_000);
	for (let i = 0; i < ID_COUNT; i++) await world.lookOverdue();
	for (const id of world.named.keys())
		if ((world.work.get(id) ?? []).length === 0) await world.deliver(id, false, 'replay');
	await drain();

	for (const id of world.acknowledged) {
		const worked = world.work.get(id) ?? [];
		// A store that lost what it held (evicted keys, overwritten static data) may lose an event
		// n8n lost too: documented, and why the Redis server must not evict.
		if (worked.length === 0 && !world.unprotected.has(id))
			world.violations.push(`evt_${id}: acknowledged, never started, never named`);
	}
	return world;
}

function memoryWorld(): StoreWorld {
	const options = { windowMs: WINDOW_MS, capacity: 10_000 };
	let persisted: unknown;
	let memory = new MemoryDedupeStore(options);
	/** Ids started since the last save. */
	let unsaved: number[] = [];
	// The trigger writes the snapshot at each acceptance that creates an execution
	// (memory/memoryLedger.ts); a restart reads it back. A start changes memory only.
	const ledger: LedgerSteps = {
		accept: async (eventId, nowMs, within) => {
			const acceptance = memory.acceptNow(eventId, nowMs, within);
			if (acceptance.kind === 'accepted' || acceptance.kind === 'retaken') {
				persisted = JSON.parse(JSON.stringify(memory.snapshot()));
				unsaved = [];
			}
			return acceptance;
		},
		start: async (eventId, nowMs, mark) => {
			const started = await memory.start(eventId, nowMs, mark);
			if (started === 'started') unsaved.push(Number(eventId.slice(4)));
			return started;
		},
		startedElsewhere: async (eventId, mark) => await memory.startedElsewhere(eventId, mark),
		overdue: async (nowMs, within) => await memory.overdue(nowMs, within),
	};
	return {
		ledger: () => ledger,
		restart: () => {
			memory = MemoryDedupeStore.fromSnapshot(persisted, options);
			unsaved = [];
		},
		failNext: () => {},
		evict: async () => {
			// The static data was overwritten by a writer that never had the ids.
			persisted = undefined;
			memory = new MemoryDedupeStore(options);
		},
		advance: async () => {},
		// Started ids expire by whole minutes.
		slackMs: 2 * 60_000,
		losesReplies: false,
		unsavedStarts: () => unsaved,
	};
}

const MODEL_RUNS = 60;

describe('model: each event does its work once, and nothing acknowledged is lost unnamed', () => {
	it(
		'the built-in store agrees with the model',
		async () => {
			await fc.assert(
				fc.asyncProperty(scenario, async (actions) => {
					const world = await runScenario(memoryWorld(), actions);
					expect(world.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
		},
		timeoutFor(MODEL_RUNS * 3, 200),
	);

	it(
		'finds a store that takes an event on its way as new (a copy would create an execution)',
		async () => {
			const failure = await fc.check(
				fc.asyncProperty(scenario, async (actions) => {
					const world = memoryWorld();
					const real = world.ledger();
					const careless: LedgerSteps = {
						...real,
						accept: async (eventId, nowMs) => await real.accept(eventId, nowMs, 0),
					};
					const result = await runScenario({ ...world, ledger: () => careless }, actions);
					expect(result.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
			expect(failure.failed).toBe(true);
		},
		timeoutFor(MODEL_RUNS * 3, 200),
	);

	it(
		'finds a store that never names an event it accepted and n8n lost',
		async () => {
			const failure = await fc.check(
				fc.asyncProperty(scenario, async (actions) => {
					const world = memoryWorld();
					const silent: LedgerSteps = { ...world.ledger(), overdue: async () => [] };
					const result = await runScenario({ ...world, ledger: () => silent }, actions);
					expect(result.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
			expect(failure.failed).toBe(true);
		},
		timeoutFor(MODEL_RUNS * 3, 200),
	);

	it(
		'finds a start that is not atomic (two executions of one event both do its work)',
		async () => {
			const failure = await fc.check(
				fc.asyncProperty(scenario, async (actions) => {
					const world = memoryWorld();
					const real = world.ledger();
					const started = new Set<string>();
					const racy: LedgerSteps = {
						...real,
						start: async (eventId, nowMs) => {
							const seen = started.has(eventId);
							await new Promise((resolve) => setImmediate(resolve));
							started.add(eventId);
							await real.start(eventId, nowMs);
							return seen ? 'duplicate' : 'started';
						},
					};
					const result = await runScenario({ ...world, ledger: () => racy }, actions);
					expect(result.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
			expect(failure.failed).toBe(true);
		},
		timeoutFor(MODEL_RUNS * 3, 200),
	);

	describe('with Redis', () => {
		const PASSWORD = 'lifecycle-model-Pa55';
		let redis: RunningRedis;
		let client: Redis;
		let connection: RedisConnection;
		let scope = 0;

		beforeAll(async () => {
			redis = await startRedis('lifecycle-redis', { password: PASSWORD });
			client = new Redis({ host: redis.host, port: redis.port, password: PASSWORD });
			connection = { host: redis.host, port: redis.port, database: 0, password: PASSWORD };
		}, 60_000);

		afterAll(async () => {
			client?.disconnect();
			await redis?.dispose();
		});

		function redisWorld(): StoreWorld {
			let failing = 0;
			const outage = new DedupeUnavailableError(
				`${connection.host}:${connection.port}`,
				'connection lost',
			);
			const name = `model:${++scope}:${Date.now()}`;
			const keys = `${REDIS_PREFIX}:${name}:*`;
			let realAt = performance.now();
			const fail = <T extends (...args: never[]) => Promise<unknown>>(call: T): T =>
				(async (...args: Parameters<T>) => {
					if (failing > 0) {
						failing--;
						throw outage;
					}
					return await call(...args);
				}) as T;
			const flaky = {
				eval: fail(client.eval.bind(client) as Redis['eval']),
				zadd: fail(client.zadd.bind(client) as Redis['zadd']),
				zrem: fail(client.zrem.bind(client) as Redis['zrem']),
				zrangebyscore: fail(client.zrangebyscore.bind(client) as Redis['zrangebyscore']),
			} as unknown as Redis;
			const store = new RedisDedupeStore(fixedClient(flaky), connection, {
				scope: ledgerScope({ workflowId: name, nodeId: 'node-1' }),
				windowMs: WINDOW_MS,
			});
			return {
				ledger: () => store,
				restart: () => {},
				failNext: (commands) => {
					failing = commands;
				},
				evict: async () => {
					const held = await client.keys(keys);
					if (held.length > 0) await client.del(...held);
				},
				advance: async (ms) => {
					const real = performance.now() - realAt;
					realAt = performance.now();
					// Redis counted the real time itself.
					await passRedisTime(client, keys, ms - real);
				},
				slackMs: 1_000,
				losesReplies: true,
				unsavedStarts: () => [],
			};
		}

		it(
			'the Redis store agrees with the model',
			async () => {
				await fc.assert(
					fc.asyncProperty(scenario, async (actions) => {
						const world = await runScenario(redisWorld(), actions);
						expect(world.violations).toEqual([]);
					}),
					fcParameters(MODEL_RUNS),
				);
			},
			timeoutFor(MODEL_RUNS, 4_000),
		);
	});
});
