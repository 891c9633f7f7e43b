/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- n8n's REST JSON is untyped here; each test asserts on the fields it reads; imports the package through the @/ alias */
/**
 * examples/status-data-table-upsert.json in a real n8n 2.41, with n8n's own Data table node (no
 * outside account, so nothing is swapped): the template is imported as it is (only the webhook
 * credential is bound), its data table is created through n8n's REST API as examples/README.md tells a user
 * to create it, and one e-invoice's events arrive out of order. The table ends with one row for the
 * e-invoice holding its newest state.
 *
 * n8n 2.41 REST routes used (packages/cli, modules/data-table/data-table.controller.js):
 *   GET  /rest/projects/personal                                   → the owner's personal project
 *   POST /rest/projects/:projectId/data-tables                     { name, columns: [{ name, type }] }
 *   GET  /rest/projects/:projectId/data-tables/:dataTableId/rows   ?take=&filter=<JSON> → { count, data }
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	apiCredentialData,
	bindCredentials,
	CRED,
	deliver,
	EVENT_TYPES_ALL,
	loadTemplate,
	sleep,
	triggerUrl,
	uuid,
	N8n,
	startN8n,
	STATUS_TABLE_COLUMNS,
} from '@/test/harness';

jest.setTimeout(240_000);

const FILE = 'status-data-table-upsert.json';
const COLUMNS = STATUS_TABLE_COLUMNS;

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;
let projectId: string;
let table: { id: string; name: string };

/** The table both Data table nodes of the template name (resource locator in "By Name" mode). */
function tableNameOf(template: ReturnType<typeof loadTemplate>): string {
	const refs = template.nodes
		.filter((n) => n.type === 'n8n-nodes-base.dataTable')
		.map((n) => n.parameters.dataTableId);
	expect(refs).toHaveLength(2);
	for (const ref of refs) expect(ref).toMatchObject({ __rl: true, mode: 'name' });
	expect(new Set(refs.map((ref) => ref.value)).size).toBe(1);
	return refs[0].value as string;
}

/** Rows of the test's table through n8n's REST API, optionally only those of one resource id. */
async function tableRows(resourceId?: string): Promise<{ count: number; data: any[] }> {
	const query = new URLSearchParams({ take: '250' });
	if (resourceId)
		query.set(
			'filter',
			JSON.stringify({
				type: 'and',
				filters: [{ columnName: 'resourceId', condition: 'eq', value: resourceId }],
			}),
		);
	return await n8n.rest('GET', `/projects/${projectId}/data-tables/${table.id}/rows?${query}`);
}

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
	n8n = await startN8n({ name: 'data-table-template' });
	// Workflows created without a project live in the owner's personal project, and the Data table
	// node looks a table up by name in the workflow's project: the table goes there too.
	projectId = (await n8n.rest('GET', '/projects/personal')).id;
	const name = tableNameOf(loadTemplate(FILE));
	table = await n8n.rest('POST', `/projects/${projectId}/data-tables`, {
		name,
		columns: COLUMNS.map((column) => ({ name: column, type: 'string' })),
	});
	expect(table).toMatchObject({ name });
	const columns: Array<{ name: string; type: string }> = await n8n.rest(
		'GET',
		`/projects/${projectId}/data-tables/${table.id}/columns`,
	);
	expect(columns.map((c) => [c.name, c.type])).toEqual(COLUMNS.map((c) => [c, 'string']));
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

