/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core is loaded from the e2e runtime by path, so tsc has no types for it */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The n8n editor in a real browser (playwright-core + Debian's chromium, headless): the trigger
 * node with its trigger panel, the action node with its validated ID field, sample output before
 * any real event (a template's pinned data, the action node's schema preview, a signed test event
 * sent to the Test URL), a template run by the editor's Execute workflow button, and the credential
 * forms, with no error. Screenshots go to test/e2e/.work/screenshots/; with UPDATE_SCREENSHOTS=1
 * they replace the ones in docs/screenshots/ that the README and the docs show (a plain test run
 * leaves git clean).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { startEmulator, type RunningEmulator } from '@/test/emulator';
import {
	N8n,
	OWNER,
	REPO_ROOT,
	startN8n,
	WORK_DIR,
	actionNode,
	apiCredentialData,
	bindCredentials,
	chain,
	CRED,
	deliver,
	envelope,
	loadTemplate,
	STATUS_TABLE_COLUMNS,
	triggerNode,
	uuid,
} from '@/test/harness';
import { activationMessage, triggerPanel } from '@/nodes/GstCompliance/trigger/description';
import { ID_ERROR } from '@/nodes/GstCompliance/actions/resourceId';
import { description as einvoiceGet } from '@/nodes/GstCompliance/actions/einvoice/get.operation';

jest.setTimeout(240_000);

const CHROMIUM = '/usr/bin/chromium';
const SHOTS =
	process.env.UPDATE_SCREENSHOTS === '1'
		? path.join(REPO_ROOT, 'docs', 'screenshots')
		: path.join(WORK_DIR, 'screenshots');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- playwright-core from the e2e runtime, loaded by path
const { chromium } = require(
	path.join(REPO_ROOT, 'test', 'e2e', 'runtime', 'node_modules', 'playwright-core'),
);

let emu: RunningEmulator;
let n8n: N8n;
let ctx: any;
let userDataDir: string;
let page: any;
let workflowId: string;
let templateWorkflowId: string;
let tableTemplateWorkflowId: string;
let tableRowsPath: string;
let idCheckWorkflowId: string;
let apiCred: { id: string; name: string };
let webhookCred: { id: string; name: string };
const webhookId = uuid();
const SIGNING_SECRET = 'whsec_editor_demo';
const consoleErrors: string[] = [];

const ERROR_TEXTS = [
	/not currently installed/i,
	/Install this node/i,
	/could not be loaded/i,
	/Problem loading/i,
	/unknown node/i,
];

beforeAll(async () => {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} missing: run npm run e2e:install (installs Debian's chromium via apt)`,
		);
	}
	emu = await startEmulator({ seed: true });
	n8n = await startN8n({ name: 'editor' });
	const client = emu.seeded!.sandbox;
	apiCred = await n8n.createCredential(
		'GST Compliance API (sandbox)',
		CRED.api,
		apiCredentialData(emu, client),
	);
	webhookCred = await n8n.createCredential('GST Compliance Webhook', CRED.webhook, {
		signingSecret: SIGNING_SECRET,
	});
	const trigger = triggerNode({
		events: ['einvoice.failed', 'ewaybill.expired'],
		webhookCredential: webhookCred,
		webhookId,
		position: [0, 0],
		typeVersion: 3, // the version the editor adds today
	});
	// A new action node is version 2: the ID is a resource locator ("By ID").
	const v1 = actionNode({
		resource: 'einvoice',
		id: '',
		apiCredential: apiCred,
		position: [280, 0],
	});
	const action: Record<string, any> = {
		...v1,
		typeVersion: 2,
		parameters: {
			...v1.parameters,
			einvoiceId: { __rl: true, mode: 'id', value: '={{ $json.data.id }}' },
		},
	};
	// A node after the action, whose input panel shows the action's output schema.
	const next = {
		id: uuid(),
		name: 'Next step',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [560, 0],
		parameters: {},
	};
	const wf = await n8n.createWorkflow({
		name: 'E-invoice failed → refetch',
		nodes: [trigger, action, next],
		connections: chain(trigger.name, action.name, next.name),
	});
	workflowId = wf.id;
	// The template as a user imports it, with its pinned sample event on the trigger.
	const template = bindCredentials(loadTemplate('einvoice-failed-alert.json'), {
		[CRED.api]: apiCred,
		[CRED.webhook]: webhookCred,
	});
	expect(Object.keys(template.pinData ?? {})).toEqual(['GST Compliance Trigger']);
	templateWorkflowId = (await n8n.createWorkflow(template)).id;
	// The Data Table template after its sticky's setup steps: its table created (as examples/README.md
	// says, in the workflow's project) and the webhook credential picked.
	const projectId = (await n8n.rest('GET', '/projects/personal')).id;
	const table = await n8n.rest('POST', `/projects/${projectId}/data-tables`, {
		name: 'GST document status',
		columns: STATUS_TABLE_COLUMNS.map((column) => ({ name: column, type: 'string' })),
	});
	tableRowsPath = `/projects/${projectId}/data-tables/${table.id}/rows?take=50`;
	tableTemplateWorkflowId = (
		await n8n.createWorkflow(
			bindCredentials(loadTemplate('status-data-table-upsert.json'), {
				[CRED.webhook]: webhookCred,
			}),
		)
	).id;
	// An action node where an invoice number was typed instead of the e-invoice ID.
	idCheckWorkflowId = (
		await n8n.createWorkflow({
			name: 'E-invoice ID check',
			nodes: [
				{
					...action,
					name: 'GST Compliance',
					position: [0, 0],
					parameters: {
						...action.parameters,
						einvoiceId: { __rl: true, mode: 'id', value: 'INV/2025/00042' },
					},
				},
			],
			connections: {},
		})
	).id;
	fs.mkdirSync(SHOTS, { recursive: true });
	userDataDir = fs.mkdtempSync(path.join(WORK_DIR, 'chromium-'));
	ctx = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
		viewport: { width: 1440, height: 900 },
	});
	page = ctx.pages()[0] ?? (await ctx.newPage());
	page.on('console', (m: any) => {
		if (m.type() === 'error') consoleErrors.push(m.text());
	});
	page.setDefaultTimeout(30_000);
	// Leaving a workflow with unsaved edits asks for confirmation; the tests never save.
	page.on('dialog', (dialog: any) => dialog.accept().catch(() => undefined));
});

