/**
 * The two acknowledgement scenarios of docs/trigger.md, "n8n's concurrency limit", in a real n8n
 * with the service emulator as the sender (its delivery timeout, exponential backoff and
 * consecutive-failure count): a burst behind the production concurrency limit, and a SIGKILL while
 * deliveries wait for a slot. Used by the e2e spec (n8n 2.41), the compatibility project (the other
 * versions) and bench item 10. What they count is what a user counts: the service's failed
 * attempts, and per event how many executions did its work (the node after the trigger ran).
 */
import { EVENT_TYPES } from '../emulator';
import { chain, CRED, triggerNode, triggerUrl, uuid, webhookNode } from './gst';
import { sleep, waitFor } from './http';
import type { N8n } from './n8n';
import { killHard, startSession, type Session } from './session';
import { triggerUrlOf } from './workflows';

/** Every execution of a workflow, through n8n's paged list (2.41: `cursor`; older: `lastId`). */
export async function allExecutions(
	n8n: N8n,
	workflowId: string,
): Promise<Array<{ id: string; status: string; createdAt?: string }>> {
	const all: Array<{ id: string; status: string; createdAt?: string }> = [];
	const statuses = ['success', 'error', 'crashed', 'canceled', 'running', 'new', 'waiting'];
	let page = '';
	for (let guard = 0; guard < 1_000; guard++) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: statuses }));
		const data = await n8n.rest('GET', `/executions?filter=${filter}&limit=100${page}`);
		const results = data.results as Array<{ id: string; status: string; createdAt?: string }>;
		all.push(...results);
		if (results.length < 100) break;
		page = data.nextCursor
			? `&cursor=${encodeURIComponent(String(data.nextCursor))}`
			: `&lastId=${results[results.length - 1].id}`;
	}
	return [...new Map(all.map((e) => [e.id, e])).values()];
}

export interface WorkCount {
	/** Executions of the workflow, whatever they did. */
	executions: number;
	/** event id → executions in which the node after the trigger ran. */
	workRuns: Map<string, number>;
	/** Executions that ended at the trigger without items (a copy of an event already started). */
	empty: number;
	/** Executions n8n lists but cannot open: their data was never written (n8n.ts). */
	unreadable: string[];
	/** Executions not finished successfully, by status. */
	unsuccessful: string[];
	/** event id → when n8n wrote its first execution's row (epoch ms). */
	createdAt: Map<string, number>;
}

/** Counts, per event, the executions whose work node ran. */
export async function countWork(
	n8n: N8n,
	workflowId: string,
	triggerName: string,
	workName: string,
): Promise<WorkCount> {
	const executions = await allExecutions(n8n, workflowId);
	const workRuns = new Map<string, number>();
	let empty = 0;
	const unsuccessful: string[] = [];
	const unreadable: string[] = [];
	const createdAt = new Map<string, number>();
	for (const { id, status, createdAt: created } of executions) {
		if (status !== 'success') unsuccessful.push(`${id}: ${status}`);
		const detail = await n8n.executionIfReadable(id);
		if (!detail) {
			unreadable.push(`${id}: ${status}`);
			continue;
		}
		const runData = detail.data?.resultData?.runData ?? {};
		const trigger = runData[triggerName]?.at(-1)?.data?.main?.[0] ?? [];
		const eventId = trigger[0]?.json?.id as string | undefined;
		if (!eventId) {
			empty++;
			continue;
		}
		const at = Date.parse(created ?? '');
		if (Number.isFinite(at) && !(at >= (createdAt.get(eventId) ?? Infinity)))
			createdAt.set(eventId, at);
		const worked = (runData[workName]?.length ?? 0) > 0 ? 1 : 0;
		workRuns.set(eventId, (workRuns.get(eventId) ?? 0) + worked);
	}
	return { executions: executions.length, workRuns, empty, unreadable, unsuccessful, createdAt };
}

/** A Wait node of `seconds` (under 65 s it holds its concurrency slot), the work after a start node. */
export function workNode(name: string, seconds: number, position: [number, number] = [220, 0]) {
	return {
		id: uuid(),
		name,
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position,
		parameters: { resume: 'timeInterval', amount: seconds, unit: 'seconds' },
	};
}

export interface Scenario {
	session: Session;
	n8n: N8n;
	workflowId: string;
	subscriptionId: string;
	triggerName: string;
	workName: string;
}

/**
 * A session (emulator + n8n with `env`), a subscription to a published workflow whose trigger is
 * followed by a node that works `workSeconds` (a Wait), its signing secret in the credential.
 */
