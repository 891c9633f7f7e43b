#!/usr/bin/env node
/**
 * `npm run demo` — one command on a fresh machine: builds the package, installs the e2e n8n when
 * missing, starts the service emulator and a real n8n with our package installed as a community
 * package, sets up credentials and workflows, tells a short story and prints what happened.
 * Then leaves n8n running (URL and login printed) until Ctrl-C.
 * `npm run demo -- --once` runs the story, checks the outcome and exits 0 (as expected) or 1.
 */
'use strict';

const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const ONCE = process.argv.includes('--once');
const SKIP_BUILD = process.argv.includes('--no-build');

const say = (s = '') => process.stdout.write(`${s}\n`);
const step = (s) => say(`\n\x1b[1m▶ ${s}\x1b[0m`);
const ok = (s) => say(`  \x1b[32m✔\x1b[0m ${s}`);
const bad = (s) => say(`  \x1b[31m✘\x1b[0m ${s}`);
const info = (s) => say(`    ${s}`);

function run(cmd, args, what) {
	const started = Date.now();
	const r = spawnSync(cmd, args, {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		encoding: 'utf8',
	});
	if (r.status !== 0) {
		say(r.stdout);
		say(r.stderr);
		throw new Error(`${what} failed`);
	}
	ok(`${what} (${Math.round((Date.now() - started) / 1000)} s)`);
}

