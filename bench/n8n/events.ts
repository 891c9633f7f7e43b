/**
 * Item 6: events per second through our trigger and through n8n's bare Webhook node on the same
 * instance. A bounded generator on localhost POSTs unique signed 4 KB-ish events at a fixed
 * concurrency; the rate counts from the first POST until n8n has finished an execution for
 * every event (acknowledged-only rates are kept alongside).
 */
import { activeTrigger, type Session as BenchSession, type N8n } from '../../test/harness';
import { ratios, type Row } from '../result';
import { CONCURRENCY, postEvents } from './post';

export const HEADER_AUTH = { name: 'x-bench-key', value: 'bench-key-value' };

/** n8n's Webhook node answering on receipt, bare or with Header Auth, at `path`. */
export function webhookNode(label: string, path: string, auth?: { id: string; name: string }) {
	return {
		id: `bench-${label}`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: `${path}-id`,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'onReceived',
			authentication: auth ? 'headerAuth' : 'none',
			options: {},
		},
		...(auth ? { credentials: { httpHeaderAuth: auth } } : {}),
	};
}

export interface Side {
	label: string;
	url: string;
	workflowId: string;
	/** Finished executions before this run. */
	done: number;
}

export type SideName = 'ours' | 'bare' | 'headerAuth';

/**
 * n8n's Webhook node, bare or with its Header Auth (which, like our trigger, reads a credential per
 * request).
 */
async function webhookSide(
	n8n: N8n,
	label: string,
	auth?: { id: string; name: string },
): Promise<Side> {
	const path = `bench-${label}-${Date.now()}`;
	const node = webhookNode(label, path, auth);
	const wf = await n8n.createWorkflow({ name: `bench: ${label} webhook`, nodes: [node] });
	await n8n.activateWorkflow(wf.id);
	return { label, url: n8n.webhookUrl(path), workflowId: wf.id, done: 0 };
}

export async function createSides(session: BenchSession): Promise<Record<SideName, Side>> {
	const { n8n } = session;
	const trigger = await activeTrigger(session, 'bench: GST trigger');
	const headerCredential = await n8n.createCredential(
		'bench header auth',
		'httpHeaderAuth',
		HEADER_AUTH,
	);
	return {
		ours: { label: 'GST trigger', url: trigger.url, workflowId: trigger.workflowId, done: 0 },
		bare: await webhookSide(n8n, 'bare'),
		headerAuth: await webhookSide(n8n, 'header-auth', headerCredential),
	};
}

interface Rates {
	finishedPerSecond: number;
	acknowledgedPerSecond: number;
}

export async function runSide(
	n8n: N8n,
	side: Side,
	events: number,
	secret: string,
	seq: { next: number },
): Promise<Rates> {
	const target = { ...side, secret, headers: { [HEADER_AUTH.name]: HEADER_AUTH.value } };
	const { acknowledgedMs, finishedMs } = await postEvents(n8n, target, events, seq);
	side.done = target.done;
	return {
		finishedPerSecond: (events * 1000) / finishedMs,
		acknowledgedPerSecond: (events * 1000) / acknowledgedMs,
	};
}

export async function eventsBench(
	session: BenchSession,
	runs: number,
	events: number,
): Promise<Row[]> {
	const sides = await createSides(session);
	const seq = { next: 0 };
	const secret = session.signingSecret;
	const names: SideName[] = ['ours', 'bare', 'headerAuth'];
	// warm-up, not counted
	for (const name of names) await runSide(session.n8n, sides[name], 20, secret, seq);
	const rates: Record<SideName, Rates[]> = { ours: [], bare: [], headerAuth: [] };
	for (let run = 0; run < runs; run++) {
		const order = names.map((_, i) => names[(i + run) % names.length]);
		for (const name of order)
			rates[name].push(await runSide(session.n8n, sides[name], events, secret, seq));
	}
	const pick = (list: Rates[], key: keyof Rates) => list.map((rate) => rate[key]);
	const { ours, bare, headerAuth } = rates;
	// Context only: on 2.41's default engine n8n builds an expression isolate for every request to
	// any trigger but its own Webhook node, Header Auth included (bench/method.md), a cost no trigger
	// can opt out of; rows 6p carry the goals, measured where n8n runs both sides the same way.
	return [
		{
			item: '6',
			what: `Events/s, ${events} signed events at ${CONCURRENCY} in flight, until every execution finished, against the Webhook node with Header Auth`,
			unit: 'events/s',
			ours: pick(ours, 'finishedPerSecond'),
			baseline: {
				label: 'Webhook node + Header Auth credential',
				values: pick(headerAuth, 'finishedPerSecond'),
			},
			ratio: ratios(pick(ours, 'finishedPerSecond'), pick(headerAuth, 'finishedPerSecond')),
			goal: '— (context: n8n adds an isolate per request its own Webhook node skips; rows 6p carry the goal)',
			note: 'The Webhook node with Header Auth is the cheapest built-in way to accept only authenticated calls; both save every execution (n8n defaults, SQLite).',
		},
		{
			item: '6',
			what: 'Same runs, against the bare Webhook node',
			unit: 'events/s',
			ours: pick(ours, 'finishedPerSecond'),
			baseline: {
				label: 'bare Webhook node, same instance',
				values: pick(bare, 'finishedPerSecond'),
			},
			ratio: ratios(pick(ours, 'finishedPerSecond'), pick(bare, 'finishedPerSecond')),
			goal: '— (context)',
			note: 'The bare node verifies nothing, dedupes nothing and skips the per-request isolate.',
		},
		{
			item: '6',
			what: 'Same runs: events/s acknowledged (HTTP 200 received), against the bare Webhook node',
			unit: 'events/s',
			ours: pick(ours, 'acknowledgedPerSecond'),
			baseline: {
				label: 'bare Webhook node, same instance',
				values: pick(bare, 'acknowledgedPerSecond'),
			},
			ratio: ratios(pick(ours, 'acknowledgedPerSecond'), pick(bare, 'acknowledgedPerSecond')),
			goal: '— (context)',
		},
	];
}
