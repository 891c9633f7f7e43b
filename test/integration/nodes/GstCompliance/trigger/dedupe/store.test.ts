/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The store the trigger opens (store.ts) when a Redis credential is attached, through webhook()
 * and the execution's first step, against a real redis-server (started here; missing, the suite
 * fails with the command that installs it).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { DedupeUnavailableError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import { settings } from '@/nodes/GstCompliance/settings';
import { RedisDedupeStore } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisStore';
import {
	redisDeliveryKey,
	redisEventKey,
	ledgerScope,
	type LedgerScope,
} from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { freePort, sleep, waitFor } from '@/test/harness/http';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	signed,
} from '@/test/integration/helpers/deliverToTrigger';
import { holdingProxy } from '@/test/harness/holdingProxy';
import { suiteRedis } from '@/test/integration/helpers/suiteRedis';

jest.setTimeout(60_000);

const PASSWORD = 'redis-store-Pa55word';
const suite = suiteRedis('store-redis', PASSWORD);

describe('the trigger with a Redis credential', () => {
	let now = NOW_MS;
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	const redisCredential = () => ({
		host: suite.server.host,
		port: suite.server.port,
		database: 3,
		password: PASSWORD,
	});
	const body = (id: string) => JSON.stringify(envelope({ id }));
	const key = (id: string) =>
		redisEventKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), id);
	const deliveryKey = (id: string) =>
		redisDeliveryKey(ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), id);

	it('accepts at once, starts the event once in its execution; the id is kept for the window in Redis', async () => {
		const first = await deliver({
			...signed(body('evt_n1')),
			redis: redisCredential(),
			execution: 'later',
		});
		expect(first).toMatchObject({ status: 202, body: { received: true } });
		expect(await suite.inspect.get(key('evt_n1'))).toMatch(/^a:\d+:[0-9a-f-]{36}$/);
		// The delivery is kept beside it until the start, to deliver again if its execution is lost.
		expect(await suite.inspect.get(deliveryKey('evt_n1'))).toBe(
			Buffer.from(body('evt_n1')).toString('base64'),
		);
		// A copy while the execution waits creates none, and is answered at once (Redis holds the
		// acceptance).
		const copy = await deliver({ ...signed(body('evt_n1')), redis: redisCredential() });
		expect(copy).toEqual({
			status: 202,
			body: { received: true, duplicate: true },
			started: undefined,
			acknowledgedBeforeSave: { status: 202, body: { received: true, duplicate: true } },
		});
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await suite.inspect.get(key('evt_n1'))).toMatch(/^d:t:[0-9a-f-]{36}$/);
		expect(await suite.inspect.get(deliveryKey('evt_n1'))).toBeNull();
		expect(await suite.inspect.pttl(key('evt_n1'))).toBeGreaterThan(24 * 3_600_000);
		const again = await deliver({ ...signed(body('evt_n1')), redis: redisCredential() });
		expect(again).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('a Test-URL delivery writes no key: each listening session runs its event, production apart', async () => {
		for (const session of [1, 2]) {
			const test = await deliver({
				...signed(body('evt_modes')),
				mode: 'manual',
				redis: redisCredential(),
			});
			expect({ session, started: test.started?.length }).toEqual({ session, started: 1 });
		}
		// The test mode's scope, which no release keeps, and production's.
		for (const scope of [
			'wf1:node-1:test' as LedgerScope,
			ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }),
		])
			expect(await suite.inspect.get(redisEventKey(scope, 'evt_modes'))).toBeNull();
		const production = await deliver({ ...signed(body('evt_modes')), redis: redisCredential() });
		expect(production.started).toHaveLength(1);
	});

	it('version 3 with Dedupe Store Built-In → the built-in store, though a Redis credential is attached', async () => {
		const result = await deliver({
			...signed(body('evt_builtin_chosen')),
			redis: redisCredential(),
			typeVersion: 3,
			dedupeStore: 'builtIn',
		});
		expect(result.started).toHaveLength(1);
		expect(await suite.inspect.get(key('evt_builtin_chosen'))).toBeNull();
	});

	it('version 3 with Dedupe Store Redis and no credential → 500 "not configured", saying what to select', async () => {
		const result = await deliver({
			...signed(body('evt_redis_missing')),
			typeVersion: 3,
			dedupeStore: 'redis',
		});
		expect(result).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
			started: undefined,
		});
	});

	it('Redis down for a moment when the execution starts: the start is tried again and the event starts once', async () => {
		const sleeps = jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const first = await deliver({
			...signed(body('evt_blip_start')),
			redis: redisCredential(),
			execution: 'later',
		});
		const outage = new DedupeUnavailableError(
			`${suite.server.host}:${suite.server.port}`,
			'Connection is closed.',
		);
		jest
			.spyOn(RedisDedupeStore.prototype, 'start')
			.mockRejectedValueOnce(outage)
			.mockRejectedValueOnce(outage);
		expect((await first.execution!()).items).toHaveLength(1);
		expect(sleeps.mock.calls.map(([ms]) => ms)).toEqual([1_000, 2_000]);
	});

	it('Redis down when the execution starts, for longer than its retries: the execution fails holding its event, and its retry starts it once', async () => {
		jest.spyOn(settings, 'sleep').mockResolvedValue(undefined);
		const first = await deliver({
			...signed(body('evt_retry_start')),
			redis: redisCredential(),
			execution: 'later',
		});
		const outage = new DedupeUnavailableError(
			`${suite.server.host}:${suite.server.port}`,
			'Connection is closed.',
		);
		const start = jest.spyOn(RedisDedupeStore.prototype, 'start').mockRejectedValue(outage);
		await expect(first.execution!()).rejects.toThrow(/Connection is closed/);
		expect(start).toHaveBeenCalledTimes(6);
		start.mockRestore();
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await suite.inspect.get(key('evt_retry_start'))).toMatch(/^d:t:/);
	});

	it('a start whose reply comes after the command timeout (Redis paused 2.5 s): its retry finds its own mark, and the event starts in its only execution', async () => {
		const first = await deliver({
			...signed(body('evt_stalled')),
			redis: redisCredential(),
			execution: 'later',
		});
		// Writes wait while Redis is paused; the start's script runs when it ends, after the
		// client has given up on its reply (2 s) and before the retry (1 s later).
		await suite.inspect.call('CLIENT', 'PAUSE', 2_500, 'WRITE');
		const run = await first.execution!();
		expect(run).toEqual({ items: [expect.objectContaining({ id: 'evt_stalled' })], hints: [] });
		expect(await suite.inspect.get(key('evt_stalled'))).toMatch(/^d:t:/);
		// Any other acceptance of the event is a copy.
		expect(await deliver({ ...signed(body('evt_stalled')), redis: redisCredential() })).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('an accept whose reply comes after the command timeout (answered 503) → its acceptance is taken back: the service’s retry is accepted and its execution starts the event', async () => {
		const proxy = await holdingProxy({ host: suite.server.host, port: suite.server.port });
		try {
			const viaProxy = { ...redisCredential(), port: proxy.port };
			// The ACCEPT script's reply held 2.5 s: Redis ran it, the client gave up at 2 s.
			proxy.holdAfter('onItsWay', 2_500);
			const first = await deliver({ ...signed(body('evt_late_accept')), redis: viaProxy });
			expect(first).toMatchObject({ status: 503, started: undefined });
			await sleep(1_000);
			const retry = await deliver({ ...signed(body('evt_late_accept')), redis: viaProxy });
			expect(retry).toMatchObject({ status: 202, body: { received: true } });
			expect(retry.started).toEqual([expect.objectContaining({ id: 'evt_late_accept' })]);
		} finally {
			await proxy.cut();
		}
	});

	it('an accept whose connection closes after Redis ran it (answered 503) → its acceptance is taken back on a new connection: the service’s retry is accepted and its execution starts the event', async () => {
		const proxy = await holdingProxy({ host: suite.server.host, port: suite.server.port });
		try {
			const viaProxy = { ...redisCredential(), port: proxy.port };
			// A workflow of its own: its 503 is the first refusal of its trigger's log, not Redis-down's.
			const workflow = newWorkflow('wf-dropped-accept');
			const delivery = { ...signed(body('evt_dropped_accept')), redis: viaProxy, workflow };
			// Redis runs the ACCEPT script; its reply never comes: the link closes under it.
			proxy.dropAfter('onItsWay');
			const first = await deliver(delivery);
			expect(first).toMatchObject({ status: 503, started: undefined });
			const scope = ledgerScope({ workflowId: workflow.id, nodeId: workflow.nodeId });
			expect(await suite.inspect.get(redisEventKey(scope, 'evt_dropped_accept'))).toBeNull();
			const retry = await deliver(delivery);
			expect(retry).toMatchObject({ status: 202, body: { received: true } });
			expect(retry.started).toEqual([expect.objectContaining({ id: 'evt_dropped_accept' })]);
		} finally {
			await proxy.cut();
		}
	});

	it('the same item started twice (a Retry from the executions list after its start failed late) → started both times; another acceptance’s execution → duplicate', async () => {
		const first = await deliver({
			...signed(body('evt_same_item')),
			redis: redisCredential(),
			execution: 'later',
		});
		const store = new RedisDedupeStore(
			async (step) => await step(suite.inspect),
			{ host: suite.server.host, port: suite.server.port, database: 3, password: PASSWORD },
			{ scope: ledgerScope({ workflowId: 'wf1', nodeId: 'node-1' }), windowMs: 60_000 },
		);
		expect(
			await store.start('evt_same_item', now, { token: 'other', process: 'p', acceptedMs: now }),
		).toBe('started');
		expect((await first.execution!()).items).toHaveLength(0);
		expect(
			await store.start('evt_same_item', now, { token: 'other', process: 'p', acceptedMs: now }),
		).toBe('started');
		expect(await store.start('evt_same_item', now)).toBe('duplicate');
	});

	it('Redis down: 503, nothing starts, the log names the host and never the password', async () => {
		const port = await freePort();
		const logs: Array<[string, string]> = [];
		const logger = Container.get(Logger);
		for (const level of ['error', 'warn'] as const)
			jest
				.spyOn(logger, level)
				.mockImplementation((...args: unknown[]) => void logs.push([level, String(args[0])]));
		const result = await deliver({
			...signed(body('evt_down')),
			redis: { host: '127.0.0.1', port, password: 'n0t-in-any-log' },
		});
		expect(result.status).toBe(503);
		expect(result.started).toBeUndefined();
		expect(JSON.stringify(result.body)).not.toContain('127.0.0.1');
		const warnings = logs.filter(([level]) => level === 'warn').map(([, m]) => m);
		expect(
			warnings.some((m) => m.includes(`refused (503)`) && m.includes(`127.0.0.1:${port}`)),
		).toBe(true);
		expect(JSON.stringify(logs)).not.toContain('n0t-in-any-log');
	});

	it('a forged or unselected delivery never reaches Redis: 401 / 200 even while it is down', async () => {
		const port = await freePort();
		const down = { host: '127.0.0.1', port, password: 'x-Pa55-x' };
		const forged = signed(body('evt_forged'), undefined, 'whsec_not_the_secret_0123456789');
		expect((await deliver({ ...forged, redis: down })).status).toBe(401);
		const unselected = await deliver({
			...signed(JSON.stringify(envelope({ id: 'evt_unsel', type: 'ewaybill.expired' }))),
			events: ['einvoice.generated'],
			redis: down,
		});
		expect(unselected).toMatchObject({ status: 200, started: undefined });
	});

	it('Redis restarted: the next delivery after it is back is served, and remembered ids stay', async () => {
		const first = await deliver({ ...signed(body('evt_restart')), redis: redisCredential() });
		expect(first.started).toHaveLength(1);
		expect(await suite.inspect.get(key('evt_restart'))).toMatch(/^d:t:/);
		await suite.server.stop();
		const down = await deliver({ ...signed(body('evt_restart2')), redis: redisCredential() });
		expect(down.status).toBe(503);
		await suite.server.start();
		const result = await waitFor(
			async () => {
				const r = await deliver({ ...signed(body('evt_restart')), redis: redisCredential() });
				return r.status === 503 ? undefined : r;
			},
			'the client to reconnect',
			15_000,
			200,
		);
		expect(result.body).toEqual({ received: true, duplicate: true });
		const next = await deliver({ ...signed(body('evt_restart2')), redis: redisCredential() });
		expect(next.started).toHaveLength(1);
	});
});
