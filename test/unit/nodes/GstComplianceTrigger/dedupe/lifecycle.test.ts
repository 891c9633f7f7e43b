/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/**
 * The delivery lifecycle (claim → prepare → renew → execution exists → commit): its steps on a
 * scripted store, then a model-based test over both real stores (the in-process store and Redis),
 * with an injected clock, random deliveries, redeliveries, concurrent copies, failures and crashes
 * at every step, slow preparations, and Redis going down and back.
 */
import fc from 'fast-check';
import Redis from 'ioredis';

import {
	admit,
	type Admission,
	type Claim,
	type ClaimResult,
	type ClaimStore,
	type LifecycleOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/lifecycle';
import { MemoryDedupeStore } from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';
import {
	DedupeUnavailableError,
	type RedisConnection,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/redisConnection';
import { RedisDedupeStore } from '../../../../../nodes/GstComplianceTrigger/dedupe/redisStore';
import { startRedis, type RunningRedis } from '../../../../harness/queue/services';
import { fcParameters, timeoutFor } from '../../../properties/fcConfig';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const PREPARE_MS = 60_000;
const START_MS = 30_000;
const WINDOW_MS = 24 * 3_600_000;

/** A store that records its calls and answers as scripted. */
function scriptedStore(
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each script sees its step's own arguments
	script: Partial<Record<keyof ClaimStore, (...args: any[]) => unknown>> = {},
) {
	const calls: string[] = [];
	const claim: Claim = { eventId: 'evt_1', token: 't1' };
	const store: ClaimStore = {
		claim: async (...args) => {
			calls.push('claim');
			return ((await script.claim?.(...args)) ?? { kind: 'claimed', claim }) as ClaimResult;
		},
		renew: async (...args) => {
			calls.push('renew');
			return ((await script.renew?.(...args)) ?? true) as boolean;
		},
		commit: async (...args) => {
			calls.push('commit');
			await script.commit?.(...args);
		},
		release: async (...args) => {
			calls.push('release');
			await script.release?.(...args);
		},
	};
	return { store, calls };
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock the test moves, with the timers of `tick` firing in time order as it moves. */
function virtualTime(start = T0) {
	const clock = { now: start };
	const timers: Array<{ at: number; fire(): void }> = [];
	return {
		clock,
		now: () => clock.now,
		tick: async (ms: number) =>
			await new Promise<void>((fire) => timers.push({ at: clock.now + ms, fire })),
		/** Moves the clock by `ms`, firing each timer due on the way at its own time. */
		async advance(ms: number): Promise<void> {
			const end = clock.now + ms;
			for (;;) {
				timers.sort((a, b) => a.at - b.at);
				if (timers.length === 0 || timers[0].at > end) break;
				const timer = timers.shift() as { at: number; fire(): void };
				clock.now = timer.at;
				timer.fire();
				await settle();
			}
			clock.now = end;
		},
	};
}

function lifecycle(overrides: Partial<LifecycleOptions<string>> = {}): LifecycleOptions<string> {
	let now = T0;
	return {
		now: () => now,
		sleep: async (ms) => {
			now += ms;
		},
		// n8n reads the answer before any renewal is due, unless a test says otherwise.
		tick: async () => await new Promise<void>(() => {}),
		prepareMs: PREPARE_MS,
		startMs: START_MS,
		maxWaitMs: 3_600_000,
		windowMs: WINDOW_MS,
		prepare: async () => 'item',
		answeredWithoutStart: () => false,
		onReleaseFailure: () => {},
		onHoldProblem: () => {},
		onUnprotected: () => {},
		...overrides,
	};
}

describe('admit', () => {
	it('claims for the preparation plus the start, renews for the start, and commits only when told', async () => {
		const leases: number[] = [];
		const { store, calls } = scriptedStore({
			claim: (_id, _now, leaseMs) => void leases.push(leaseMs),
			renew: (_claim, _now, leaseMs) => leases.push(leaseMs) > 0,
		});
		const admission = await admit(store, 'evt_1', lifecycle());
		expect(admission).toMatchObject({ kind: 'start', item: 'item' });
		expect(leases).toEqual([PREPARE_MS + START_MS, START_MS]);
		expect(calls).toEqual(['claim', 'renew']);
		if (admission.kind === 'start') await admission.commit();
		expect(calls).toEqual(['claim', 'renew', 'commit']);
	});

	it.each(['duplicate', 'busy'] as const)(
		'passes a %s claim through and prepares nothing',
		async (kind) => {
			const prepare = jest.fn(async () => 'item');
			const { store, calls } = scriptedStore({ claim: () => ({ kind }) });
			expect(await admit(store, 'evt_1', lifecycle({ prepare }))).toEqual({ kind });
			expect(prepare).not.toHaveBeenCalled();
			expect(calls).toEqual(['claim']);
		},
	);

	it('releases the claim when the preparation throws, and says it failed', async () => {
		const { store, calls } = scriptedStore();
		const failing = lifecycle({ prepare: async () => await Promise.reject(new Error('boom')) });
		expect(await admit(store, 'evt_1', failing)).toEqual({
			kind: 'failed',
			error: expect.objectContaining({ message: 'boom' }),
		});
		expect(calls).toEqual(['claim', 'release']);
	});

	it('reports a failed release and still says the preparation failed', async () => {
		const onReleaseFailure = jest.fn();
		const { store } = scriptedStore({ release: () => Promise.reject(new Error('redis down')) });
		const failing = lifecycle({
			prepare: async () => await Promise.reject(new Error('boom')),
			onReleaseFailure,
		});
		expect((await admit(store, 'evt_1', failing)).kind).toBe('failed');
		expect(onReleaseFailure).toHaveBeenCalledWith(
			'evt_1',
			expect.objectContaining({ message: 'redis down' }),
		);
	});

	it('answers busy when the lease was lost during the preparation', async () => {
		const { store } = scriptedStore({ renew: () => false });
		expect(await admit(store, 'evt_1', lifecycle())).toEqual({ kind: 'busy' });
	});

	it('makes the first commit attempt synchronously (static data is written before n8n saves it)', async () => {
		let committed = false;
		const { store } = scriptedStore({ commit: () => void (committed = true) });
		const admission = await admit(store, 'evt_1', lifecycle());
		if (admission.kind !== 'start') throw new Error('not started');
		void admission.commit();
		expect(committed).toBe(true);
	});

	it('commits once however often it is called (n8n may read the answer twice)', async () => {
		const { store, calls } = scriptedStore();
		const admission = await admit(store, 'evt_1', lifecycle());
		if (admission.kind !== 'start') throw new Error('not started');
		await Promise.all([admission.commit(), admission.commit()]);
		await admission.commit();
		expect(calls.filter((call) => call === 'commit')).toHaveLength(1);
	});

	it('retries a failed commit after each delay, counting the window from the first attempt', async () => {
		const commitTimes: number[] = [];
		let failures = 2;
		const { store } = scriptedStore({
			commit: (_claim, nowMs) => {
				commitTimes.push(nowMs);
				if (failures-- > 0) throw new Error('blip');
			},
		});
		const options = lifecycle({ commitRetryDelaysMs: [100, 200, 400] });
		const onUnprotected = jest.fn();
		const admission = await admit(store, 'evt_1', { ...options, onUnprotected });
		if (admission.kind !== 'start') throw new Error('not started');
		await admission.commit();
		expect(commitTimes).toEqual([T0, T0, T0]);
		expect(options.now()).toBe(T0 + 300);
		expect(onUnprotected).not.toHaveBeenCalled();
	});

	it('retries a failed commit after 250 ms, 1 s and 4 s by default', async () => {
		const waits: number[] = [];
		const { store } = scriptedStore({ commit: () => Promise.reject(new Error('down')) });
		const options = lifecycle({ sleep: async (ms) => void waits.push(ms) });
		delete (options as Partial<LifecycleOptions<string>>).commitRetryDelaysMs;
		const admission = await admit(store, 'evt_1', options);
		if (admission.kind !== 'start') throw new Error('not started');
		await admission.commit();
		expect(waits).toEqual([250, 1_000, 4_000]);
	});

	it('says which id is unprotected and until when once every commit attempt failed', async () => {
		const onUnprotected = jest.fn();
		const { store, calls } = scriptedStore({ commit: () => Promise.reject(new Error('down')) });
		const options = lifecycle({ commitRetryDelaysMs: [1, 2], onUnprotected });
		const admission = await admit(store, 'evt_1', options);
		if (admission.kind !== 'start') throw new Error('not started');
		await admission.commit();
		expect(calls.filter((call) => call === 'commit')).toHaveLength(3);
		expect(onUnprotected).toHaveBeenCalledWith(
			'evt_1',
			T0 + WINDOW_MS,
			expect.objectContaining({ message: 'down' }),
		);
	});
});

describe('admit: the claim is held while n8n has not read the answer', () => {
	function held(overrides: Partial<LifecycleOptions<string>> = {}) {
		const time = virtualTime();
		const renewals: Array<{ at: number; leaseMs: number }> = [];
		const scripted = scriptedStore({
			renew: (_claim, nowMs, leaseMs) => renewals.push({ at: nowMs - T0, leaseMs }) > 0,
		});
		const options = lifecycle({ now: time.now, tick: time.tick, ...overrides });
		return { time, renewals, ...scripted, options };
	}

	it.each([40_000, 10 * 60_000, 59 * 60_000])(
		'renews it every third of the start time for a wait of %i ms (a concurrency queue), and stops at the commit',
		async (waitMs) => {
			const { time, renewals, store, calls, options } = held();
			const admission = await admit(store, 'evt_1', options);
			if (admission.kind !== 'start') throw new Error('not started');
			await time.advance(waitMs);
			// The renewal in admit, then one every 10 s, each for a whole start time.
			expect(renewals).toHaveLength(1 + Math.floor(waitMs / (START_MS / 3)));
			expect(renewals.every(({ leaseMs }) => leaseMs === START_MS)).toBe(true);
			expect(renewals.slice(1).map(({ at }) => at)).toEqual(
				Array.from({ length: renewals.length - 1 }, (_, i) => (i + 1) * (START_MS / 3)),
			);
			await admission.commit();
			const renewedBeforeCommit = renewals.length;
			await time.advance(10 * START_MS);
			expect(renewals).toHaveLength(renewedBeforeCommit);
			expect(calls.filter((call) => call === 'release')).toEqual([]);
		},
	);

	it('gives the claim back at once when n8n answers the request without reading the answer', async () => {
		let answered = false;
		const { time, store, calls, options } = held({ answeredWithoutStart: () => answered });
		const admission = await admit(store, 'evt_1', options);
		if (admission.kind !== 'start') throw new Error('not started');
		await time.advance(START_MS);
		answered = true;
		await time.advance(START_MS / 3);
		expect(calls.filter((call) => call === 'release')).toHaveLength(1);
		const renewalsAfterRelease = calls.filter((call) => call === 'renew').length;
		await time.advance(10 * START_MS);
		expect(calls.filter((call) => call === 'renew')).toHaveLength(renewalsAfterRelease);
	});

	it('lets the claim lapse after the longest wait, and says so', async () => {
		const onHoldProblem = jest.fn();
		const { time, renewals, store, options } = held({ maxWaitMs: 5 * 60_000, onHoldProblem });
		const admission = await admit(store, 'evt_1', options);
		if (admission.kind !== 'start') throw new Error('not started');
		await time.advance(60 * 60_000);
		expect(renewals[renewals.length - 1].at).toBeLessThan(5 * 60_000);
		expect(onHoldProblem).toHaveBeenCalledTimes(1);
		expect(onHoldProblem).toHaveBeenCalledWith('evt_1', expect.stringContaining('5 min'));
	});

	it('retries a failed renewal at the next tick and says it once per run of failures', async () => {
		const onHoldProblem = jest.fn();
		let failing = 3;
		const time = virtualTime();
		const { store, calls } = scriptedStore({
			renew: () => {
				if (calls.filter((call) => call === 'renew').length > 1 && failing-- > 0)
					throw new Error('redis down');
				return true;
			},
		});
		const options = lifecycle({ now: time.now, tick: time.tick, onHoldProblem });
		const admission = await admit(store, 'evt_1', options);
		if (admission.kind !== 'start') throw new Error('not started');
		await time.advance(2 * START_MS);
		expect(calls.filter((call) => call === 'renew')).toHaveLength(7);
		expect(onHoldProblem).toHaveBeenCalledTimes(1);
		expect(onHoldProblem).toHaveBeenCalledWith('evt_1', expect.stringContaining('redis down'));
	});

	it('stops holding when another delivery took the lapsed claim, and says so', async () => {
		const onHoldProblem = jest.fn();
		const time = virtualTime();
		const { store, calls } = scriptedStore({
			renew: () => calls.filter((call) => call === 'renew').length < 2,
		});
		const admission = await admit(
			store,
			'evt_1',
			lifecycle({ now: time.now, tick: time.tick, onHoldProblem }),
		);
		expect(admission.kind).toBe('start');
		await time.advance(5 * START_MS);
		expect(calls.filter((call) => call === 'renew')).toHaveLength(2);
		expect(onHoldProblem).toHaveBeenCalledWith(
			'evt_1',
			expect.stringContaining('another delivery'),
		);
	});
});

// ---------------------------------------------------------------------------------------------
// Model-based test
// ---------------------------------------------------------------------------------------------

/** How one delivery goes. */
interface Delivery {
	id: number;
	/** Preparation throws (the refetch or the output failed). */
	prepareThrows: boolean;
	/** Time the preparation takes, within its budget. */
	prepareTakesMs: number;
	/** A redelivery of the same id arrives this long into the preparation. */
	nestedAtMs?: number;
	/** n8n fails to create the execution: the answer is never read. */
	executionFails: boolean;
	/** The process dies after the execution exists and before the commit. */
	crashBeforeCommit: boolean;
}

type Action =
	| { kind: 'deliver'; delivery: Delivery }
	| { kind: 'concurrent'; id: number; copies: number }
	| { kind: 'clock'; deltaMs: number }
	| { kind: 'restart' }
	| { kind: 'redisDown'; commands: number };

const ID_COUNT = 6;

/** True about once in `n` times. */
const oneIn = (n: number) => fc.nat(n - 1).map((x) => x === 0);

const delivery: fc.Arbitrary<Delivery> = fc.record({
	id: fc.nat(ID_COUNT - 1),
	prepareThrows: oneIn(6),
	prepareTakesMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: PREPARE_MS })),
	nestedAtMs: fc.option(fc.integer({ min: 0, max: PREPARE_MS }), { nil: undefined }),
	executionFails: oneIn(7),
	crashBeforeCommit: oneIn(9),
});

