/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The templates in examples/ import into a real n8n 2.41 as they are, and their trigger/action part
 * runs there. In the test copy only, Slack, e-mail and Google Sheets nodes are swapped for n8n's
 * own file nodes (Set → Convert to File → Read/Write Files from Disk, appending CSV rows).
 */
import * as path from 'path';
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	bindCredentials,
	CRED,
	deliver,
	envelope,
	loadTemplate,
	readCsv,
	swapForFileWrite,
	triggerUrl,
	uuid,
	N8n,
	startN8n,
} from '@/test/harness';

jest.setTimeout(240_000);

const TEMPLATES = [
	'einvoice-failed-alert.json',
	'send-test-event.json',
	'status-sheet-upsert.json',
	'status-data-table-upsert.json',
	'scheduled-status-check.json',
];

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
	n8n = await startN8n({ name: 'examples' });
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

describe.each(TEMPLATES)('%s', (file) => {
	it('imports as it is, with every node type known to n8n', async () => {
		const wf = loadTemplate(file);
		const created = await n8n.createWorkflow(wf);
		const stored = await n8n.rest('GET', `/workflows/${created.id}`);
		expect(stored.nodes).toHaveLength(wf.nodes.length);
		const known = new Set(await n8n.nodeTypeNames());
		for (const node of stored.nodes)
			expect({ node: node.name, known: known.has(node.type) }).toEqual({
				node: node.name,
				known: true,
			});
	});
});

/** Subscribes a trigger workflow in the emulator and creates its webhook credential. */
async function subscribe(wf: ReturnType<typeof loadTemplate>, events: string[]) {
	const trigger = wf.nodes.find((n) => n.type.endsWith('.gstComplianceTrigger'))!;
	const url = triggerUrl(n8n, trigger);
	const sub = emu.control.createSubscription({ clientId: client.clientId, url, events });
	const webhookCred = await n8n.createCredential(`webhook ${sub.id}`, CRED.webhook, {
		signingSecret: sub.signingSecret,
	});
	trigger.credentials = { [CRED.webhook]: webhookCred };
	return { sub, url, secret: sub.signingSecret };
}

async function createAndActivate(wf: ReturnType<typeof loadTemplate>) {
	const created = await n8n.createWorkflow({ ...wf, name: `${wf.name} (test copy)` });
	await n8n.activateWorkflow(created.id);
	return created.id;
}

/** The flagship template with Slack and e-mail writing CSV files instead (test copy only). */
function alertWithFiles(
	slackFile: string,
	mailFile: string,
	template = loadTemplate('einvoice-failed-alert.json'),
) {
	const slack = template.nodes.find((n) => n.name === 'Slack #finance')!;
	const mail = template.nodes.find((n) => n.name === 'E-mail finance')!;
	let wf = template.nodes.some((n) => n.credentials?.[CRED.webhook]?.id)
		? template
		: bindCredentials(template, {});
	wf = swapForFileWrite(wf, slack.name, slackFile, {
		channel: slack.parameters.channelId.value,
		text: slack.parameters.text,
	});
	return swapForFileWrite(wf, mail.name, mailFile, {
		to: mail.parameters.toEmail,
		subject: mail.parameters.subject,
		text: mail.parameters.text,
	});
}

it('einvoice-failed-alert on import: Execute workflow on the pinned sample reaches Slack and e-mail, green', async () => {
	const slackFile = path.join(n8n.filesDir, 'slack-sample.csv');
	const mailFile = path.join(n8n.filesDir, 'email-sample.csv');
	const created = await n8n.createWorkflow(alertWithFiles(slackFile, mailFile));
	const run = await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'GST Compliance Trigger' },
	});
	expect(run.executionId).toBeDefined();
	const [execution] = await n8n.waitForExecutions(created.id, 1);
	expect(execution.status).toBe('success');
	// The pinned event's id marks it as a sample, and so do the message and the e-mail's subject.
	const [slackRow] = readCsv(slackFile);
	expect(slackRow[1]).toMatch(
		/^:rotating_light: \(sample\) E-invoice INV\/2025\/\d+ failed \(status failed_terminal\)\..* IRN none\. Event evt_sample_/,
	);
	expect(readCsv(mailFile)[0][1]).toMatch(
		/^\(sample\) E-invoice INV\/2025\/\d+ failed \(failed_terminal\)$/,
	);
});

