/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/* eslint-disable no-console -- the acknowledgement scenarios print what the service saw on this version */
/**
 * The compatibility project: the package's promises on one n8n of the claimed range other than the
 * newest (E2E_N8N_VERSION; test/harness/compat.js runs it on each). The packed tarball is installed
 * as n8n's Community Nodes screen installs it; then the credential Test button, both nodes, the
 * HTTP Request node with the credential across a cross-origin redirect, the trigger (accept,
 * duplicate, forged, 20 concurrent copies, SIGKILL and restart mid-stream with the service
 * retrying), every template's import, and the trigger panel's wording, served and as the editor
 * shows it (headless Chromium).
 *
 * Where the n8n line behaves differently, the test pins that line's behaviour (README,
 * Compatibility): on 1.x n8n answers a webhook before the execution exists.
 */
import * as fs from 'fs';
import * as path from 'path';

import { EVENT_TYPES } from '@/test/emulator';
import * as installer from '@/test/harness/install';
import {
	actionNode,
	CRED,
	deliver,
	httpRequestNode,
	envelope,
	EXAMPLES_DIR,
	killHard,
	loadTemplate,
	OWNER,
	REPO_ROOT,
	WORK_DIR,
	signatureHeader,
	startSession,
	triggerNode,
	triggerUrl,
	triggerUrlOf,
	runOnce,
	uuid,
	waitFor,
	waitForFinished,
	burstBehindLimit,
	crashWhileQueued,
	crashWhileQueuedWithRedis,
	BURST_OF_100,
	KILL_IN_BURST,
	killInsideBurst,
	retryAfterFailedStart,
	startReplyLate,
	type Session,
} from '@/test/harness';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
import { triggerPanel } from '@/nodes/GstCompliance/trigger/description';

jest.setTimeout(300_000);

const VERSION: string = installer.N8N_VERSION || 'main';
const MAJOR = Number(VERSION.split('.')[0]);
const MINOR = Number(VERSION.split('.')[1]);
/**
 * n8n 2.0–2.33 never run a queued execution again after a restart: there the trigger lets n8n
 * answer once the execution exists (README, Compatibility); elsewhere it answers 202 at once.
 */
const AT_ONCE = !(MAJOR === 2 && MINOR < 34);
const ACCEPTED = AT_ONCE ? 202 : 200;

let session: Session;

beforeAll(async () => {
	if (!installer.N8N_VERSION)
		throw new Error('the compat project runs one E2E_N8N_VERSION at a time: npm run test:compat');
	session = await startSession(
		{ retryBaseMs: 5_000, deliveryTimeoutMs: 5_000 },
		{ name: `compat-${VERSION}` },
	);
});

afterAll(async () => {
	await session?.stop();
});

it(`n8n ${VERSION}: the community package loads its two nodes and three credentials`, async () => {
	const nodes = await session.n8n.nodeTypeNames();
	expect(nodes).toEqual(
		expect.arrayContaining([
			'n8n-nodes-gst-compliance.gstCompliance',
			'n8n-nodes-gst-compliance.gstComplianceTrigger',
		]),
	);
	expect(await session.n8n.credentialTypeNames()).toEqual(
		expect.arrayContaining([
			'gstComplianceApi',
			'gstComplianceWebhookApi',
			'gstComplianceRedisApi',
		]),
	);
});

it("the API credential's Test button passes", async () => {
	const { n8n, emulator, client } = session;
	const { apiCredentialData } = await import('@/test/harness');
	const data = apiCredentialData(emulator, client);
	expect((await n8n.testCredential(session.apiCredential, CRED.api, data)).status).toBe('OK');
});

it('the GST Compliance node gets an e-invoice', async () => {
	const { emulator, client } = session;
	const invoice = emulator.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
	});
	const { execution, output } = await runOnce(
		session.n8n,
		actionNode({ resource: 'einvoice', id: invoice.id, apiCredential: session.apiCredential }),
	);
	expect(execution.status).toBe('success');
	expect(output[0]).toMatchObject({ id: invoice.id, object: 'einvoice' });
});

it("n8n's HTTP Request node with the credential: a redirect to another origin is followed without the token", async () => {
	const { emulator } = session;
	emulator.control.setRedirect(true);
	try {
		await runOnce(
			session.n8n,
			httpRequestNode({
				url: `${emulator.sandboxUrl}/v1/einvoices/einv_redirected`,
				apiCredential: session.apiCredential,
			}),
		);
		expect(emulator.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: '/v1/einvoices/einv_redirected', authorization: false },
		]);
	} finally {
		emulator.control.setRedirect(false);
	}
});