const plainDelivery = (id: number): Delivery => ({
	id,
	prepareThrows: false,
	prepareTakesMs: 0,
	executionFails: false,
	crashBeforeCommit: false,
});

const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 8, arbitrary: delivery.map((d) => ({ kind: 'deliver' as const, delivery: d })) },
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('concurrent' as const),
			id: fc.nat(ID_COUNT - 1),
			copies: fc.integer({ min: 2, max: 20 }),
		}),
	},
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			deltaMs: fc.oneof(
				fc.integer({ min: 0, max: 2 * START_MS }),
				fc.integer({ min: 0, max: 3 * 3_600_000 }),
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
);

/** The world a store lives in: how to make one, restart the process, and fail Redis. */
interface StoreWorld {
	/** The store as this process sees it now. */
	store(): ClaimStore;
	/** The process dies and starts again: what it kept only in memory is gone. */
	restart(): void;
	/** The next `commands` store calls fail as a Redis outage does (no-op for the built-in store). */
	failNext(commands: number): void;
	windowMs: number;
	/** Expiry is counted in whole minutes by the built-in store: either answer is right this close to it. */
	windowSlackMs: number;
	/** Redis keeps leases across a process restart; the built-in store holds them in memory. */
	leasesSurviveRestart: boolean;
}

/**
 * The reference: per id, when it was committed and until when a lease may be held. Checks every
 * answer of the real store against it while the scenario runs.
 */