it('einvoice-failed-alert: a failed e-invoice → Slack and e-mail messages written from the event', async () => {
	const slackFile = path.join(n8n.filesDir, 'slack.csv');
	const mailFile = path.join(n8n.filesDir, 'email.csv');
	const wf = alertWithFiles(slackFile, mailFile);
	const { sub } = await subscribe(wf, ['einvoice.generated', 'einvoice.failed']);
	const id = await createAndActivate(wf);

	const inv = emu.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
		fields: { invoiceNumber: 'INV-E2E-42' },
	});
	emu.control.setEinvoiceStatus(inv.id, 'failed_terminal');
	await emu.control.settle();
	// einvoice.generated is not selected by the template (200, ignored); einvoice.failed is accepted.
	expect(emu.control.deliveries({ subscriptionId: sub.id }).map((d) => d.lastStatusCode)).toEqual([
		200, 202,
	]);

	// Barrier: a later selected event. The node answers a delivery only after n8n has created the
	// execution it starts, so once the barrier's execution exists, one for the unselected
	// einvoice.generated delivered before it would exist too.
	const barrier = emu.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
		status: 'failed_terminal',
		fields: { invoiceNumber: 'INV-E2E-BARRIER' },
	});
	await emu.control.settle();
	const executions = await n8n.waitForExecutions(id, 2);
	const startedFor = await Promise.all(
		executions.map(
			async (e) => (await n8n.nodeOutput(e.id, 'GST Compliance Trigger'))[0]?.data?.id,
		),
	);
	expect([...startedFor].sort()).toEqual([inv.id, barrier.id].sort());
	expect(await n8n.executions(id)).toHaveLength(2); // einvoice.generated is not selected
	const execution = executions[startedFor.indexOf(inv.id)];
	expect(execution.status).toBe('success');
	// One Slack message and one e-mail per failed e-invoice: this one and the barrier's.
	const slackRows = readCsv(slackFile).filter((row) => row[1].includes('INV-E2E-42'));
	expect(readCsv(slackFile)).toHaveLength(2);
	expect(slackRows).toHaveLength(1);
	expect(slackRows[0][0]).toBe('#finance');
	expect(slackRows[0][1]).toContain('failed_terminal');
	expect(slackRows[0][1]).not.toContain('(sample)');
	const mailRows = readCsv(mailFile);
	expect(mailRows).toHaveLength(2);
	expect(mailRows.filter((row) => row[0] === 'finance@example.com')).toHaveLength(2);
	expect(mailRows.map((row) => row[1])).toContain('E-invoice INV-E2E-42 failed (failed_terminal)');
});

/**
 * The sheet template with its Google Sheets nodes swapped (test copy only): the lookup becomes a Set
 * node giving `row` (an empty item: what Look up row with Always Output Data gives for a document
 * the sheet lacks), the upsert appends CSV rows to `sheetFile`.
 */
function sheetWithFiles(sheetFile: string, row: Record<string, string>) {
	const template = loadTemplate('status-sheet-upsert.json');
	const upsert = template.nodes.find((n) => n.name === 'Upsert row')!;
	const wf = bindCredentials(template, {});
	const lookup = wf.nodes.find((n) => n.name === 'Look up row')!;
	Object.assign(lookup, {
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		credentials: undefined,
		parameters: {
			mode: 'manual',
			includeOtherFields: false,
			assignments: {
				assignments: Object.entries(row).map(([name, value]) => ({
					id: uuid(),
					name,
					type: 'string',
					value,
				})),
			},
			options: {},
		},
	});
	return swapForFileWrite(wf, 'Upsert row', sheetFile, upsert.parameters.columns.value);
}

