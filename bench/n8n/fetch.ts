/**
 * Item 5: 1,000 e-invoice GETs in one execution, through our node and through n8n's HTTP Request
 * node with our credential (predefined credential type), both at their defaults, alternating.
 * The figure is the node's own `executionTime` from n8n's run data; the whole execution's time
 * is kept alongside.
 */
import {
	actionNode,
	CRED,
	batchWorkflow,
	runBatch,
	type Session as BenchSession,
	type BatchWorkflow,
	type N8n,
} from '../../test/harness';
import { MAX_CONCURRENCY } from '../../nodes/GstCompliance/actions/getResources';
import { ratios, type Row } from '../result';

const GETS = 1_000;

type SideName = 'ours' | 'ours20' | 'http';

async function createSides(session: BenchSession): Promise<Record<SideName, BatchWorkflow>> {
	const action = (concurrency?: number) =>
		actionNode({
			name: 'GST Compliance',
			resource: 'einvoice',
			id: '={{ $json.id }}',
			apiCredential: session.apiCredential,
			options: concurrency ? { concurrency } : {},
		});
	const http = {
		id: 'bench-http',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'GET',
			url: `=${session.emulator.sandboxUrl}/v1/einvoices/{{ $json.id }}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CRED.api,
			options: {},
		},
		credentials: { [CRED.api]: session.apiCredential },
	};
	return {
		ours: await batchWorkflow(session.n8n, 'bench: GST node', action()),
		ours20: await batchWorkflow(session.n8n, 'bench: GST node at 20', action(MAX_CONCURRENCY)),
		http: await batchWorkflow(session.n8n, 'bench: HTTP Request', http),
	};
}

interface Timing {
	nodeMs: number;
	executionMs: number;
}

/** One execution of a side; checks that every id came back as its e-invoice. */
async function runSide(n8n: N8n, side: BatchWorkflow, ids: string[]): Promise<Timing> {
	const { execution, items, nodeMs } = await runBatch(n8n, side, ids);
	if (execution.status !== 'success')
		throw new Error(`${side.label}: execution ${execution.id} ended ${execution.status}`);
	const wrong = items.filter((item, index) => item.id !== ids[index] || item.object !== 'einvoice');
	if (items.length !== ids.length || wrong.length > 0) {
		throw new Error(
			`${side.label}: ${items.length} items, ${wrong.length} not the e-invoice asked for`,
		);
	}
	return {
		nodeMs,
		executionMs: Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt),
	};
}

export async function fetchBench(session: BenchSession, runs: number): Promise<Row[]> {
	const { control } = session.emulator;
	const { organizationId } = session.client;
	const ids = Array.from(
		{ length: GETS },
		() => control.createEinvoice({ organizationId, environment: 'sandbox' }).id,
	);
	const sides = await createSides(session);
	const names: SideName[] = ['ours', 'http', 'ours20'];
	// Warm-up: first token mint, module loading, JIT; not counted.
	for (const name of names) await runSide(session.n8n, sides[name], ids.slice(0, 50));
	const timings: Record<SideName, Timing[]> = { ours: [], ours20: [], http: [] };
	for (let run = 0; run < runs; run++) {
		// Rotate which side goes first, so none always meets a warmer or cooler machine.
		const order = names.map((_, i) => names[(i + run) % names.length]);
		for (const name of order) timings[name].push(await runSide(session.n8n, sides[name], ids));
	}
	const pick = (name: SideName, key: keyof Timing) => timings[name].map((timing) => timing[key]);
	const [oursNode, httpNode, oursExec, httpExec, ours20Node] = [
		pick('ours', 'nodeMs'),
		pick('http', 'nodeMs'),
		pick('ours', 'executionMs'),
		pick('http', 'executionMs'),
		pick('ours20', 'nodeMs'),
	];
	return [
		{
			item: '5',
			what: `${GETS} e-invoice GETs in one execution: time in the node (n8n run data)`,
			unit: 'ms',
			ours: oursNode,
			baseline: { label: 'HTTP Request node with our credential', values: httpNode },
			ratio: ratios(httpNode, oursNode),
			goal: 'ours ≥ 1.5× faster',
			met: (ratio) => ratio.median >= 1.5,
			note: 'Ratio = HTTP Request time / our time (above 1: ours is faster). Both at their defaults: our node runs 5 requests at a time, the HTTP Request node starts all 1,000 at once.',
		},
		{
			item: '5',
			what: 'Same runs: whole execution (webhook → split → node)',
			unit: 'ms',
			ours: oursExec,
			baseline: { label: 'HTTP Request node with our credential', values: httpExec },
			ratio: ratios(httpExec, oursExec),
			goal: 'ours ≥ 1.5× faster',
			met: (ratio) => ratio.median >= 1.5,
		},
		{
			item: '5',
			what: `Same runs, our node with Concurrency ${MAX_CONCURRENCY} (its maximum): time in the node`,
			unit: 'ms',
			ours: ours20Node,
			baseline: { label: 'HTTP Request node with our credential', values: httpNode },
			ratio: ratios(httpNode, ours20Node),
			goal: '— (context)',
		},
	];
}