class Model {
	committedAt = new Map<number, number>();
	leaseEnd = new Map<number, number>();
	starts = new Map<number, number[]>();
	/** Ids a crash or a failed commit left started but unremembered: a second start is documented. */
	unprotected = new Set<number>();
	violations: string[] = [];

	constructor(private readonly world: StoreWorld) {}

	/** The process died: leases held in its memory are gone with it. */
	restarted(): void {
		if (!this.world.leasesSurviveRestart) this.leaseEnd.clear();
	}

	expectClaim(id: number, now: number, answer: string): void {
		const committed = this.committedAt.get(id);
		const window = this.world.windowMs;
		if (committed !== undefined && now < committed + window) {
			if (answer !== 'duplicate')
				this.violations.push(`${id}: ${answer} inside the window at ${now - T0}`);
			return;
		}
		const slack = committed !== undefined && now < committed + window + this.world.windowSlackMs;
		if (slack && answer === 'duplicate') return;
		const end = this.leaseEnd.get(id);
		const live = end !== undefined && now < end;
		const expected = live ? 'busy' : 'claimed';
		if (answer !== expected)
			this.violations.push(`${id}: ${answer}, expected ${expected} at ${now - T0}`);
	}

	start(id: number, now: number): void {
		const previous = this.starts.get(id) ?? [];
		const last = previous[previous.length - 1];
		if (last !== undefined && now - last < this.world.windowMs && !this.unprotected.has(id))
			this.violations.push(`${id}: started twice inside the window (${last - T0}, ${now - T0})`);
		this.starts.set(id, [...previous, now]);
	}
}