/** A sample event pinned on a template's trigger. */
interface PinnedEvent {
	id: string;
	createdAt: string;
	data: Record<string, string | number>;
}

it('status-sheet-upsert on import: Execute workflow on the two pinned samples writes a row for each, green', async () => {
	const sheetFile = path.join(n8n.filesDir, 'sheet-sample.csv');
	const created = await n8n.createWorkflow(sheetWithFiles(sheetFile, {}));
	const run = await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'GST Compliance Trigger' },
	});
	expect(run.executionId).toBeDefined();
	const [execution] = await n8n.waitForExecutions(created.id, 1);
	expect(execution.status).toBe('success');
	const [einvoice, ewaybill] = loadTemplate('status-sheet-upsert.json').pinData![
		'GST Compliance Trigger'
	].map((item: { json: PinnedEvent }) => item.json);
	// Document ID, Type, Invoice Number, IRN, Seller GSTIN, Invoice Value, Status, Status Time,
	// Event ID: the e-way bill's row has no invoice fields.
	expect(readCsv(sheetFile)).toEqual([
		[
			einvoice.data.id,
			'E-invoice',
			einvoice.data.invoiceNumber,
			einvoice.data.irn,
			einvoice.data.sellerGstin,
			String(einvoice.data.totalInvoiceValue),
			'generated',
			einvoice.createdAt,
			einvoice.id,
		],
		[ewaybill.data.id, 'E-way bill', '', '', '', '', 'expired', ewaybill.createdAt, ewaybill.id],
	]);
});

it('status-sheet-upsert: newer events write a row, an older out-of-order event does not', async () => {
	const sheetFile = path.join(n8n.filesDir, 'sheet.csv');
	const stored = new Date(Date.now() - 3600_000).toISOString();
	// The sheet lookup becomes a fixed row "last written by an event one hour ago" (test copy only).
	const wf = sheetWithFiles(sheetFile, {
		'Document ID': '={{ $json.data.id }}',
		Status: 'generated',
		'Status Time': stored,
	});
	const { secret, url } = await subscribe(wf, ['einvoice.cancelled', 'ewaybill.expired']);
	const id = await createAndActivate(wf);

	// A fresh event (createdAt now, newer than the sheet) → row written.
	const inv = emu.control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
	});
	emu.control.setEinvoiceStatus(inv.id, 'cancelled');
	await emu.control.settle();
	await n8n.waitForExecutions(id, 1);
	// An event created two hours ago, delivered late (out of order) → the sheet keeps its row.
	const late = {
		...envelope('ewaybill.expired', { id: 'ewb_late', object: 'ewaybill', status: 'expired' }),
		createdAt: new Date(Date.now() - 7200_000).toISOString(),
	};
	expect((await deliver(url, late, secret)).status).toBe(202);
	await n8n.waitForExecutions(id, 2);

	const rows = readCsv(sheetFile);
	expect(rows).toHaveLength(1);
	// The business columns: Document ID, Type, Invoice Number, IRN, Seller GSTIN, Invoice Value,
	// Status, Status Time, Event ID.
	expect(rows[0][0]).toBe(inv.id);
	expect(rows[0][1]).toBe('E-invoice');
	expect(rows[0][2]).toBe(inv.invoiceNumber);
	expect(rows[0][6]).toBe('cancelled');
	const executions = await n8n.executions(id);
	const skipped = await Promise.all(
		executions.map((e) => n8n.nodeOutput(e.id, 'Older event: keep the sheet')),
	);
	expect(skipped.flat().map((i) => i['Document ID'])).toEqual(['ewb_late']);
});