export async function scenario(
	name: string,
	opts: {
		env: Record<string, string>;
		workSeconds: number;
		serviceTimeoutMs: number;
		retryBaseMs: number;
		triggerOptions?: Record<string, unknown>;
		/** A Redis for a GST Compliance Dedupe Redis credential on the trigger. */
		redis?: { host: string; port: number };
		/**
		 * n8n is killed and started again while the service retries: the subscription goes through
		 * the readiness check a deployment puts in front of a restarting n8n (readinessGate.ts).
		 * Otherwise the service delivers straight to n8n, as to the Webhook node it is set beside.
		 */
		restarts?: boolean;
		/** n8n's clock offset (faketime) at its first start. */
		clockOffset?: string;
	},
): Promise<Scenario> {
	const session = await startSession(
		{ retryBaseMs: opts.retryBaseMs, deliveryTimeoutMs: opts.serviceTimeoutMs },
		{ name, env: opts.env, clockOffset: opts.clockOffset },
	);
	const { n8n, emulator, client } = session;
	const webhookId = uuid();
	const subscription = emulator.control.createSubscription({
		clientId: client.clientId,
		url: opts.restarts ? triggerUrlOf(n8n, webhookId) : triggerUrl(n8n, { webhookId }),
		events: [...EVENT_TYPES],
	});
	const webhookCredential = await n8n.createCredential('GST webhook (subscription)', CRED.webhook, {
		signingSecret: subscription.signingSecret,
		previousSigningSecret: '',
	});
	const trigger = triggerNode({ events: ['*'], webhookCredential, webhookId });
	if (opts.redis)
		(trigger.credentials as Record<string, unknown>)[CRED.redis] = await n8n.createCredential(
			'GST dedupe Redis',
			CRED.redis,
			{ ...opts.redis, database: 0, user: '', password: '', ssl: false },
		);
	if (opts.triggerOptions)
		(trigger.parameters as Record<string, unknown>).options = opts.triggerOptions;
	const work = workNode(`Work for ${opts.workSeconds} s`, opts.workSeconds);
	const wf = await n8n.createWorkflow({
		name: `${name} ${uuid().slice(0, 8)}`,
		nodes: [trigger, work],
		connections: chain(trigger.name as string, work.name),
	});
	await n8n.activateWorkflow(wf.id);
	return {
		session,
		n8n,
		workflowId: wf.id,
		subscriptionId: subscription.id,
		triggerName: trigger.name as string,
		workName: work.name,
	};
}

/** Emits `count` einvoice.generated events spread over `withinMs`; returns their ids. */
export async function emitEvents(s: Scenario, count: number, withinMs: number): Promise<string[]> {
	const { control } = s.session.emulator;
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const event = control.emitEvent({
			clientId: s.session.client.clientId,
			type: 'einvoice.generated',
			data: { id: `einv_${uuid().slice(0, 12)}`, object: 'einvoice', status: 'generated' },
		});
		ids.push(event.id);
		await sleep(withinMs / count);
	}
	return ids;
}

export interface ServiceView {
	attempts: number;
	failedAttempts: number;
	longestFailureRun: number;
	notDelivered: string[];
	active: boolean;
	/** The successful attempts' answer times, 99th percentile (nearest rank), ms; printed, never asserted. */
	ackP99Ms: number;
}

/**
 * Waits until the service has settled every delivery (delivered, or dead-lettered once the
 * subscription is deactivated; bounded), then says what it saw.
 */
export async function serviceView(s: Scenario, timeoutMs: number): Promise<ServiceView> {
	const { control } = s.session.emulator;
	const deliveries = () => control.deliveries({ subscriptionId: s.subscriptionId });
	await waitFor(
		async () => deliveries().every((d) => d.state !== 'pending'),
		'every delivery to be acknowledged or dead-lettered',
		timeoutMs,
		500,
	).catch(() => undefined); // the assertions on `notDelivered` say what was missing
	const all = deliveries();
	const sub = control.subscriptions().find((x) => x.id === s.subscriptionId);
	const attempts = all.reduce((sum, d) => sum + d.attempts, 0);
	const ackMs = all
		.map((d) => d.acknowledgedAfterMs)
		.filter((ms): ms is number => ms !== null)
		.sort((a, b) => a - b);
	return {
		ackP99Ms: Math.round(ackMs[Math.max(0, Math.ceil(ackMs.length * 0.99) - 1)] ?? NaN),
		attempts,
		failedAttempts: attempts - all.filter((d) => d.state === 'delivered').length,
		longestFailureRun: sub?.longestFailureRun ?? NaN,
		notDelivered: all.filter((d) => d.state !== 'delivered').map((d) => d.eventId),
		active: sub?.active ?? false,
	};
}