async function runScenario(
	world: StoreWorld,
	actions: Action[],
	lifecycleLease = { prepareMs: PREPARE_MS, startMs: START_MS },
) {
	const model = new Model(world);
	let now = T0;
	/** Ids the service has not yet had a 2xx for; it keeps redelivering them. */
	const pending = new Set<number>();

	const deliver = async (d: Delivery): Promise<number> => {
		const store = world.store();
		const claimAt = now;
		let claimed = false;
		// The model moves by what the contract says each step does; the store is only watched for
		// the outages injected into it, and its claim answers are checked against the model.
		const failed = new Set<keyof ClaimStore>();
		let committed = false;
		const watch = async <T>(step: keyof ClaimStore, run: () => Promise<T>): Promise<T> => {
			try {
				return await run();
			} catch (error) {
				if (error instanceof DedupeUnavailableError) failed.add(step);
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- the store's own error, passed on to the lifecycle under test
				throw error;
			}
		};
		const observing: ClaimStore = {
			claim: async (...args) => {
				const result = await watch('claim', async () => await store.claim(...args));
				model.expectClaim(d.id, claimAt, result.kind);
				if (result.kind === 'claimed') {
					claimed = true;
					model.leaseEnd.set(d.id, claimAt + PREPARE_MS + START_MS);
				}
				return result;
			},
			renew: async (...args) => await watch('renew', async () => await store.renew(...args)),
			commit: async (...args) => {
				await watch('commit', async () => await store.commit(...args));
				committed = true;
			},
			release: async (...args) => await watch('release', async () => await store.release(...args)),
		};
		let admission: Admission<number>;
		try {
			admission = await admit(observing, `evt_${d.id}`, {
				now: () => now,
				sleep: async (ms) => {
					now += ms;
				},
				...lifecycleLease,
				windowMs: world.windowMs,
				commitRetryDelaysMs: [1_000, 2_000],
				onReleaseFailure: () => {},
				onUnprotected: () => model.unprotected.add(d.id),
				prepare: async () => {
					if (d.nestedAtMs !== undefined && d.nestedAtMs <= d.prepareTakesMs) {
						now += d.nestedAtMs;
						await deliver({ ...d, nestedAtMs: undefined, prepareTakesMs: 0 });
						now += d.prepareTakesMs - d.nestedAtMs;
					} else now += d.prepareTakesMs;
					if (d.prepareThrows) throw new Error('preparation failed');
					return d.id;
				},
			});
		} catch (error) {
			if (error instanceof DedupeUnavailableError) return 503;
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a bug in the test itself: fail the run with it
			throw error;
		}
		if (admission.kind === 'failed') {
			// A failed preparation gives the id back at once, unless Redis was down for that too.
			if (!failed.has('release')) model.leaseEnd.delete(d.id);
			return 500;
		}
		if (admission.kind === 'duplicate') return 200;
		if (admission.kind === 'busy') {
			// This delivery's own lease was lost although its preparation stayed within the budget.
			if (claimed)
				model.violations.push(`${d.id}: lost its lease within the budget at ${now - T0}`);
			return 409;
		}
		model.leaseEnd.set(d.id, now + START_MS);
		if (d.executionFails) return 500;
		model.start(d.id, now);
		if (d.crashBeforeCommit) {
			model.unprotected.add(d.id);
			world.restart();
			model.restarted();
			return 0; // the connection dropped: the service retries
		}
		const commitAt = now;
		await admission.commit();
		if (committed) {
			model.committedAt.set(d.id, commitAt);
			model.leaseEnd.delete(d.id);
		}
		return 200;
	};

	for (const act of actions) {
		switch (act.kind) {
			case 'deliver': {
				pending.add(act.delivery.id);
				const status = await deliver(act.delivery);
				if (status === 200) pending.delete(act.delivery.id);
				break;
			}
			case 'concurrent': {
				pending.add(act.id);
				const statuses = await Promise.all(
					Array.from({ length: act.copies }, async () => await deliver(plainDelivery(act.id))),
				);
				if (statuses.includes(200)) pending.delete(act.id);
				break;
			}
			case 'clock':
				now += act.deltaMs;
				break;
			case 'restart':
				world.restart();
				model.restarted();
				break;
			case 'redisDown':
				world.failNext(act.commands);
				break;
		}
	}

	// The service keeps redelivering what it has no 2xx for, with its backoff, until it gets one.
	for (const id of pending) {
		for (let attempt = 0; attempt < 10; attempt++) {
			now += 2 * (PREPARE_MS + START_MS);
			const status = await deliver(plainDelivery(id));
			if (status === 200) break;
		}
	}
	for (const id of pending) {
		const starts = model.starts.get(id) ?? [];
		if (starts.length === 0)
			model.violations.push(`${id}: redelivered until acknowledged, never started`);
	}
	return model;
}