async function main() {
	const t0 = Date.now();
	step('Preparing');
	if (!SKIP_BUILD) run('npm', ['run', 'build', '--silent'], 'package built (npm run build)');
	const installer = require('../harness/install.js');
	const marker = installer.markerPath();
	if (!fs.existsSync(marker)) {
		say('  installing the e2e n8n runtime (first run only: ~5 min, ~3 GB)…');
		const r = spawnSync(
			process.execPath,
			[path.join(__dirname, '..', 'harness', 'install.js'), '--no-browser'],
			{ stdio: 'inherit' },
		);
		if (r.status !== 0) throw new Error('e2e runtime install failed');
	}
	ok('n8n 2.41 runtime present (test/e2e/runtime)');

	// The emulator and the harness are TypeScript.
	require('ts-node').register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
	const { startEmulator } = require('../emulator');
	const gst = require('../harness');
	const { N8n, OWNER, packPackage, freePort, request, sleep } = gst;

	const emu = await startEmulator({ seed: true });
	const client = emu.seeded.sandbox;
	ok(`service emulator running: token ${emu.tokenUrl}, sandbox API ${emu.sandboxUrl}`);

	const userFolder = path.join(ROOT, 'test', 'e2e', '.work', 'demo');
	fs.rmSync(userFolder, { recursive: true, force: true });
	fs.mkdirSync(userFolder, { recursive: true });
	let port = 5678;
	try {
		const r = await request(`http://127.0.0.1:${port}/healthz`, { timeoutMs: 500 });
		if (r.status) port = await freePort();
	} catch {
		/* free */
	}
	const n8n = new N8n({ name: 'demo', userFolder, port });
	let stopping = false;
	const shutdown = async (code) => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the emulator…');
		await n8n.stop();
		await emu.stop();
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));

	try {
		packPackage();
		ok('package packed (npm pack) and installed into n8n as a community package');
		const started = Date.now();
		await n8n.start();
		await n8n.setupOwner();
		ok(
			`n8n started in ${Math.round((Date.now() - started) / 1000)} s at ${n8n.baseUrl} (log: ${path.relative(ROOT, n8n.logFile)})`,
		);

		step('Setting up (what a user does once)');
		const apiCred = await n8n.createCredential(
			'GST Compliance API (sandbox)',
			gst.CRED.api,
			gst.apiCredentialData(emu, client),
		);
		const test = await n8n.testCredential(
			apiCred,
			gst.CRED.api,
			gst.apiCredentialData(emu, client),
		);
		(test.status === 'OK' ? ok : bad)(
			`credential "GST Compliance API" tested in n8n: ${test.message}`,
		);

		const files = {
			sheet: path.join(n8n.filesDir, 'status-sheet.csv'),
			slack: path.join(n8n.filesDir, 'slack-messages.csv'),
			email: path.join(n8n.filesDir, 'emails.csv'),
		};
		fs.writeFileSync(files.sheet, '"event","type","id","status","createdAt"\n');

		// Workflow 1: the "einvoice.failed → Slack + e-mail" template; Slack and e-mail write files
		// here.
		const template = gst.loadTemplate('einvoice-failed-alert.json');
		const slack = template.nodes.find((n) => n.name === 'Slack #finance');
		const mail = template.nodes.find((n) => n.name === 'E-mail finance');
		let alert = gst.bindCredentials(template, { [gst.CRED.api]: apiCred });
		alert = gst.swapForFileWrite(alert, slack.name, files.slack, {
			channel: slack.parameters.channelId.value,
			text: slack.parameters.text,
		});
		alert = gst.swapForFileWrite(alert, mail.name, files.email, {
			to: mail.parameters.toEmail,
			subject: mail.parameters.subject,
			text: mail.parameters.text,
		});
		alert.name = 'Demo: e-invoice failed → Slack + e-mail to finance';

		// Workflow 2: every event → a row in a CSV status sheet (n8n's own file nodes).
		let sheet = {
			name: 'Demo: every status change → status sheet (CSV)',
			nodes: [
				gst.triggerNode({ events: ['*'], webhookCredential: { id: '', name: '' } }),
				{
					id: 'sheet-row',
					name: 'Status sheet',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [240, 0],
					parameters: {},
				},
			],
			connections: gst.chain('GST Compliance Trigger', 'Status sheet'),
		};
		sheet = gst.swapForFileWrite(sheet, 'Status sheet', files.sheet, {
			event: '={{ $json.id }}',
			type: '={{ $json.type }}',
			id: '={{ $json.data.id }}',
			status: '={{ $json.data.status }}',
			createdAt: '={{ $json.createdAt }}',
		});

		// Workflow 3: the "every status change → an n8n Data Table" template as it is (no outside
		// account); its table is created first, as the README tells a user to.
		const statusTable = gst.loadTemplate('status-data-table-upsert.json');
		statusTable.name = 'Demo: every status change → n8n Data Table';
		const projectId = (await n8n.rest('GET', '/projects/personal')).id;
		const tableName = statusTable.nodes.find((n) => n.type === 'n8n-nodes-base.dataTable')
			.parameters.dataTableId.value;
		const table = await n8n.rest('POST', `/projects/${projectId}/data-tables`, {
			name: tableName,
			columns: gst.STATUS_TABLE_COLUMNS.map((name) => ({ name, type: 'string' })),
		});
		ok(`data table "${tableName}" created (${gst.STATUS_TABLE_COLUMNS.length} text columns)`);

		const flows = {};
		for (const [key, wf, events] of [
			['alert', alert, ['einvoice.failed']],
			['sheet', sheet, gst.EVENT_TYPES_ALL],
			['table', statusTable, gst.EVENT_TYPES_ALL],
		]) {
			const trigger = wf.nodes.find((n) => n.type.endsWith('.gstComplianceTrigger'));
			const url = gst.triggerUrl(n8n, trigger);
			const sub = emu.control.createSubscription({ clientId: client.clientId, url, events });
			const cred = await n8n.createCredential(`GST webhook: ${wf.name}`, gst.CRED.webhook, {
				signingSecret: sub.signingSecret,
			});
			trigger.credentials = { [gst.CRED.webhook]: cred };
			const created = await n8n.createWorkflow(wf);
			await n8n.activateWorkflow(created.id);
			flows[key] = { id: created.id, name: wf.name, url, sub };
			ok(
				`workflow "${wf.name}" active; subscription ${sub.id} (${events.length === 1 ? events[0] : `${events.length} event types`}) → ${url}`,
			);
		}

		step('The story');
		const org = client.organizationId;
		const inv1 = emu.control.createEinvoice({
			organizationId: org,
			environment: 'sandbox',
			fields: { invoiceNumber: 'INV-2025-0101' },
		});
		say(`  1. E-invoice ${inv1.invoiceNumber} is generated (IRN ${inv1.irn.slice(0, 12)}…)`);
		await emu.control.settle();
		const inv2 = emu.control.createEinvoice({
			organizationId: org,
			environment: 'sandbox',
			fields: { invoiceNumber: 'INV-2025-0102' },
		});
		emu.control.setEinvoiceStatus(inv2.id, 'failed_terminal');
		say(
			`  2. E-invoice ${inv2.invoiceNumber} is generated, then fails at the portal (failed_terminal)`,
		);
		await emu.control.settle();
		const ewb = emu.control.createEwaybill({ organizationId: org, environment: 'sandbox' });
		emu.control.setEwaybillStatus(ewb.id, 'expired');
		say(
			`  3. E-way bill ${ewb.ewbNumber} is generated, then expires (valid up to ${ewb.validUpto})`,
		);
		await emu.control.settle();
		const first = emu.control.deliveries({ subscriptionId: flows.sheet.sub.id })[0];
		const replayed = await emu.control.replay(first.id);
		say(`  4. The service delivers event ${first.eventId} (${first.eventType}) a second time`);
		const forgedBody = JSON.stringify(
			gst.envelope('einvoice.cancelled', { id: inv1.id, object: 'einvoice', status: 'cancelled' }),
		);
		const forged = await gst.deliver(flows.sheet.url, forgedBody, 'a-guessed-secret');
		say(
			'  5. Someone POSTs a forged "einvoice.cancelled" for the first invoice, signed with a guessed secret',
		);

		await n8n.waitForExecutions(flows.sheet.id, 5, 30_000).catch(() => undefined);
		await n8n.waitForExecutions(flows.table.id, 5, 30_000).catch(() => undefined);
		await n8n.waitForExecutions(flows.alert.id, 1, 30_000).catch(() => undefined);
		await sleep(1000);

		step('What n8n did');
		const checks = [];
		const expect = (cond, text) => {
			checks.push(cond);
			(cond ? ok : bad)(text);
		};
		for (const f of Object.values(flows)) {
			const ex = await n8n.executions(f.id);
			const statuses = ex.map((e) => e.status);
			say(`  Workflow "${f.name}": ${ex.length} execution(s) ${JSON.stringify(countBy(statuses))}`);
		}
		const rows = gst.readCsv(files.sheet).slice(1);
		say(
			`\n  Status sheet ${path.relative(ROOT, files.sheet)} — ${rows.length} row(s) appended by n8n:`,
		);
		for (const r of rows) info(`${r[1].padEnd(20)} ${r[2].padEnd(30)} ${r[3].padEnd(16)} ${r[4]}`);
		info(
			'(rows land in arrival order, which the service does not guarantee — examples/status-sheet-upsert.json orders by createdAt)',
		);
		expect(
			rows.length === 5,
			'five status changes → five rows (generated, generated, failed_terminal, generated, expired)',
		);
		const tableRows = (
			await n8n.rest('GET', `/projects/${projectId}/data-tables/${table.id}/rows?take=50`)
		).data;
		say(
			`\n  Data table "${tableName}" — ${tableRows.length} row(s), one per document, newest state:`,
		);
		for (const r of tableRows)
			info(
				`${r.type.padEnd(9)} ${r.resourceId.padEnd(30)} ${r.status.padEnd(16)} ${r.eventCreatedAt}${r.invoiceNumber ? `  ${r.invoiceNumber}` : ''}`,
			);
		expect(
			tableRows.length === 3,
			'three documents → three rows in the data table (upserted by id, whatever the order)',
		);
		const slackRows = gst.readCsv(files.slack);
		const mailRows = gst.readCsv(files.email);
		say('\n  Slack message the alert workflow would post:');
		for (const r of slackRows) info(`${r[0]}: ${r[1]}`);
		say('  E-mail it would send:');
		for (const r of mailRows) {
			info(`To: ${r[0]}`);
			info(`Subject: ${r[1]}`);
			for (const line of r[2].split('\n')) info(`  ${line}`);
		}
		expect(
			slackRows.length === 1 && slackRows[0][1].includes('INV-2025-0102'),
			'one Slack message, for the failed invoice only',
		);
		expect(
			mailRows.length === 1 && mailRows[0][1].includes('INV-2025-0102'),
			'one e-mail to finance, for the failed invoice only',
		);

		step('Deliveries refused or dropped');
		const dupBody = replayed.lastResponseBody || '';
		expect(
			(replayed.lastStatusCode === 200 || replayed.lastStatusCode === 202) &&
				/duplicate/.test(dupBody),
			`duplicate of ${first.eventId}: answered ${replayed.lastStatusCode} ${dupBody} — acknowledged so the service stops retrying, no workflow started`,
		);
		expect(
			forged.status === 401,
			`forged delivery: answered ${forged.status} ${forged.text} — signature does not match the signing secret, nothing started`,
		);
		const alertDeliveries = emu.control.deliveries({ subscriptionId: flows.alert.sub.id });
		info(
			`(the alert subscription only lists einvoice.failed, so the service sent it ${alertDeliveries.length} event(s))`,
		);
		const logs = n8n.logs();
		expect(
			![
				client.clientSecret,
				flows.alert.sub.signingSecret,
				flows.sheet.sub.signingSecret,
				flows.table.sub.signingSecret,
			].some((s) => logs.includes(s)),
			"no client secret or signing secret in n8n's log",
		);

		const passed = checks.every(Boolean);
		say(
			`\n${passed ? '\x1b[32mStory complete: everything as expected' : '\x1b[31mStory complete: something was not as expected'}\x1b[0m (${Math.round((Date.now() - t0) / 1000)} s)`,
		);
		if (ONCE) {
			await shutdown(passed ? 0 : 1);
			return;
		}
		step('n8n keeps running');
		say(`  Editor:   ${n8n.baseUrl}`);
		say(`  Login:    ${OWNER.email} / ${OWNER.password}`);
		say(
			`  Emulator: sandbox client ${client.clientId} / ${client.clientSecret}; control ${emu.controlUrl}/control/<method>`,
		);
		say('  Press Ctrl-C to stop.');
		await new Promise(() => undefined);
	} catch (err) {
		bad(err && err.stack ? err.stack : String(err));
		say(`  n8n log: ${n8n.logFile}`);
		await shutdown(1);
	}
}

function countBy(list) {
	const out = {};
	for (const x of list) out[x] = (out[x] || 0) + 1;
	return out;
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