/**
 * Waits until no execution of the workflow is new, running or waiting, and the count holds.
 * `stranded`: executions queued at a restart that this n8n never runs again (2.0–2.33).
 */
export async function settled(
	s: Scenario,
	timeoutMs: number,
	stranded: ReadonlySet<string> = new Set(),
): Promise<void> {
	let last = -1;
	await waitFor(
		async () => {
			const list = await allExecutions(s.n8n, s.workflowId);
			const busy = list.some(
				(e) =>
					['new', 'running', 'waiting'].includes(e.status) &&
					!(e.status === 'new' && stranded.has(e.id)),
			);
			const stable = !busy && list.length === last;
			last = list.length;
			return stable;
		},
		'executions to settle',
		timeoutMs,
		2_000,
	);
}

/**
 * A slot holder: a plain n8n Webhook workflow whose execution waits `seconds`, so deliveries to
 * the trigger queue behind it (the limit counts every production execution). Returns its URL.
 */
export async function slotHolder(n8n: N8n, seconds: number): Promise<string> {
	const path = `hold-${uuid().slice(0, 8)}`;
	const webhook = webhookNode(path, 'Hold', 'onReceived');
	const wait = workNode('Hold the slot', seconds);
	const wf = await n8n.createWorkflow({
		name: `slot holder ${path}`,
		nodes: [webhook, wait],
		connections: chain(webhook.name, wait.name),
	});
	await n8n.activateWorkflow(wf.id);
	return `${n8n.baseUrl}/webhook/${path}`;
}

export interface BurstResult {
	emitted: string[];
	service: ServiceView;
	work: WorkCount;
}

/**
 * `events` einvoice.generated events within `withinMs` to a workflow whose work takes
 * `workSeconds`, n8n's production concurrency limit at `limit`, the service waiting
 * `serviceTimeoutMs` for each answer and retrying with backoff.
 */
export async function burstBehindLimit(
	name: string,
	opts: {
		limit: number;
		events: number;
		withinMs: number;
		workSeconds: number;
		serviceTimeoutMs: number;
		retryBaseMs: number;
		triggerOptions?: Record<string, unknown>;
		/** A Redis for the trigger's Dedupe Store. */
		redis?: { host: string; port: number };
		/** Sees the scenario before it stops (bench item 10 reads the emulator's deliveries). */
		observe?: (
			s: Scenario,
			emitted: string[],
			startedAt: number,
			work: WorkCount,
			service: ServiceView,
			acknowledgedAt: number,
		) => void;
	},
): Promise<BurstResult> {
	const s = await scenario(name, {
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(opts.limit) },
		...opts,
	});
	try {
		const startedAt = Date.now();
		const emitted = await emitEvents(s, opts.events, opts.withinMs);
		const backlogMs = (opts.events / opts.limit) * opts.workSeconds * 1000;
		const service = await serviceView(s, 4 * backlogMs + 120_000);
		const acknowledgedAt = Date.now();
		await settled(s, 4 * backlogMs + 60_000);
		const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
		opts.observe?.(s, emitted, startedAt, work, service, acknowledgedAt);
		return { emitted, service, work };
	} finally {
		await s.session.stop();
	}
}

/**
 * A scenario behind a production concurrency limit of 1, 1 s of work, a Missed Event Warning of
 * 1 min, n8n restarted in it.
 */
async function oneSlotScenario(
	name: string,
	opts: {
		serviceTimeoutMs: number;
		retryBaseMs: number;
		redis?: { host: string; port: number };
	},
): Promise<Scenario> {
	return await scenario(name, {
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' },
		workSeconds: 1,
		restarts: true,
		triggerOptions: { startWithinMinutes: 1 },
		...opts,
	});
}

/**
 * With the Redis store (answered at once on every version): n8n's only production slot is held
 * by another workflow, `events` deliveries are answered and wait for it, n8n is SIGKILLed and
 * started again. n8n 1.x and 2.34+ run the waiting executions again; 2.0–2.33 never do (their rows
 * stay queued), and past the Missed Event Warning (1 min) the next delivery makes the trigger
 * deliver those events to its own Production URL again. Returns once every event did its work or
 * two minutes after that delivery.
 */