it('imports as it is, with every node type known to n8n (Data table node included)', async () => {
	const wf = loadTemplate(FILE);
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

it('on import, with the table created: Execute workflow on the two pinned samples writes a row for each, green', async () => {
	// The credential placeholders ("… (set me)") left out, as for the alert's run on import.
	const wf = bindCredentials(loadTemplate(FILE), {});
	const created = await n8n.createWorkflow(wf);
	await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'GST Compliance Trigger' },
	});
	const [execution] = await n8n.waitForExecutions(created.id, 1);
	const error = (await n8n.execution(execution.id)).data?.resultData?.error;
	expect({ status: execution.status, error: error?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
	const [einvoice, ewaybill] = wf.pinData!['GST Compliance Trigger'].map(
		(item: { json: any }) => item.json,
	);
	expect((await tableRows(einvoice.data.id)).data).toEqual([
		expect.objectContaining({
			resourceId: einvoice.data.id,
			type: 'einvoice',
			status: 'generated',
			eventCreatedAt: einvoice.createdAt,
			irn: einvoice.data.irn,
			ackNumber: einvoice.data.ackNumber,
			invoiceNumber: einvoice.data.invoiceNumber,
			sellerGstin: einvoice.data.sellerGstin,
		}),
	]);
	expect((await tableRows(ewaybill.data.id)).data).toEqual([
		expect.objectContaining({
			resourceId: ewaybill.data.id,
			type: 'ewaybill',
			status: 'expired',
			eventCreatedAt: ewaybill.createdAt,
		}),
	]);
	expect((await tableRows()).count).toBe(2);
});

it('one run with a known document and a new one: each event is compared with its own row', async () => {
	// The pinned samples again, the e-way bill now a new document: the e-invoice meets its row from
	// the run above (same instant, same status: kept), the new e-way bill has none (written).
	const wf = bindCredentials(loadTemplate(FILE), {});
	const [einvoice, ewaybill] = wf.pinData!['GST Compliance Trigger'];
	const fresh = { ...ewaybill.json, data: { ...ewaybill.json.data, id: 'ewb_second_run' } };
	wf.pinData!['GST Compliance Trigger'] = [einvoice, { json: fresh }];
	const created = await n8n.createWorkflow(wf);
	await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'GST Compliance Trigger' },
	});
	const [execution] = await n8n.waitForExecutions(created.id, 1);
	expect(execution.status).toBe('success');
	const kept = await n8n.nodeOutput(execution.id, 'Older event: keep the row');
	expect(kept.map((item) => item.data.id)).toEqual([einvoice.json.data.id]);
	const written = await n8n.nodeOutput(execution.id, 'Upsert row');
	expect(written.map((item) => item.resourceId)).toEqual(['ewb_second_run']);
	expect((await tableRows('ewb_second_run')).data).toEqual([
		expect.objectContaining({ type: 'ewaybill', status: 'expired' }),
	]);
	expect((await tableRows(einvoice.json.data.id)).count).toBe(1);
});

it('one e-invoice, events out of order: one row, the newest status, an older late event ignored', async () => {
	const template = loadTemplate(FILE);
	const wf = bindCredentials(template, {});
	const trigger = wf.nodes.find((n) => n.type.endsWith('.gstComplianceTrigger'))!;
	expect(trigger.parameters.events).toEqual(['*']);
	const url = triggerUrl(n8n, trigger);
	const sub = emu.control.createSubscription({
		clientId: client.clientId,
		url,
		events: EVENT_TYPES_ALL,
	});
	trigger.credentials = {
		[CRED.webhook]: await n8n.createCredential(`webhook ${sub.id}`, CRED.webhook, {
			signingSecret: sub.signingSecret,
		}),
	};
	const created = await n8n.createWorkflow({ ...wf, name: `${wf.name} (test copy)` });
	await n8n.activateWorkflow(created.id);
	const workflowId = created.id;
	const scope = { organizationId: client.organizationId, environment: 'sandbox' as const };

	// 1. einvoice.generated: creating the e-invoice in the emulator emits it. The table has no row
	// for it yet ("Look up row" outputs nothing, Always Output Data lets it through).
	const inv = emu.control.createEinvoice({ ...scope, fields: { invoiceNumber: 'INV-DT-24' } });
	await emu.control.settle();
	// Each execution finishes before the next event is sent: the read-compare-write of the template is
	// not atomic, so two executions for one document running at once could race (examples/README.md).
	const [first] = await n8n.waitForExecutions(workflowId, 1);
	expect(first.status).toBe('success');
	const generated = (await n8n.nodeOutput(first.id, 'GST Compliance Trigger'))[0];
	expect(generated).toMatchObject({
		type: 'einvoice.generated',
		data: { id: inv.id, status: 'generated' },
	});
	expect((await tableRows(inv.id)).data).toEqual([
		expect.objectContaining({
			resourceId: inv.id,
			status: 'generated',
			eventCreatedAt: generated.createdAt,
		}),
	]);

	// 2. einvoice.failed, created strictly later than the generated event.
	await sleep(5);
	const failed = emu.control.setEinvoiceStatus(inv.id, 'failed_terminal');
	expect(Date.parse(failed.createdAt)).toBeGreaterThan(Date.parse(generated.createdAt));
	await emu.control.settle();
	const afterFailed = await n8n.waitForExecutions(workflowId, 2);
	expect(afterFailed.map((e) => e.status)).toEqual(['success', 'success']);
	expect(emu.control.deliveries({ subscriptionId: sub.id }).map((d) => d.lastStatusCode)).toEqual([
		202, 202,
	]);

	// 3. The generated event again, late, under a NEW event id (so the trigger's dedupe does not
	// drop it) and with its original createdAt, older than the failed event's: signed like a real
	// delivery with the subscription's secret.
	const late = {
		id: `evt_late_${uuid().replace(/-/g, '').slice(0, 24)}`,
		type: 'einvoice.generated',
		createdAt: generated.createdAt,
		data: generated.data,
	};
	expect(Date.parse(late.createdAt)).toBeLessThan(Date.parse(failed.createdAt));
	expect((await deliver(url, late, sub.signingSecret)).status).toBe(202);
	const executions = await n8n.waitForExecutions(workflowId, 3);
	expect(executions.map((e) => e.status)).toEqual(['success', 'success', 'success']);
	const startedBy = await Promise.all(
		executions.map(async (e) => (await n8n.nodeOutput(e.id, 'GST Compliance Trigger'))[0]?.id),
	);
	const lateRun = executions[startedBy.indexOf(late.id)];
	expect(lateRun).toBeDefined();
	expect(await n8n.nodeOutput(lateRun.id, 'Older event: keep the row')).toHaveLength(1);
	expect(await n8n.nodeOutput(lateRun.id, 'Upsert row')).toHaveLength(0);
	// The failed event went through "Newer than the table?" straight to the upsert.
	const failedRun = executions[startedBy.indexOf(failed.id)];
	expect(await n8n.nodeOutput(failedRun.id, 'Upsert row')).toHaveLength(1);

	// The table, read back through n8n's REST API: exactly one row for this e-invoice (beside the
	// pinned samples' rows, run on import above), holding the failed event's state and its key fields.
	const all = await tableRows();
	const samples = [
		...loadTemplate(FILE).pinData!['GST Compliance Trigger'].map(
			(item: { json: any }) => item.json.data.id,
		),
		'ewb_second_run',
	];
	expect(all.data.map((r) => r.resourceId).filter((id) => !samples.includes(id))).toEqual([inv.id]);
	const rows = (await tableRows(inv.id)).data;
	expect(rows).toHaveLength(1);
	const [row] = rows;
	expect(row).toMatchObject({
		resourceId: inv.id,
		type: 'einvoice',
		status: 'failed_terminal',
		eventCreatedAt: failed.createdAt,
		irn: inv.irn,
		ackNumber: inv.ackNumber,
		invoiceNumber: 'INV-DT-24',
		sellerGstin: inv.sellerGstin,
	});
	for (const field of ['irn', 'ackNumber', 'invoiceNumber', 'sellerGstin'])
		expect({ field, filled: typeof row[field] === 'string' && row[field] !== '' }).toEqual({
			field,
			filled: true,
		});
});