it('send-test-event: Execute workflow sends a signed sample event with the trigger’s own credential; the trigger takes it', async () => {
	// A trigger to send to: its production URL verifies exactly as its Test URL does.
	const target = bindCredentials(loadTemplate('einvoice-failed-alert.json'), {});
	const { url } = await subscribe(target, ['einvoice.failed']);
	const targetId = await createAndActivate(
		alertWithFiles(
			path.join(n8n.filesDir, 'slack-signed.csv'),
			path.join(n8n.filesDir, 'email-signed.csv'),
			target,
		),
	);
	// The very credential the trigger verifies with: no second one holding the same secret.
	const triggerCredential = target.nodes.find((n) => n.type.endsWith('.gstComplianceTrigger'))!
		.credentials![CRED.webhook];
	const wf = bindCredentials(loadTemplate('send-test-event.json'), {
		[CRED.webhook]: triggerCredential,
	});
	wf.nodes.find((n) => n.name === 'Send to the trigger')!.parameters.triggerUrl = url;
	const created = await n8n.createWorkflow(wf);
	await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'Send a test event' },
	});
	const [run] = await n8n.waitForExecutions(created.id, 1);
	expect(run.status).toBe('success');
	const [answer] = await n8n.nodeOutput(run.id, 'Send to the trigger');
	expect(answer).toMatchObject({
		statusCode: 202,
		body: { received: true },
		event: { id: expect.stringMatching(/^evt_sample_/), type: 'einvoice.failed' },
	});
	const [execution] = await n8n.waitForExecutions(targetId, 1);
	const [event] = await n8n.nodeOutput(execution.id, 'GST Compliance Trigger');
	expect(event).toMatchObject({
		id: answer.event.id,
		type: 'einvoice.failed',
		data: { object: 'einvoice', status: 'failed_terminal' },
	});
});

it('send-test-event to a trigger listening on its Test URL (Execute step): its run starts with the sample event; sent again, "Nothing listens"', async () => {
	const slackFile = path.join(n8n.filesDir, 'slack-test-url.csv');
	const target = alertWithFiles(slackFile, path.join(n8n.filesDir, 'email-test-url.csv'));
	const { url } = await subscribe(target, ['einvoice.failed']);
	const trigger = target.nodes.find((n) => n.type.endsWith('.gstComplianceTrigger'))!;
	// The editor's Execute step on the trigger: n8n listens on the Test URL (nothing pinned).
	const listening = await n8n.createWorkflow({ ...target, pinData: {} });
	const waiting = await n8n.rest('POST', `/workflows/${listening.id}/run`, {
		triggerToStartFrom: { name: trigger.name },
	});
	expect(waiting).toMatchObject({ waitingForWebhook: true });
	const wf = bindCredentials(loadTemplate('send-test-event.json'), {
		[CRED.webhook]: trigger.credentials![CRED.webhook],
	});
	const testUrl = url.replace('/webhook/', '/webhook-test/');
	expect(testUrl).not.toBe(url);
	wf.nodes.find((n) => n.name === 'Send to the trigger')!.parameters.triggerUrl = testUrl;
	const sender = await n8n.createWorkflow(wf);
	const send = async () =>
		await n8n.rest('POST', `/workflows/${sender.id}/run`, {
			triggerToStartFrom: { name: 'Send a test event' },
		});
	await send();
	const [sent] = await n8n.waitForExecutions(sender.id, 1);
	expect(sent.status).toBe('success');
	const [answer] = await n8n.nodeOutput(sent.id, 'Send to the trigger');
	expect(answer.statusCode).toBe(202);
	const [run] = await n8n.waitForExecutions(listening.id, 1);
	expect(run.status).toBe('success');
	const [event] = await n8n.nodeOutput(run.id, 'GST Compliance Trigger');
	expect(event).toMatchObject({ id: answer.event.id, type: 'einvoice.failed' });
	expect(readCsv(slackFile)[0][1]).toContain('failed_terminal');
	// n8n listens for one event: the next send finds nothing there, and says what to do.
	await send();
	const second = (await n8n.waitForExecutions(sender.id, 2)).find((e) => e.id !== sent.id)!;
	expect(second.status).toBe('error');
	const detail = await n8n.rest('GET', `/executions/${second.id}`);
	expect(JSON.stringify(detail)).toContain('Nothing listens at this Test URL.');
});
