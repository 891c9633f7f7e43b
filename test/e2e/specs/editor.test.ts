/**
 * The n8n editor in a real browser (playwright-core + Debian's chromium, headless): the trigger
 * node, the action node and the credential form render with their parameters, the webhook URLs
 * and no error. Screenshots go to test/e2e/.work/screenshots/; with UPDATE_SCREENSHOTS=1 they
 * replace the ones in docs/screenshots/ that the README shows (a plain test run leaves git clean).
 */
import * as fs from 'fs';
import * as path from 'path';
import { startEmulator, type RunningEmulator } from '../../emulator';
import {
	N8n,
	OWNER,
	REPO_ROOT,
	startN8n,
	WORK_DIR,
	actionNode,
	apiCredentialData,
	chain,
	CRED,
	triggerNode,
	uuid,
} from '../../harness';

jest.setTimeout(240_000);

const CHROMIUM = '/usr/bin/chromium';
const SHOTS =
	process.env.UPDATE_SCREENSHOTS === '1'
		? path.join(REPO_ROOT, 'docs', 'screenshots')
		: path.join(WORK_DIR, 'screenshots');
const { chromium } = require(
	path.join(REPO_ROOT, 'test', 'e2e', 'runtime', 'node_modules', 'playwright-core'),
);

let emu: RunningEmulator;
let n8n: N8n;
let ctx: any;
let userDataDir: string;
let page: any;
let workflowId: string;
let apiCred: { id: string; name: string };
let webhookCred: { id: string; name: string };
const webhookId = uuid();
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
		signingSecret: 'whsec_editor_demo',
	});
	const trigger = triggerNode({
		events: ['einvoice.failed', 'ewaybill.expired'],
		webhookCredential: webhookCred,
		webhookId,
		position: [0, 0],
	});
	const action = actionNode({
		resource: 'einvoice',
		id: '={{ $json.data.id }}',
		apiCredential: apiCred,
		position: [280, 0],
	});
	const wf = await n8n.createWorkflow({
		name: 'E-invoice failed → refetch',
		nodes: [trigger, action],
		connections: chain(trigger.name, action.name),
	});
	workflowId = wf.id;
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
});

afterAll(async () => {
	await ctx?.close();
	if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
	await n8n?.dispose();
	await emu?.stop();
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
	await shot('workflow-canvas.png');
});

it('opens the trigger node: notice, events, credential and both webhook URLs', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance Trigger"]');
	const ndv = page.locator('[data-test-id="node-parameters"]');
	await ndv.waitFor();
	await page.getByText('Subscriptions are made in the Developer hub').waitFor();
	await page.locator('[data-test-id="parameter-input-events"]').waitFor();
	const ndvText: string = await page
		.locator('[data-test-id="ndv"], .ndv-wrapper, body')
		.first()
		.innerText();
	for (const label of [
		'Events',
		'Credential',
		'Refetch Latest State',
		'Options',
		'E-Invoice Failed',
	])
		expect(ndvText).toContain(label);
	await page.getByText('Webhook URLs').click();
	await page.getByText(`/webhook-test/${webhookId}/webhook`).waitFor();
	await shot('trigger-node.png');
	await page.click('[data-test-id="radio-button-production"]');
	await page.getByText(`/webhook/${webhookId}/webhook`).waitFor();
	await expectNoErrorTexts();
	await page.click('[data-test-id="ndv-close-button"]');
});

it('opens the action node: resource, operation, e-invoice ID, options, credential', async () => {
	await page.dblclick('[data-test-id="canvas-node"][data-node-name="GST Compliance"]');
	await page.locator('[data-test-id="node-parameters"]').waitFor();
	await page.locator('[data-test-id="parameter-input-resource"]').waitFor();
	await page.locator('[data-test-id="parameter-input-operation"]').waitFor();
	await page.locator('[data-test-id="parameter-input-einvoiceId"]').waitFor();
	const text: string = await page.locator('[data-test-id="node-parameters"]').innerText();
	for (const label of ['Resource', 'Operation', 'E-Invoice ID', 'Options'])
		expect(text).toContain(label);
	expect(await page.locator('[data-test-id="node-credentials-select"]').count()).toBeGreaterThan(0);
	await expectNoErrorTexts();
	await shot('action-node.png');
	await page.click('[data-test-id="ndv-close-button"]');
});

it('opens the credential form: every field, and the connection test passes', async () => {
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
		'Production API URL',
		'Sandbox API URL',
	]) {
		expect(text).toContain(label);
	}
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

it('the browser console shows no error from our package', () => {
	const ours = consoleErrors.filter((e) => /gst|gstCompliance|n8n-nodes-gst-compliance/i.test(e));
	expect(ours).toEqual([]);
});