it('scheduled-status-check: the e-invoice rows of the same table get their current status written back (run as n8n runs the schedule)', async () => {
	const scope = { organizationId: client.organizationId, environment: 'sandbox' as const };
	const a = emu.control.createEinvoice({ ...scope, fields: { invoiceNumber: 'INV-SC-1' } });
	const b = emu.control.createEinvoice({ ...scope, status: 'cancelled' });
	// The rows a user adds to watch three e-invoices, one the service does not know; an e-way bill's
	// row is left alone.
	const watched = [a.id, b.id, 'einv_does_not_exist'];
	await n8n.rest('POST', `/projects/${projectId}/data-tables/${table.id}/insert`, {
		data: [
			...watched.map((resourceId) => ({ resourceId, type: 'einvoice' })),
			{ resourceId: 'ewb_left_alone', type: 'ewaybill', status: 'generated' },
		],
	});
	const wf = bindCredentials(loadTemplate('scheduled-status-check.json'), {
		[CRED.api]: await n8n.createCredential(
			'GST Compliance API',
			CRED.api,
			apiCredentialData(emu, client),
		),
	});
	const created = await n8n.createWorkflow(wf);
	// The editor's "Execute workflow" from the schedule trigger.
	const run = await n8n.rest('POST', `/workflows/${created.id}/run`, {
		triggerToStartFrom: { name: 'Every hour' },
	});
	expect(run.executionId).toBeDefined();
	const [execution] = await n8n.waitForExecutions(created.id, 1);
	expect(execution.status).toBe('success');
	const statusOf = async (resourceId: string) => (await tableRows(resourceId)).data[0];
	expect(await statusOf(a.id)).toMatchObject({
		status: 'generated',
		invoiceNumber: 'INV-SC-1',
		irn: a.irn,
	});
	expect(await statusOf(b.id)).toMatchObject({ status: 'cancelled' });
	expect(await statusOf('einv_does_not_exist')).toMatchObject({ status: 'not_found' });
	expect(await statusOf('ewb_left_alone')).toMatchObject({ status: 'generated' });
});
