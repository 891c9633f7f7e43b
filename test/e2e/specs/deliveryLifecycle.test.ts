/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- workflow JSON for n8n's REST API, untyped here; each spec asserts on the fields it reads; imports the package through the @/ alias */
/**
 * The trigger's delivery lifecycle at its edges, inside a real n8n (regular mode, SQLite): an
 * event that cannot be refetched still starts once; ids that differ only in lone surrogates are
 * distinct; renaming the node keeps the remembered ids across a restart; and what another node
 * writing workflow static data does to them (docs/guarantees.md); two GST triggers in one workflow
 * keep each other's ids.
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import {
	apiCredentialData,
	CRED,
	deliver,
	envelope,
	N8n,
	startN8n,
	triggerNode,
	triggerUrl,
	uuid,
	waitFor,
} from '@/test/harness';

jest.setTimeout(240_000);

let emu: RunningEmulator;
let n8n: N8n;
let client: ClientInfo;
let webhookCredential: { id: string; name: string };
let apiCredential: { id: string; name: string };
const secret = `whsec_${uuid()}`;

beforeAll(async () => {
	emu = await startEmulator({ seed: false });
	client = emu.control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
	n8n = await startN8n({ name: 'lifecycle' });
	webhookCredential = await n8n.createCredential('GST webhook', CRED.webhook, {
		signingSecret: secret,
		previousSigningSecret: '',
	});
	apiCredential = await n8n.createCredential('GST API', CRED.api, apiCredentialData(emu, client));
});

afterAll(async () => {
	await n8n?.dispose();
	await emu?.stop();
});

interface Published {
	id: string;
	url: string;
	triggerName: string;
}

/** A published workflow whose trigger takes every event, optionally followed by `next` nodes. */
async function publish(
	opts: {
		refetch?: boolean;
		next?: Array<Record<string, any>>;
	} = {},
): Promise<Published> {
	const webhookId = uuid();
	const trigger = triggerNode({
		events: ['*'],
		webhookCredential,
		apiCredential: opts.refetch ? apiCredential : undefined,
		refetch: opts.refetch,
		webhookId,
	});
	const next = opts.next ?? [];
	const connections = next.length
		? { [trigger.name]: { main: [[{ node: next[0].name, type: 'main', index: 0 }]] } }
		: {};
	const wf = await n8n.createWorkflow({
		name: `lifecycle ${uuid().slice(0, 8)}`,
		nodes: [trigger, ...next],
		connections,
	});
	await n8n.activateWorkflow(wf.id);
	return { id: wf.id, url: triggerUrl(n8n, { webhookId }), triggerName: trigger.name };
}

/** The trigger's output items of every finished execution of the workflow. */
async function startedItems(wf: Published, count: number): Promise<Array<Record<string, any>>> {
	const executions = await n8n.waitForExecutions(wf.id, count);
	const items: Array<Record<string, any>> = [];
	for (const e of executions) items.push(...(await n8n.nodeOutput(e.id, wf.triggerName)));
	return items;
}

/** A fresh event whose barrier execution shows every earlier delivery has been handled. */
async function barrier(wf: Published, expectedExecutions: number): Promise<void> {
	const res = await deliver(wf.url, envelope('einvoice.generated', { id: 'einv_barrier' }), secret);
	expect(res.status).toBe(202);
	await n8n.waitForExecutions(wf.id, expectedExecutions);
	await waitFor(
		async () =>
			(await n8n.executions(wf.id)).every((e) => !['new', 'running', 'waiting'].includes(e.status)),
		'executions to finish',
		30_000,
		200,
	);
	expect(await n8n.executions(wf.id)).toHaveLength(expectedExecutions);
}

it('an event naming a resource id with a lone surrogate starts once, with refetchError; its redelivery is a duplicate', async () => {
	const wf = await publish({ refetch: true });
	// "einv_\udc00" is valid JSON; the id cannot be put in a URL.
	const event = envelope('einvoice.generated', { id: 'einv_\udc00', status: 'generated' });
	const body = JSON.stringify(event);
	const first = await deliver(wf.url, body, secret);
	expect(first.status).toBe(202);
	// On its way (202) or started (200): a copy either way, with no execution of its own.
	const again = await deliver(wf.url, body, secret);
	expect([200, 202]).toContain(again.status);
	expect(again.json()).toEqual({ received: true, duplicate: true });
	const [item] = await startedItems(wf, 1);
	expect(item).toMatchObject({ id: event.id, refetched: null });
	expect(item.refetchError).toMatch(/invisible character|unpaired UTF-16 surrogate/);
	await barrier(wf, 2);
});