export async function crashWhileQueuedWithRedis(
	name: string,
	opts: {
		events: number;
		serviceTimeoutMs: number;
		retryBaseMs: number;
		redis: { host: string; port: number };
	},
): Promise<BurstResult> {
	const s = await oneSlotScenario(name, opts);
	try {
		const holder = await slotHolder(s.n8n, 60);
		const held = await fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
		if (!held) throw new Error('the slot holder did not answer');
		const emitted = await emitEvents(s, opts.events, 1_000);
		const service = await serviceView(s, 60_000);
		const queued = (await allExecutions(s.n8n, s.workflowId)).filter((e) => e.status === 'new');
		if (queued.length === 0)
			throw new Error('no delivery was waiting for the slot at the kill: nothing was tested');
		await killHard(s.n8n);
		await s.n8n.restart();
		const stranded = new Set(queued.map((e) => e.id));
		await settled(s, 120_000, stranded);
		// Past the Missed Event Warning (1 min) of every acceptance before the kill.
		await sleep(65_000);
		const [after] = await emitEvents(s, 1, 0);
		await serviceView(s, 60_000);
		const all = [...emitted, after];
		await waitFor(
			async () => {
				const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
				return all.every((id) => (work.workRuns.get(id) ?? 0) > 0);
			},
			'every event to do its work',
			120_000,
			2_000,
		).catch(() => undefined);
		await settled(s, 60_000, stranded);
		const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
		return { emitted: all, service, work };
	} finally {
		await s.session.stop();
	}
}

export interface CrashResult extends BurstResult {
	/** Events done before the crash, each replayed from the dashboard after it (and one more event). */
	doneBefore: string[];
	/** The event delivered after the restart, whose acceptance saves the store again. */
	after: string;
}

/**
 * `doneBefore` events do their work first; then n8n's only production slot is held by another
 * workflow for `holdSeconds`, `events` deliveries reach the trigger and wait for it, and n8n is
 * SIGKILLed `killAfterMs` later and started again (the executions n8n runs again after a restart
 * carry no static data); the service retries what it got no 2xx for. Once all has settled, one
 * more event is delivered (its acceptance saves the store), then each event done before the crash
 * is replayed from the dashboard: a copy, which must do no work.
 */
export async function crashWhileQueued(
	name: string,
	opts: {
		doneBefore: number;
		events: number;
		holdSeconds: number;
		killAfterMs: number;
		/** This n8n runs queued executions again after a restart (1.x, 2.34+). */
		recoversQueued: boolean;
		serviceTimeoutMs: number;
		retryBaseMs: number;
		triggerOptions?: Record<string, unknown>;
		/**
		 * n8n's clock runs this far ahead until the kill (faketime, e.g. '+240s': inside the
		 * signature tolerance) and is the host's after the restart: a clock stepped back across it.
		 */
		clockAheadUntilKill?: string;
	},
): Promise<CrashResult> {
	const s = await scenario(name, {
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' },
		workSeconds: 1,
		restarts: true,
		clockOffset: opts.clockAheadUntilKill,
		...opts,
	});
	try {
		const doneBefore = await emitEvents(s, opts.doneBefore, 500);
		await serviceView(s, 60_000);
		await settled(s, 60_000);
		const holder = await slotHolder(s.n8n, opts.holdSeconds);
		const held = await fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
		if (!held) throw new Error('the slot holder did not answer');
		const emitted = await emitEvents(s, opts.events, 1_000);
		await sleep(opts.killAfterMs);
		const queued = (await allExecutions(s.n8n, s.workflowId)).filter((e) => e.status === 'new');
		if (queued.length === 0)
			throw new Error('no delivery was waiting for the slot at the kill: nothing was tested');
		await killHard(s.n8n);
		s.n8n.clockOffset = undefined;
		await s.n8n.restart();
		await serviceView(s, 240_000);
		// n8n 2.0–2.33 never run these again; 1.x and 2.34+ do.
		const stranded = new Set(queued.map((e) => e.id));
		await settled(s, 120_000, opts.recoversQueued ? undefined : stranded);
		const [after] = await emitEvents(s, 1, 0);
		// What the service saw of its own deliveries, before the replays add attempts.
		const service = await serviceView(s, 60_000);
		await settled(s, 60_000, opts.recoversQueued ? undefined : stranded);
		const { control } = s.session.emulator;
		for (const eventId of doneBefore) {
			const [first] = control.deliveries({ subscriptionId: s.subscriptionId, eventId });
			await control.replay(first.id);
		}
		await settled(s, 60_000, opts.recoversQueued ? undefined : stranded);
		const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
		return { emitted: [...doneBefore, ...emitted, after], service, work, doneBefore, after };
	} finally {
		await s.session.stop();
	}
}