it('the GST Compliance node: a redirect to another origin is followed without the token', async () => {
	const { emulator, client } = session;
	const invoice = emulator.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
	});
	emulator.control.setRedirect(true);
	try {
		const { output } = await runOnce(
			session.n8n,
			actionNode({ resource: 'einvoice', id: invoice.id, apiCredential: session.apiCredential }),
		);
		expect(emulator.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: `/v1/einvoices/${invoice.id}`, authorization: false },
		]);
		expect(output[0]).toMatchObject({ elsewhere: true });
	} finally {
		emulator.control.setRedirect(false);
	}
});

describe('the trigger', () => {
	let url: string;
	let workflowId: string;

	beforeAll(async () => {
		const node = triggerNode({ events: ['*'], webhookCredential: session.webhookCredential });
		const wf = await session.n8n.createWorkflow({ name: 'compat trigger', nodes: [node] });
		workflowId = wf.id;
		await session.n8n.activateWorkflow(wf.id);
		url = triggerUrl(session.n8n, node);
	});

	it('accepts a signed event, answers a duplicate as one, refuses a forged one', async () => {
		const event = envelope('einvoice.generated', { id: 'einv_compat' });
		expect((await deliver(url, event, session.signingSecret)).json()).toEqual({ received: true });
		await waitForFinished(session.n8n, workflowId, 1, 60_000, 0);
		expect((await deliver(url, event, session.signingSecret)).json()).toEqual({
			received: true,
			duplicate: true,
		});
		const forged = JSON.stringify(envelope('einvoice.failed', { id: 'einv_forged' }));
		const refused = await deliver(
			url,
			forged,
			'x',
			signatureHeader('not-the-secret-0123456789', forged),
		);
		expect(refused.status).toBe(401);
		expect(await waitForFinished(session.n8n, workflowId, 1, 60_000, 500)).toBe(1);
	});

	it(
		AT_ONCE
			? '20 concurrent copies of one event create one execution'
			: '20 concurrent copies of one event, answered once their executions exist: the event starts once, the other executions end empty',
		async () => {
			const event = envelope('einvoice.generated', { id: 'einv_burst' });
			const body = JSON.stringify(event);
			const header = signatureHeader(session.signingSecret, body);
			const answers = await Promise.all(
				Array.from(
					{ length: 20 },
					async () => await deliver(url, body, session.signingSecret, header),
				),
			);
			expect(answers.filter((a) => a.status !== 200 && a.status !== 202)).toEqual([]);
			// At once, one is accepted and the others are copies on their way. Answered once the
			// execution exists, a copy of an event not yet answered gets an execution of its own (the
			// first may be lost at a restart on 2.0–2.33), which ends without items.
			if (AT_ONCE) expect(answers.filter((a) => !a.text.includes('duplicate'))).toHaveLength(1);
			expect(await waitForFinished(session.n8n, workflowId, 2, 60_000, 500)).toBeGreaterThanOrEqual(
				2,
			);
			await waitFor(
				async () =>
					(await session.n8n.executions(workflowId)).every(
						(e) => !['new', 'running', 'waiting'].includes(e.status),
					),
				'the executions to finish',
				60_000,
				500,
			);
			const items = await Promise.all(
				(await session.n8n.executions(workflowId)).map(
					async (e) => await session.n8n.nodeOutput(e.id, 'GST Compliance Trigger'),
				),
			);
			expect(items.flat().filter((item) => item.id === event.id)).toHaveLength(1);
			if (AT_ONCE) expect(await waitForFinished(session.n8n, workflowId, 2, 5_000, 500)).toBe(2);
		},
	);

	it(
		AT_ONCE
			? 'answers 202 at once (README, Compatibility); the event starts once and its copy is a duplicate'
			: 'answers once the execution exists (n8n 2.0–2.33, README, Compatibility): at the 200 the execution is there',
		async () => {
			const before = (await session.n8n.executions(workflowId)).length;
			const event = envelope('einvoice.generated', { id: `einv_order_${uuid()}` });
			const res = await deliver(url, event, session.signingSecret);
			expect(res.status).toBe(ACCEPTED);
			if (!AT_ONCE) expect((await session.n8n.executions(workflowId)).length).toBe(before + 1);
			await waitFor(
				async () =>
					(await session.n8n.executions(workflowId)).filter((e) => e.status === 'success')
						.length ===
					before + 1,
				'the execution to finish',
				30_000,
				200,
			);
			expect((await deliver(url, event, session.signingSecret)).json()).toEqual({
				received: true,
				duplicate: true,
			});
			await waitFor(
				async () => (await session.n8n.executions(workflowId)).length === before + 1,
				'the execution',
				30_000,
				200,
			);
		},
	);
});