afterAll(async () => {
	await ctx?.close();
	if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
	await n8n?.dispose();
	await emu?.stop();
});

// The page after every test, for diagnosing a failure (never in docs/).
afterEach(async () => {
	const name = (expect.getState().currentTestName ?? 'test')
		.replace(/[^a-z0-9]+/gi, '-')
		.slice(0, 80);
	const dir = path.join(WORK_DIR, 'screenshots', 'after-each');
	fs.mkdirSync(dir, { recursive: true });
	await page?.screenshot({ path: path.join(dir, `${name}.png`) }).catch(() => undefined);
});

async function expectNoErrorTexts() {
	const text: string = await page.locator('body').innerText();
	for (const re of ERROR_TEXTS)
		expect({ re: String(re), found: re.test(text) }).toEqual({ re: String(re), found: false });
}

async function shot(name: string) {
	await page.waitForTimeout(400); // let transitions settle
	await page.screenshot({ path: path.join(SHOTS, name) });
}

it('signs in', async () => {
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.fill('#emailOrLdapLoginId', OWNER.email);
	await page.fill('#password', OWNER.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((u: URL) => !u.pathname.includes('signin'));
});

it('shows the workflow with both of our nodes on the canvas', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	const trigger = page.locator(
		'[data-test-id="canvas-node"][data-node-type="n8n-nodes-gst-compliance.gstComplianceTrigger"]',
	);
	const action = page.locator(
		'[data-test-id="canvas-node"][data-node-type="n8n-nodes-gst-compliance.gstCompliance"]',
	);
	await trigger.waitFor();
	await action.waitFor();
	await expectNoErrorTexts();
});

/**
 * An HTML string from the node description as the browser shows it (tags gone, spaces collapsed).
 */
function asShown(html: string): string {
	return html
		.replace(/<br\s*\/?>/g, ' ')
		.replace(/<[^>]+>/g, '')
		.replace(/\s+/g, ' ')
		.trim();
}
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const panel = triggerPanel as {
	header: string;
	executionsHelp: { inactive: string; active: string };
	activationHint: { inactive: string; active: string };
};

it('opens the trigger node: the trigger panel says where to subscribe, which URL and where the secret goes', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance Trigger"]');
	await page.locator('[data-test-id="node-parameters"]').waitFor();
	const header = page.locator('[data-test-id="trigger-header"]');
	await header.waitFor();
	expect(squash(await header.innerText())).toBe(panel.header);
	// The panel's texts name the button as the editor labels it.
	const listen = page.locator('[data-test-id="trigger-execute-button"]').first();
	expect(squash(await listen.innerText())).toBe('Execute step');
	const hints: string = squash(await page.locator('body').innerText());
	expect(hints).toContain(asShown(panel.activationHint.inactive));
	// "More info" opens the accordion with the executions help (the workflow is not published).
	await page.getByText('More info').click();
	const help = page.getByText('This node has two URLs');
	await help.waitFor();
	const body: string = squash(await page.locator('body').innerText());
	expect(body).toContain(asShown(panel.executionsHelp.inactive));
	for (const phrase of ['Developer hub', 'Test URL', 'Production URL', 'signing secret'])
		expect(body).toContain(phrase);
	expect(await page.locator('[data-test-id="parameter-input-setupNotice"]').count()).toBe(0);
	await expectNoErrorTexts();
	await shot('trigger-panel.png');
});

