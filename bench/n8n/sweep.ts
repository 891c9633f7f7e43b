/**
 * Item 6 in the shape of n8n's own benchmark suite (n8n's `@n8n/benchmark` scenarios): each
 * workflow is its webhook node followed by one node that does nothing (No Operation), every event
 * carries a 1 KB payload, and the load sweeps 1, 2, 4 and 8 connections in flight. The rate counts
 * from the first POST until n8n finished an execution for every event, so a user can set these
 * figures beside n8n's published ones for its Webhook node. Sides: our trigger, n8n's bare Webhook
 * node and the Webhook node with Header Auth, on the same instance, in rotating order.
 */
import {
	chain,
	envelope,
	triggerNode,
	triggerUrl,
	type Session as BenchSession,
} from '../../test/harness';
import { ratios, type Row } from '../result';
import { webhookNode } from './events';
import { postEvents, type Load, type Target } from './post';

export const CONNECTIONS = [1, 2, 4, 8] as const;
const HEADER_AUTH = { name: 'x-bench-key', value: 'bench-key-value' };

/** A signed envelope of 1,024 bytes: the padding is inside `data`. */
export function kilobyteBody(seq: number): string {
	const bare = JSON.stringify(
		envelope('einvoice.generated', { id: `einv_kb_${seq}`, object: 'einvoice', pad: '' }),
	);
	return bare.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, 1024 - bare.length))}"`);
}

const noOp = (x: number) => ({
	id: `noop-${x}`,
	name: 'No Operation, do nothing',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

async function sides(
	session: BenchSession,
): Promise<Record<'ours' | 'bare' | 'headerAuth', Target>> {
	const { n8n } = session;
	const stamp = Date.now();
	const trigger = triggerNode({
		events: ['*'],
		webhookCredential: session.webhookCredential,
		webhookId: `sweep-${stamp}`,
	});
	const ours = await n8n.createWorkflow({
		name: 'bench sweep: GST trigger → No Operation',
		nodes: [trigger, noOp(220)],
		connections: chain(trigger.name as string, 'No Operation, do nothing'),
	});
	await n8n.activateWorkflow(ours.id);
	const headerCredential = await n8n.createCredential(
		'bench sweep header auth',
		'httpHeaderAuth',
		HEADER_AUTH,
	);
	const webhook = async (label: string, auth?: { id: string; name: string }): Promise<Target> => {
		const path = `sweep-${label}-${stamp}`;
		const node = webhookNode(`sweep-${label}`, path, auth);
		const wf = await n8n.createWorkflow({
			name: `bench sweep: ${label} webhook → No Operation`,
			nodes: [node, noOp(220)],
			connections: chain('Webhook', 'No Operation, do nothing'),
		});
		await n8n.activateWorkflow(wf.id);
		return { label, url: n8n.webhookUrl(path), workflowId: wf.id, done: 0 };
	};
	return {
		ours: {
			label: 'GST trigger',
			url: triggerUrl(n8n, trigger),
			workflowId: ours.id,
			done: 0,
			secret: session.signingSecret,
		},
		bare: await webhook('bare'),
		headerAuth: {
			...(await webhook('header-auth', headerCredential)),
			headers: { [HEADER_AUTH.name]: HEADER_AUTH.value },
		},
	};
}

/** Finished events per second for each side, at each number of connections, `runs` times. */
export async function sweepBench(
	session: BenchSession,
	runs: number,
	events: number,
): Promise<Row[]> {
	const targets = await sides(session);
	const names = ['ours', 'bare', 'headerAuth'] as const;
	const seq = { next: 0 };
	const rate = async (name: (typeof names)[number], load: Load, count: number) => {
		const { finishedMs } = await postEvents(session.n8n, targets[name], count, seq, load);
		return (count * 1000) / finishedMs;
	};
	// warm-up, not counted
	for (const name of names) await rate(name, { concurrency: 4, body: kilobyteBody }, 20);
	const rows: Row[] = [];
	for (const connections of CONNECTIONS) {
		const load: Load = { concurrency: connections, body: kilobyteBody };
		const rates = { ours: [] as number[], bare: [] as number[], headerAuth: [] as number[] };
		for (let run = 0; run < runs; run++)
			for (const name of names.map((_, i) => names[(i + run) % names.length]))
				rates[name].push(await rate(name, load, events));
		rows.push(
			{
				item: '6n',
				what: `n8n's benchmark shape (1 KB, one No Operation node after), ${connections} connection${connections === 1 ? '' : 's'}: events/s until every execution finished`,
				unit: 'events/s',
				ours: rates.ours,
				baseline: { label: 'bare Webhook node → No Operation', values: rates.bare },
				ratio: ratios(rates.ours, rates.bare),
				goal: '— (context)',
			},
			{
				item: '6n',
				what: `Same runs, ${connections} connection${connections === 1 ? '' : 's'}, against the Webhook node with Header Auth`,
				unit: 'events/s',
				ours: rates.ours,
				baseline: { label: 'Webhook node + Header Auth → No Operation', values: rates.headerAuth },
				ratio: ratios(rates.ours, rates.headerAuth),
				goal: '— (context)',
			},
		);
	}
	return rows;
}