/** What became of each event the service got a 2xx for, as a user can find it. */
export interface AcknowledgedAccount {
	/** Events answered 2xx (at some attempt). */
	acknowledged: string[];
	/** Of those, the events whose work node ran, and how often. */
	workRuns: Map<string, number>;
	/** Acknowledged, never worked, but in an execution n8n lists (queued, crashed, failed, hinted). */
	listed: string[];
	/** Acknowledged, never worked, and in no execution: lost with nothing to show for it. */
	silent: string[];
	/** Of `listed`, those in an execution n8n marked crashed (killed mid-run: retry it there). */
	crashed: string[];
}

/**
 * Accounts for each acknowledged event as a user without server access can: its work node ran,
 * or its id is in an execution n8n lists (one that holds it, queued or crashed, or whose hint or
 * error names it); else it is silent.
 */
export async function accountForAcknowledged(s: Scenario): Promise<AcknowledgedAccount> {
	const { control } = s.session.emulator;
	const acknowledged = [
		...new Set(
			control
				.deliveries({ subscriptionId: s.subscriptionId })
				.filter((d) => d.state === 'delivered')
				.map((d) => d.eventId),
		),
	];
	const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
	const texts: Array<{ status: string; text: string }> = [];
	for (const { id, status } of await allExecutions(s.n8n, s.workflowId))
		texts.push({ status, text: JSON.stringify((await s.n8n.executionIfReadable(id)) ?? '') });
	const listed: string[] = [];
	const silent: string[] = [];
	const crashed: string[] = [];
	for (const id of acknowledged) {
		if ((work.workRuns.get(id) ?? 0) > 0) continue;
		(texts.some(({ text }) => text.includes(id)) ? listed : silent).push(id);
		if (texts.some(({ status, text }) => status === 'crashed' && text.includes(id)))
			crashed.push(id);
	}
	// eslint-disable-next-line no-console -- what the count found, for whoever reads the run
	console.log(
		`acknowledged ${acknowledged.length}: worked ${acknowledged.length - listed.length - silent.length}, in an execution ${listed.length} (crashed ${crashed.length}), silent ${silent.length}`,
	);
	if (silent.length > 0)
		// What the service saw of each silent event, for whoever reads the failure.
		// eslint-disable-next-line no-console -- test tooling: the failure's evidence
		console.log(
			'silent events',
			JSON.stringify(
				control
					.deliveries({ subscriptionId: s.subscriptionId })
					.filter((d) => silent.includes(d.eventId)),
				null,
				1,
			),
			`n8n log: ${s.n8n.userFolder}/n8n.log`,
		);
	return { acknowledged, workRuns: work.workRuns, listed, silent, crashed };
}

/**
 * The burst of the e2e spec and the compatibility project: 100 events within 4 s behind a limit of
 * 5, 2 s of work each, the service waiting 10 s and retrying from 2 s.
 */
export const BURST_OF_100 = {
	limit: 5,
	events: 100,
	withinMs: 4_000,
	workSeconds: 2,
	serviceTimeoutMs: 10_000,
	retryBaseMs: 2_000,
} as const;

/**
 * The kill inside a burst of the e2e spec and the compatibility project (review 6's): 40 events at
 * 25/s behind a limit of 5, 2 s of work each, n8n killed 1.5 s in, a Missed Event Warning of 1 min,
 * the service waiting 10 s and retrying first after n8n is back (a restart takes about 20 s here),
 * so the failed attempts (those the kill cut off) stay below the 50 in a row that deactivate the
 * subscription.
 */
export const KILL_IN_BURST = {
	limit: 5,
	events: 40,
	perSecond: 25,
	workSeconds: 2,
	killAfterMs: 1_500,
	startWithinMinutes: 1,
	serviceTimeoutMs: 10_000,
	retryBaseMs: 45_000,
} as const;

export interface KillInBurstResult {
	emitted: string[];
	account: AcknowledgedAccount;
	service: ServiceView;
}

/**
 * `events` events at `perSecond` to a workflow whose work takes `workSeconds`, behind a production
 * concurrency limit of `limit`; n8n is SIGKILLed (or stopped with SIGTERM: `graceful`) `killAfterMs`
 * into the burst and started again; the service retries what it got no 2xx for. Once the
 * Missed Event Warning (`startWithinMinutes`) has passed and everything has settled, one more event
 * is delivered, so the trigger looks for events accepted and never started.
 */