it('event ids that differ only in lone surrogates each start once', async () => {
	const wf = await publish();
	const run = uuid();
	const ids = ['\ud800', '\udc00', '\ufffd'].map((middle) => `evt_${run}_${middle}`);
	for (const id of ids) {
		const res = await deliver(wf.url, envelope('einvoice.generated', { id: 'einv_1' }, id), secret);
		expect(res.json()).toEqual({ received: true });
	}
	await barrier(wf, ids.length + 1);
});

it('renaming the trigger node keeps the remembered ids across a restart', async () => {
	const wf = await publish();
	const event = envelope('einvoice.generated', { id: 'einv_rename' });
	expect((await deliver(wf.url, event, secret)).json()).toEqual({ received: true });
	await n8n.waitForExecutions(wf.id, 1);

	// Rename as the editor does: save the workflow with the node's new name, then publish it.
	const saved = await n8n.rest('GET', `/workflows/${wf.id}`);
	const renamed = 'Renamed GST Trigger';
	const nodes = (saved.nodes as Array<Record<string, any>>).map((node) =>
		node.name === wf.triggerName ? { ...node, name: renamed } : node,
	);
	await n8n.rest('PATCH', `/workflows/${wf.id}`, {
		name: saved.name,
		nodes,
		connections: saved.connections,
		versionId: saved.versionId,
	});
	await n8n.activateWorkflow(wf.id);
	await n8n.restart();

	const again = await deliver(wf.url, event, secret);
	expect(again.json()).toEqual({ received: true, duplicate: true });
	await barrier({ ...wf, triggerName: renamed }, 2);
});

/**
 * n8n 2.41 saves an execution's static data over the whole column when a node of it changed static
 * data, from the copy it read when the execution was created; n8n issues that read without waiting
 * for the webhook's save of the acceptance, so under load the copy can miss even the event that
 * started it (docs/trigger.md, "Other nodes that write static data": attach Redis). The process's
 * memory still holds it: a copy of the event is a copy.
 */
it('a Code node that writes workflow static data: a copy of the event it ran for is still a copy (the process’s memory answers)', async () => {
	const code = {
		id: uuid(),
		name: 'Count in static data',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: {
			jsCode:
				"const data = $getWorkflowStaticData('global');\n" +
				'data.count = (data.count || 0) + 1;\n' +
				'return $input.all();',
		},
	};
	const wf = await publish({ next: [code] });
	const event = envelope('einvoice.generated', { id: 'einv_neighbour' });
	expect((await deliver(wf.url, event, secret)).json()).toEqual({ received: true });
	const [execution] = await n8n.waitForExecutions(wf.id, 1);
	expect(execution.status).toBe('success');
	expect((await deliver(wf.url, event, secret)).json()).toEqual({
		received: true,
		duplicate: true,
	});
	await barrier(wf, 2);
});

/**
 * n8n saves the whole static data each request loaded, unlocked: a request to one trigger that
 * overlaps a request to another saves the other's ids as they were when it loaded them. Each save
 * carries every trigger's current ids, so none is rolled back.
 */
it('two GST triggers in one workflow, deliveries overlapping: after a restart every redelivery is a duplicate', async () => {
	const [a, b] = ['E-invoices in', 'E-way bills in'].map((name, i) =>
		triggerNode({
			name,
			events: ['*'],
			webhookCredential,
			webhookId: uuid(),
			position: [0, i * 200],
		}),
	);
	const wf = await n8n.createWorkflow({
		name: `two triggers ${uuid().slice(0, 8)}`,
		nodes: [a, b],
		connections: {},
	});
	await n8n.activateWorkflow(wf.id);
	const urls = [a, b].map((node) => triggerUrl(n8n, { webhookId: node.webhookId as string }));
	const events = urls.flatMap((url, t) =>
		Array.from({ length: 20 }, (_, i) => ({
			url,
			event: envelope('einvoice.generated', { id: `einv_${t}_${i}` }),
		})),
	);
	const deliverAll = async () =>
		await Promise.all(
			events.map(async ({ url, event }) => (await deliver(url, event, secret)).json()),
		);

	expect(await deliverAll()).toEqual(events.map(() => ({ received: true })));
	await n8n.waitForExecutions(wf.id, 40, 60_000);
	await n8n.restart();
	expect(await deliverAll()).toEqual(events.map(() => ({ received: true, duplicate: true })));
	expect(await n8n.executions(wf.id)).toHaveLength(40);
});