it('the trigger node (version 3) shows events, the signing-secret credential, the built-in store without a Redis slot, and both webhook URLs', async () => {
	await page.locator('[data-test-id="parameter-input-events"]').waitFor();
	const ndvText: string = await page
		.locator('[data-test-id="ndv"], .ndv-wrapper, body')
		.first()
		.innerText();
	for (const label of [
		'Events',
		'Webhook Signing Secret',
		'Dedupe Store',
		'Refetch Latest State',
		'Options',
		'E-Invoice Failed',
	])
		expect(ndvText).toContain(label);
	// Version 3 with the built-in store (the select's value): no Redis credential slot.
	expect(
		await page.locator('[data-test-id="parameter-input-dedupeStore"] input').first().inputValue(),
	).toBe('Built-In');
	expect(ndvText).not.toContain('Shared Dedupe Store (Redis)');
	await page.locator('[data-test-id="node-parameters"]').getByText('Webhook URLs').click();
	await page.getByText(`/webhook-test/${webhookId}/webhook`).waitFor();
	await shot('trigger-node.png');
	await page.click('[data-test-id="radio-button-production"]');
	await page.getByText(`/webhook/${webhookId}/webhook`).waitFor();
	await page.click('[data-test-id="radio-button-test"]');
	await expectNoErrorTexts();
});

it('Execute step (listening) + examples/send-test-event.sh to the Test URL: the trigger output appears', async () => {
	await page.locator('[data-test-id="trigger-execute-button"]').first().click();
	await page.locator('[data-test-id="trigger-listening"]').waitFor();
	const testUrl = `${n8n.baseUrl}/webhook-test/${webhookId}/webhook`;
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions -- test code: runs the documented script as a user would
	const sent = spawnSync(
		'bash',
		[path.join(REPO_ROOT, 'examples', 'send-test-event.sh'), testUrl],
		{
			env: { ...process.env, GST_SIGNING_SECRET: SIGNING_SECRET },
			encoding: 'utf8',
			timeout: 30_000,
		},
	);
	expect({ status: sent.status, stderr: sent.stderr }).toEqual({ status: 0, stderr: '' });
	const output = page.locator('[data-test-id="output-panel"]');
	await output.getByText('einvoice.failed').first().waitFor();
	const text: string = await output.innerText();
	for (const field of ['createdAt', 'sellerGstin', 'invoiceNumber', 'failed_terminal'])
		expect(text).toContain(field);
	await expectNoErrorTexts();
	await shot('trigger-test-event.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('Execute step + a delivery the trigger refuses: the editor shows why and what to fix, not silence', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance Trigger"]');
	await page.locator('[data-test-id="trigger-execute-button"]').first().click();
	await page.locator('[data-test-id="trigger-listening"]').waitFor();
	const testUrl = `${n8n.baseUrl}/webhook-test/${webhookId}/webhook`;
	const sample = envelope('einvoice.failed', {
		id: 'einv_sample_refused',
		status: 'failed_terminal',
	});
	const refused = await deliver(testUrl, sample, 'whsec_not_the_subscription_secret');
	expect(refused.status).toBe(401);
	const output = page.locator('[data-test-id="output-panel"]');
	await output
		.getByText("The delivery's signature does not match the Signing Secret")
		.first()
		.waitFor();
	expect(squash(await output.innerText())).toContain('Developer hub shows for this subscription');
	await shot('trigger-test-refused.png');

	// The same sample, signed right, in a new listening session: it runs (no 24 h memory).
	for (const session of [1, 2]) {
		await page.locator('[data-test-id="trigger-execute-button"]').first().click();
		await page.locator('[data-test-id="trigger-listening"]').waitFor();
		const sent = await deliver(testUrl, { ...sample, id: 'evt_same_sample' }, SIGNING_SECRET);
		expect({ session, status: sent.status }).toEqual({ session, status: 202 });
		await output.getByText('evt_same_sample').first().waitFor();
		await page.locator('[data-test-id="trigger-listening"]').waitFor({ state: 'detached' });
	}
	await expectNoErrorTexts();
	await page.click('[data-test-id="ndv-close-button"]');
});