it('after a SIGKILL and restart mid-stream, each event the service retries has exactly one execution: it started there, or the kill came while it ran and n8n lists it crashed, to retry', async () => {
	const { n8n, emulator, client } = session;
	const { control } = emulator;
	const webhookId = uuid();
	const subscription = control.createSubscription({
		clientId: client.clientId,
		url: triggerUrlOf(n8n, webhookId),
		events: [...EVENT_TYPES],
	});
	const webhookCredential = await n8n.createCredential('GST webhook (restart)', CRED.webhook, {
		signingSecret: subscription.signingSecret,
		previousSigningSecret: '',
	});
	const node = triggerNode({ events: ['*'], webhookCredential, webhookId });
	const wf = await n8n.createWorkflow({ name: 'compat restart', nodes: [node] });
	await n8n.activateWorkflow(wf.id);

	const EVENTS = 8;
	let restarted: Promise<void> | undefined;
	for (let i = 0; i < EVENTS; i++) {
		control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' });
		if (i + 1 === EVENTS / 2) {
			await killHard(n8n);
			restarted = n8n.restart();
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	await restarted;
	await waitFor(
		async () =>
			control.deliveries({ subscriptionId: subscription.id }).every((d) => d.state === 'delivered'),
		'every delivery to be acknowledged',
		150_000,
		500,
	);
	const deliveries = control.deliveries({ subscriptionId: subscription.id });
	const emitted = deliveries.map((d) => d.eventId);
	const total = await waitForFinished(n8n, wf.id, EVENTS, 60_000, 2_000);
	const started: string[] = [];
	const executions = await n8n.executions(wf.id);
	// An execution the kill cut off while it ran: n8n marks it crashed; its item names the event.
	const crashed: string[] = [];
	for (const execution of executions) {
		if (execution.status === 'crashed') {
			crashed.push(JSON.stringify((await n8n.executionIfReadable(execution.id)) ?? ''));
			continue;
		}
		started.push(String((await n8n.nodeOutput(execution.id, node.name as string))[0]?.id));
	}
	if (total !== EVENTS || started.length !== EVENTS)
		// What the service and n8n each saw, to tell a lost execution from a wrong answer.
		console.log(
			JSON.stringify(
				{
					deliveries: deliveries.map((d) => ({
						eventId: d.eventId,
						attempts: d.attempts,
						lastStatusCode: d.lastStatusCode,
						lastResponseBody: d.lastResponseBody,
						acknowledgedAt: d.acknowledgedAt,
					})),
					executions: executions.map((e, i) => ({ ...e, started: started[i] })),
				},
				null,
				1,
			),
		);
	expect(total).toBe(EVENTS);
	const crashedOnly = emitted.filter((id) => !started.includes(id));
	expect(crashedOnly.filter((id) => !crashed.some((text) => text.includes(id)))).toEqual([]);
	expect(started.sort()).toEqual(emitted.filter((id) => started.includes(id)).sort());
});

it('every template imports with every node type known to this n8n', async () => {
	const known = new Set(await session.n8n.nodeTypeNames());
	const files = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
	expect(files.length).toBeGreaterThanOrEqual(4);
	for (const file of files) {
		const wf = loadTemplate(file);
		const created = await session.n8n.createWorkflow({ ...wf, name: `compat ${file}` });
		expect(created.id).toBeTruthy();
		for (const node of wf.nodes)
			expect({ file, type: node.type, known: known.has(node.type) }).toEqual({
				file,
				type: node.type,
				known: true,
			});
	}
});

it('the trigger panel served by this n8n says publish, and activate for n8n 1.x', async () => {
	const trigger = (await session.n8n.nodeTypes()).find(
		(type) => type.name === 'n8n-nodes-gst-compliance.gstComplianceTrigger',
	);
	const inactive = String(trigger?.triggerPanel?.executionsHelp?.inactive ?? '');
	expect(inactive).toContain('publish it (on n8n 1.x: activate it)');
});

it("the editor shows the trigger panel in this line's words (n8n 1.x: activate)", async () => {
	await withTriggerOpen('trigger-panel', 2, async (page) => {
		await page.getByText('More info').click();
		await page.getByText('This node has two URLs').waitFor();
		const shown = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
		const help = (triggerPanel as { executionsHelp: { inactive: string } }).executionsHelp;
		const asShown = help.inactive
			.replace(/<br\s*\/?>/g, ' ')
			.replace(/<[^>]+>/g, '')
			.replace(/\s+/g, ' ')
			.trim();
		expect(shown).toContain(asShown);
		expect(shown).toContain(MAJOR === 1 ? 'on n8n 1.x: activate it' : 'publish it');
	});
});

it("the editor lists the trigger's Refetch Latest State, and turning it on asks for the API credential", async () => {
	// An editor that took the toggle for the node's authentication field would hide it (n8n 1.x and
	// 2.0–2.33 pick any field a credential's `show` names, a boolean included).
	// As n8n saves the node: Refetch at its default is left out.
	await withTriggerOpen(
		'trigger-refetch',
		3,
		async (page) => {
			await page.locator('[data-test-id="parameter-input-refetch"]').waitFor();
			expect(await page.locator('body').innerText()).not.toContain(REFETCH_SLOT);
			await page.click('[data-test-id="parameter-input-refetch"] .el-switch');
			await page.getByText(REFETCH_SLOT).waitFor();
		},
		{ omitRefetch: true },
	);
});

it('the trigger with Dedupe Store Redis and no Redis credential: its panel shows one Shared Dedupe Store (Redis) slot, and the canvas flags the node for it', async () => {
	// One description for every version could not require the slot for version 3 alone without a
	// second slot of the same name, which every editor draws (n8nCompat.ts, 16.).
	await withTriggerOpen(
		'trigger-redis-required',
		3,
		async (page) => {
			const text = await page.locator('body').innerText();
			expect(text.split(REDIS_SLOT).length - 1).toBe(1);
			await page.locator('[data-test-id="node-issues"]').waitFor();
		},
		{ dedupeStore: 'redis' },
	);
});

const REFETCH_SLOT = 'API Access (for Refetch Latest State)';
const REDIS_SLOT = 'Shared Dedupe Store (Redis)';

/**
 * Signs in to this n8n in headless chromium, opens a workflow with the trigger (of `typeVersion`)
 * and its node panel, and runs `check` on the page; a failure carries what the page showed, with a
 * screenshot next to n8n's log.
 */
async function withTriggerOpen(
	name: string,
	typeVersion: number,
	check: (page: Page) => Promise<void>,
	saved: { omitRefetch?: boolean; dedupeStore?: 'redis' } = {},
): Promise<void> {
	const chromiumPath = '/usr/bin/chromium';
	const playwright = path.join(
		REPO_ROOT,
		'test',
		'e2e',
		'runtime',
		'node_modules',
		'playwright-core',
	);
	if (!fs.existsSync(chromiumPath) || !fs.existsSync(playwright))
		throw new Error('the editor check needs chromium and playwright-core: run npm run e2e:install');
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- playwright-core from the e2e runtime, loaded by path
	const { chromium } = require(playwright) as {
		chromium: {
			launch(options: object): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }>;
		};
	};
	const node = triggerNode({
		events: ['*'],
		webhookCredential: session.webhookCredential,
		webhookId: uuid(),
		position: [0, 0],
		typeVersion,
	});
	if (saved.omitRefetch) delete (node.parameters as Record<string, unknown>).refetch;
	if (saved.dedupeStore)
		(node.parameters as Record<string, unknown>).dedupeStore = saved.dedupeStore;
	const wf = await session.n8n.createWorkflow({ name: `compat ${name}`, nodes: [node] });
	const browser = await chromium.launch({
		executablePath: chromiumPath,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
	});
	try {
		const page = await browser.newPage();
		try {
			page.setDefaultTimeout(60_000);
			await page.goto(`${session.n8n.baseUrl}/signin`);
			// The form's ids differ between lines: its only text field, its password field, Enter.
			await page.locator('input:not([type="password"])').first().fill(OWNER.email);
			await page.fill('input[type="password"]', OWNER.password);
			await page.press('input[type="password"]', 'Enter');
			await page.waitForURL((url: URL) => !url.pathname.includes('signin'));
			await page.goto(`${session.n8n.baseUrl}/workflow/${wf.id}`);
			await page.dblclick(`[data-test-id="canvas-node"][data-node-name="${node.name as string}"]`);
			// The parameters, not the trigger panel: an editor shows no trigger panel for a node
			// with issues (2.8 for one whose required credential is empty).
			await page.locator('[data-test-id="node-parameters"]').waitFor();
			await check(page);
			await page.screenshot({ path: path.join(WORK_DIR, `compat-${VERSION}-${name}.png`) });
		} catch (error) {
			const shotPath = path.join(WORK_DIR, `compat-${VERSION}-${name}-failure.png`);
			await page.screenshot({ path: shotPath }).catch(() => undefined);
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test code outside any node
			throw new Error(
				`${(error as Error).message}\n--- page (${page.url()}) ---\n${text.slice(0, 1500)}\n(screenshot ${shotPath})`,
			);
		}
	} finally {
		await browser.close();
	}
}

interface Page {
	goto(url: string): Promise<unknown>;
	fill(selector: string, value: string): Promise<void>;
	click(selector: string): Promise<void>;
	dblclick(selector: string): Promise<void>;
	waitForURL(predicate: (url: URL) => boolean): Promise<void>;
	locator(selector: string): {
		waitFor(): Promise<void>;
		innerText(): Promise<string>;
		first(): { fill(value: string): Promise<void> };
	};
	press(selector: string, key: string): Promise<void>;
	getByText(text: string): { click(): Promise<void>; waitFor(): Promise<void> };
	screenshot(options: { path: string }): Promise<unknown>;
	setDefaultTimeout(ms: number): void;
	url(): string;
}

/**
 * The acknowledgement scenarios of the e2e spec (test/e2e/specs/concurrencyLimit.test.ts) on this
 * version: before the slot, a burst is acknowledged event by event; answered once the execution exists (n8n
 * 2.0–2.33), deliveries behind the limit time out and are retried, and each event still does its
 * work once. A SIGKILL while deliveries wait loses none and doubles none either way: 1.x runs the
 * queued executions again after the restart; 2.0–2.33 never do, and the service retries them.
 */
describe(`n8n ${VERSION}: acknowledging behind the concurrency limit`, () => {
	const SERVICE_TIMEOUT_MS = 10_000;
	const once = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]));

	it(
		AT_ONCE
			? 'a burst of 100 behind a limit of 5: each event acknowledged once and its work done once, one execution each'
			: 'a burst of 40 behind a limit of 5: the late answers time out and are retried, each event does its work once',
		async () => {
			const events = AT_ONCE ? 100 : 40;
			const { emitted, service, work } = await burstBehindLimit(`compat-burst-${VERSION}`, {
				limit: 5,
				events,
				withinMs: 4_000,
				workSeconds: 2,
				serviceTimeoutMs: SERVICE_TIMEOUT_MS,
				retryBaseMs: 2_000,
			});
			console.log(
				`n8n ${VERSION}, burst of ${events}: ${service.failedAttempts} failed attempts of ${service.attempts}, longest run ${service.longestFailureRun}, acknowledgement p99 ${service.ackP99Ms} ms; ${work.executions} executions, ${work.empty} ended empty`,
			);
			expect({ notDelivered: service.notDelivered, active: service.active }).toEqual({
				notDelivered: [],
				active: true,
			});
			expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
			// Failed attempts (the built-in store's 503 where its save is not shown within 8 s) depend on
			// this machine's speed, so they are printed, not asserted (bench item 10 measures bursts).
			if (AT_ONCE) {
				expect(service.attempts - service.failedAttempts).toBe(events);
				expect({ executions: work.executions, empty: work.empty }).toEqual({
					executions: events,
					empty: 0,
				});
			}
		},
		900_000,
	);

	it('a SIGKILL while deliveries wait for the slot, then the service’s retries: each event does its work once, none lost; replays of events done before the crash do no work', async () => {
		const { emitted, service, work } = await crashWhileQueued(`compat-crash-${VERSION}`, {
			doneBefore: 2,
			events: 5,
			holdSeconds: 60,
			killAfterMs: 3_000,
			serviceTimeoutMs: SERVICE_TIMEOUT_MS,
			retryBaseMs: 5_000,
			recoversQueued: AT_ONCE,
		});
		console.log(
			`n8n ${VERSION}, crash while queued: ${service.failedAttempts} failed attempts; ${work.executions} executions`,
		);
		expect({ notDelivered: service.notDelivered, active: service.active }).toEqual({
			notDelivered: [],
			active: true,
		});
		expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
		if (AT_ONCE) expect(service.failedAttempts).toBe(0);
	}, 600_000);
	it('a SIGKILL 1.5 s into 40 events at 25/s behind a limit of 5 (built-in store): each event answered 2xx did its work once, or is in an execution n8n lists; none silent', async () => {
		const { account } = await killInsideBurst(`compat-kill-${VERSION}`, KILL_IN_BURST);
		expect(account.silent).toEqual([]);
		expect([...account.workRuns.values()].filter((runs) => runs > 1)).toEqual([]);
	}, 900_000);
});