function memoryWorld(windowMs = WINDOW_MS): StoreWorld {
	let persisted: unknown;
	let memory = new MemoryDedupeStore({ windowMs, capacity: 10_000 });
	// The trigger writes the snapshot at each commit (persistence.ts); a restart reads it back.
	const persisting: ClaimStore = {
		claim: async (...args) => await memory.claim(...args),
		renew: async (...args) => await memory.renew(...args),
		release: async (claim) => await memory.release(claim),
		commit: async (claim, nowMs) => {
			await memory.commit(claim, nowMs);
			persisted = JSON.parse(JSON.stringify(memory.snapshot()));
		},
	};
	return {
		store: () => persisting,
		restart: () => {
			memory = MemoryDedupeStore.fromSnapshot(persisted, { windowMs, capacity: 10_000 });
		},
		failNext: () => {},
		windowMs,
		windowSlackMs: 2 * 60_000,
		leasesSurviveRestart: false,
	};
}

const MODEL_RUNS = 60;

describe('model: one start per event id, whatever fails around a delivery', () => {
	it(
		'the built-in store agrees with the model',
		async () => {
			await fc.assert(
				fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
					const model = await runScenario(memoryWorld(), actions);
					expect(model.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
		},
		timeoutFor(MODEL_RUNS * 3, 100),
	);

	it(
		'finds a lease that does not cover a slow preparation',
		async () => {
			const failure = await fc.check(
				fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
					const model = await runScenario(memoryWorld(), actions, {
						prepareMs: 0,
						startMs: START_MS,
					});
					expect(model.violations).toEqual([]);
				}),
				fcParameters(MODEL_RUNS * 3),
			);
			expect(failure.failed).toBe(true);
		},
		timeoutFor(MODEL_RUNS * 3, 100),
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
			const flaky = {
				eval: (async (...args: Parameters<Redis['eval']>) => {
					if (failing > 0) {
						failing--;
						throw outage;
					}
					return await client.eval(...args);
				}) as Redis['eval'],
			};
			const store = new RedisDedupeStore(flaky, connection, {
				scope: `model:${++scope}:${Date.now()}`,
				windowMs: WINDOW_MS,
			});
			return {
				store: () => store,
				restart: () => {},
				failNext: (commands) => {
					failing = commands;
				},
				windowMs: WINDOW_MS,
				windowSlackMs: 0,
				leasesSurviveRestart: true,
			};
		}

		it(
			'the Redis store agrees with the model',
			async () => {
				await fc.assert(
					fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
						const model = await runScenario(redisWorld(), actions);
						expect(model.violations).toEqual([]);
					}),
					fcParameters(MODEL_RUNS),
				);
			},
			timeoutFor(MODEL_RUNS, 2_000),
		);
	});
});