it('opens the action node (version 2): resource, operation, the E-Invoice locator with the mapped ID', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance"]');
	await page.locator('[data-test-id="node-parameters"]').waitFor();
	await page.locator('[data-test-id="parameter-input-resource"]').waitFor();
	await page.locator('[data-test-id="parameter-input-operation"]').waitFor();
	await page.locator('[data-test-id="parameter-input-einvoiceId"]').waitFor();
	const text: string = await page.locator('[data-test-id="node-parameters"]').innerText();
	for (const label of ['Resource', 'Operation', 'E-Invoice', '{{ $json.data.id }}', 'Options'])
		expect(text).toContain(label);
	expect(text).not.toContain('E-Invoice ID');
	expect(await page.locator('[data-test-id="node-credentials-select"]').count()).toBeGreaterThan(0);
	await expectNoErrorTexts();
	await shot('action-node.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('Execute step on the action node, the sample event’s e-invoice unknown to the service: the error’s title says what happened, its description what to do', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance"]');
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const title = page.locator('[data-test-id="node-error-message"]').first();
	await title.waitFor();
	expect(squash(await title.innerText())).toBe(
		'E-invoice einv_sample_refused was not found in Sandbox for this organization.',
	);
	const description = page.locator('[data-test-id="node-error-description"]').first();
	expect(squash(await description.innerText())).toMatch(
		/^Check the ID and the credential's Environment .*Ignore Not Found option\./,
	);
	await shot('action-error.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('the E-Invoice "By ID" field flags an invoice number typed as the ID, and accepts an einv_ ID', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${idCheckWorkflowId}`);
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance"]');
	const field = page.locator('[data-test-id="parameter-input-einvoiceId"]');
	await field.waitFor();
	const params = page.locator('[data-test-id="node-parameters"]');
	// "By ID" is the only mode, so n8n shows no mode menu; the mode's hint is under the field.
	const hint = einvoiceGet.find((p) => p.type === 'resourceLocator')!.modes![0].hint!;
	expect(squash(await params.innerText())).toContain(hint);
	const issues = params.locator('[data-test-id="parameter-issues"]');
	await issues.first().hover();
	await page.getByText(ID_ERROR.einvoice).first().waitFor();
	await shot('action-node-id-check.png');
	const input = params.locator('[data-test-id="rlc-input-container"] input').first();
	await input.fill('einv_01JXYZSAMPLE');
	await input.press('Tab');
	await issues.first().waitFor({ state: 'detached' });
	await page.click('[data-test-id="ndv-close-button"]');
});

it('a template with pinned sample data: its setup note on the canvas; the next node can map the sample event before any delivery', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${templateWorkflowId}`);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Slack #finance"]').waitFor();
	await page.getByText('Setup (5 minutes)').first().waitFor();
	await expectNoErrorTexts();
	await shot('workflow-canvas.png');
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="Slack #finance"]');
	const input = page.locator('[data-test-id="ndv-input-panel"]');
	await input.waitFor();
	await input.getByText('sellerGstin').first().waitFor();
	const text: string = await input.innerText();
	for (const field of ['GST Compliance Trigger', 'type', 'createdAt', 'data', 'invoiceNumber'])
		expect(text).toContain(field);
	await expectNoErrorTexts();
	await shot('sample-output-pinned.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('the Data Table template after its setup steps: Execute workflow in the editor runs on the pinned samples, green', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${tableTemplateWorkflowId}`);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Upsert row"]').waitFor();
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	await page.getByText('Workflow executed successfully').first().waitFor();
	const body: string = await page.locator('body').innerText();
	for (const problem of ['Workflow has issues', 'Problem in node'])
		expect({ problem, shown: body.includes(problem) }).toEqual({ problem, shown: false });
	const [execution] = await n8n.waitForExecutions(tableTemplateWorkflowId, 1);
	expect(execution.status).toBe('success');
	// Both pinned samples, the e-invoice and the e-way bill, have their row.
	const pinned = loadTemplate('status-data-table-upsert.json').pinData!['GST Compliance Trigger'];
	const rows: { data: Array<{ resourceId: string; status: string }> } = await n8n.rest(
		'GET',
		tableRowsPath,
	);
	expect(rows.data.map((row) => [row.resourceId, row.status]).sort()).toEqual(
		pinned.map((item: any) => [item.json.data.id, item.json.data.status]).sort(),
	);
	await expectNoErrorTexts();
});