/**
 * With the Redis store the trigger delivers an event whose execution never started to itself
 * again, so it answers at once on every version: on 2.0–2.33 what a restart strands (n8n never
 * runs it) is delivered again past the Missed Event Warning, with no replay by a person.
 */
describe(`n8n ${VERSION}: acknowledging with the Redis store`, () => {
	const SERVICE_TIMEOUT_MS = 10_000;
	const once = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]));
	let redis: RunningRedis;
	beforeAll(async () => {
		redis = await startRedis(`compat-ack-redis-${VERSION}`);
	});
	afterAll(async () => await redis?.dispose());
	const where = () => ({ host: redis.host, port: redis.port });

	it('a burst of 100 behind a limit of 5, answered at once: no failed delivery, each event does its work once', async () => {
		const { emitted, service, work } = await burstBehindLimit(`compat-burst-redis-${VERSION}`, {
			...BURST_OF_100,
			redis: where(),
		});
		console.log(
			`n8n ${VERSION}, Redis, burst of 100: ${service.failedAttempts} failed attempts of ${service.attempts}, acknowledgement p99 ${service.ackP99Ms} ms; ${work.executions} executions`,
		);
		expect(service).toMatchObject({ failedAttempts: 0, notDelivered: [], active: true });
		expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
	}, 900_000);

	it(
		AT_ONCE
			? 'a SIGKILL while deliveries wait for the slot: n8n runs them again after the restart, each event does its work once'
			: 'a SIGKILL while deliveries wait for the slot: n8n never runs them again, the trigger delivers them to itself past the Missed Event Warning, each event does its work once',
		async () => {
			const { emitted, service, work } = await crashWhileQueuedWithRedis(
				`compat-crash-redis-${VERSION}`,
				{ events: 5, serviceTimeoutMs: SERVICE_TIMEOUT_MS, retryBaseMs: 45_000, redis: where() },
			);
			expect(service).toMatchObject({ failedAttempts: 0, notDelivered: [], active: true });
			expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
		},
		600_000,
	);

	if (MAJOR === 1)
		it('a SIGKILL 1.5 s into 40 events at 25/s behind a limit of 5: each event answered 2xx did its work once, those lost before their execution delivered again by the trigger itself', async () => {
			const { account } = await killInsideBurst(`compat-kill-redis-${VERSION}`, {
				...KILL_IN_BURST,
				redis: where(),
			});
			expect(account.silent).toEqual([]);
			expect(account.listed).toEqual(account.crashed);
			expect([...account.workRuns.values()].filter((runs) => runs > 1)).toEqual([]);
		}, 900_000);
});

describe(`n8n ${VERSION}: a start recognises its own earlier write (n8nCompat.ts, 10.)`, () => {
	const once = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]));

	it('a start whose Redis reply comes 2.5 s late is tried again and finds its own mark: the event does its work once', async () => {
		const { emitted, work, statuses } = await startReplyLate(`compat-late-${VERSION}`);
		expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
		expect(statuses).toEqual(['success']);
	});

	it('Retry from the executions list, after the start failed (Redis stopped): the retried execution starts the event once', async () => {
		const { emitted, work, statuses } = await retryAfterFailedStart(`compat-retry-${VERSION}`);
		expect(Object.fromEntries(work.workRuns)).toEqual(once(emitted));
		expect(statuses).toEqual(['error', 'success']);
	});
});