export async function killInsideBurst(
	name: string,
	opts: {
		limit: number;
		events: number;
		perSecond: number;
		workSeconds: number;
		killAfterMs: number;
		graceful?: boolean;
		startWithinMinutes: number;
		serviceTimeoutMs: number;
		retryBaseMs: number;
		redis?: { host: string; port: number };
	},
): Promise<KillInBurstResult> {
	const s = await scenario(name, {
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(opts.limit) },
		restarts: true,
		triggerOptions: { startWithinMinutes: opts.startWithinMinutes },
		...opts,
	});
	try {
		const burst = emitEvents(s, opts.events, (opts.events / opts.perSecond) * 1000);
		await sleep(opts.killAfterMs);
		if (opts.graceful) await s.n8n.stop();
		else await killHard(s.n8n);
		const restartedAt = Date.now();
		// eslint-disable-next-line no-console -- when the kill came, to read n8n's log against
		console.log(
			`n8n ${opts.graceful ? 'stopped' : 'killed'} at ${new Date(restartedAt).toISOString()}`,
		);
		await s.n8n.restart();
		const emitted = await burst;
		await serviceView(s, 300_000);
		// 1.x and 2.34+ run the queued executions again; 2.0–2.33 leave them queued for good.
		await settled(s, 300_000).catch(() => undefined);
		const warnedAt = restartedAt + opts.startWithinMinutes * 60_000 + 15_000;
		if (Date.now() < warnedAt) await sleep(warnedAt - Date.now());
		const [after] = await emitEvents(s, 1, 0);
		const service = await serviceView(s, 120_000);
		await settled(s, 120_000).catch(() => undefined);
		const account = await accountForAcknowledged(s);
		return { emitted: [...emitted, after], account, service };
	} finally {
		await s.session.stop();
	}
}

export interface RetakenResult {
	/** The event whose copy was taken again while its first execution waited. */
	eventId: string;
	work: WorkCount;
}

/**
 * Review 6, N1, as a user meets it: n8n's only production slot is held, event E arrives (its first
 * execution waits); past the Missed Event Warning the user replays E from the Developer hub, as
 * the warning advises (the copy is taken again: a second execution, queued behind another holder);
 * the first execution runs and does E's work; another event's acceptance saves that start; n8n is
 * SIGKILLed while the copy's execution still waits, and started again: n8n runs the copy's
 * execution from its row, before any delivery.
 */
export async function retakenAcrossRestart(
	name: string,
	opts: { serviceTimeoutMs: number; retryBaseMs: number },
): Promise<RetakenResult> {
	const s = await oneSlotScenario(name, opts);
	try {
		const { control } = s.session.emulator;
		// Holders of under 65 s keep the slot (a longer Wait gives it back); two in a row hold it
		// past the Missed Event Warning, with E's first execution queued behind them.
		const holder = await slotHolder(s.n8n, 60);
		const held = await fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
		if (!held) throw new Error('the slot holder did not answer');
		void fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
		await sleep(1_000);
		const [eventId] = await emitEvents(s, 1, 0);
		await serviceView(s, 60_000);
		await sleep(65_000);
		// Queued behind E's first execution, so the copy's execution still waits at the kill.
		void fetch(holder, { method: 'POST', body: '{}' }).catch(() => undefined);
		await sleep(2_000);
		const [first] = control.deliveries({ subscriptionId: s.subscriptionId, eventId });
		await control.replay(first.id);
		// The first holder ends, E's first execution runs, the second holder takes the slot.
		await waitFor(
			async () => {
				const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
				return (work.workRuns.get(eventId) ?? 0) > 0;
			},
			'the first execution of the event to do its work',
			120_000,
			2_000,
		);
		// Its acceptance saves the store, E's start included.
		await emitEvents(s, 1, 0);
		await serviceView(s, 60_000);
		const queued = (await allExecutions(s.n8n, s.workflowId)).filter((e) => e.status === 'new');
		if (queued.length === 0)
			throw new Error('no execution was waiting for the slot at the kill: nothing was tested');
		await killHard(s.n8n);
		await s.n8n.restart();
		await settled(s, 180_000);
		const work = await countWork(s.n8n, s.workflowId, s.triggerName, s.workName);
		return { eventId, work };
	} finally {
		await s.session.stop();
	}
}