it("the action node's output schema: the next node shows its fields before it has run", async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="Next step"]');
	const input = page.locator('[data-test-id="ndv-input-panel"]');
	await input.waitFor();
	await input.getByText('totalInvoiceValue').first().waitFor();
	const text: string = await input.innerText();
	for (const field of ['GST Compliance', 'irn', 'ackNumber', 'sellerGstin', 'invoiceNumber'])
		expect(text).toContain(field);
	await shot('sample-output-schema.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('publishing the workflow shows the activation message; the trigger panel then names the Production URL', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
	await page.locator('[data-test-id="workflow-publish-button"]').click();
	await page.getByText('Workflow published').first().waitFor();
	await page.getByText(activationMessage).waitFor();
	await shot('activation-message.png');
	await page.keyboard.press('Escape');
	await page.getByText(activationMessage).waitFor({ state: 'detached' });
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance Trigger"]');
	await page.locator('[data-test-id="trigger-header"]').waitFor();
	const body: string = squash(await page.locator('body').innerText());
	expect(body).toContain(asShown(panel.activationHint.active));
	await page.click('[data-test-id="ndv-close-button"]');
});

it('opens the credential form: where each value comes from, the sandbox fields only, and the connection test passes', async () => {
	await page.goto(`${n8n.baseUrl}/home/credentials/${apiCred.id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal.waitFor();
	// n8n tests a saved credential when its form opens (our testedBy function against the emulator).
	await modal.getByText('Connection tested successfully').first().waitFor({ timeout: 30_000 });
	const text: string = await modal.innerText();
	for (const label of [
		'Environment',
		'Client ID',
		'Client Secret',
		'Auth URL',
		'Realm',
		'Sandbox API URL',
		'onboarding material',
	]) {
		expect(text).toContain(label);
	}
	// Only the chosen environment's API URL is asked for.
	expect(text).not.toContain('Production API URL');
	expect(text).not.toContain(emu.seeded!.sandbox.clientSecret);
	await expectNoErrorTexts();
	await shot('credential-api.png');
});

it('opens the webhook credential form: signing secret and previous signing secret', async () => {
	await page.goto(`${n8n.baseUrl}/home/credentials/${webhookCred.id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal.waitFor();
	await modal.getByText('Connection tested successfully').first().waitFor({ timeout: 30_000 });
	const text: string = await modal.innerText();
	for (const label of ['Signing Secret', 'Previous Signing Secret']) expect(text).toContain(label);
	expect(text).not.toContain('whsec_editor_demo');
	await expectNoErrorTexts();
	await shot('credential-webhook.png');
});

it('the trigger with Dedupe Store Redis: without a Redis credential the canvas flags the node for a credential and its panel shows one Shared Dedupe Store (Redis) slot; with one, no flag', async () => {
	const redisCred = await n8n.createCredential('Dedupe Redis', CRED.redis, {
		deployment: 'single',
		host: '127.0.0.1',
		port: 6379,
		database: 0,
		user: '',
		password: '',
		ssl: false,
	});
	const withRedis = async (credential?: { id: string; name: string }) => {
		const trigger = triggerNode({
			events: ['*'],
			webhookCredential: webhookCred,
			position: [0, 0],
			typeVersion: 3,
		});
		trigger.parameters.dedupeStore = 'redis';
		if (credential) trigger.credentials[CRED.redis] = credential;
		const wf = await n8n.createWorkflow({
			name: credential ? 'Redis chosen and set' : 'Redis chosen, no Redis credential',
			nodes: [trigger],
			connections: {},
		});
		await page.goto(`${n8n.baseUrl}/workflow/${wf.id}`);
		const node = page.locator(
			'[data-test-id="canvas-node"][data-node-name="GST Compliance Trigger"]',
		);
		await node.waitFor();
		return node;
	};

	const set = await withRedis(redisCred);
	await page.waitForTimeout(1_000); // n8n computes a node's issues once the canvas is drawn
	expect(await set.locator('[data-test-id="node-issues"]').count()).toBe(0);

	const unset = await withRedis();
	const issues = unset.locator('[data-test-id="node-issues"]');
	await issues.waitFor();
	await issues.hover();
	await page
		.getByText(/Credentials for .+ are not set/)
		.first()
		.waitFor();
	await unset.dblclick();
	await page.locator('[data-test-id="node-parameters"]').waitFor();
	expect(
		await page
			.locator('[data-test-id="credentials-label"]', { hasText: 'Shared Dedupe Store (Redis)' })
			.count(),
	).toBe(1);
	await page.click('[data-test-id="ndv-close-button"]');
	await expectNoErrorTexts();
});

it('the browser console shows no error from our package', () => {
	const ours = consoleErrors.filter((e) => /gst|gstCompliance|n8n-nodes-gst-compliance/i.test(e));
	expect(ours).toEqual([]);
});
