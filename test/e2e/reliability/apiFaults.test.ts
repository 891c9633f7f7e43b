/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * A 1,000-item run of our action node in n8n ("continue on fail") through a 429 storm, a 5xx storm
 * and dropped connections injected while it runs. Every item comes out, in order: the e-invoice
 * asked for, or an error that says what happened. None is silently missing.
 */
import type { ApiFault } from '@/test/emulator';
import {
	actionNode,
	waitFor,
	startSession,
	batchWorkflow,
	runBatch,
	type Session,
} from '@/test/harness';
import { findLeaks } from './lib/leaks';

jest.setTimeout(300_000);

const ITEMS = 1_000;
const MISSING_EVERY = 50; // every 50th id does not exist: a deterministic, clear per-item error

let session: Session;

beforeAll(async () => {
	session = await startSession();
});

afterAll(async () => {
	await session?.stop();
});

const storm = (count: number, fault: ApiFault): ApiFault[] => Array(count).fill(fault);

it('every item succeeds or carries a clear error through 429 and 5xx storms', async () => {
	const { n8n, emulator, client } = session;
	const { control } = emulator;
	const ids = Array.from({ length: ITEMS }, (_, i) =>
		i % MISSING_EVERY === MISSING_EVERY - 1
			? `einv_missing_${i}`
			: control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' })
					.id,
	);
	const node = {
		...actionNode({
			resource: 'einvoice',
			id: '={{ $json.id }}',
			apiCredential: session.apiCredential,
		}),
		onError: 'continueRegularOutput',
	};
	const workflow = await batchWorkflow(n8n, 'reliability: API faults', node);

	control.resetCounters();
	const running = runBatch(n8n, workflow, ids);
	// Storms while the run is under way, not before it: after ~100 and ~400 API calls.
	const after = async (calls: number) =>
		await waitFor(
			async () => control.counters().apiRequestsTotal >= calls,
			`${calls} API calls`,
			120_000,
			20,
		);
	await after(100);
	control.injectApiFaults([
		...storm(60, { kind: 'status', status: 429, retryAfterSeconds: 1 }),
		...storm(5, { kind: 'reset' }),
	]);
	await after(400);
	control.injectApiFaults([
		...storm(40, { kind: 'status', status: 503 }),
		...storm(20, { kind: 'status', status: 500 }),
	]);
	const run = await running;

	expect(run.execution.status).toBe('success');
	expect(run.items).toHaveLength(ITEMS);
	const unclear: string[] = [];
	const errors: Record<string, number> = {};
	run.items.forEach((item, index) => {
		if (item?.error) {
			// On Error → Continue: the message as text, its code beside it.
			const [message, code] = [item.error as string, item.code as string];
			errors[code] = (errors[code] ?? 0) + 1;
			if (!/not found|rate-limiting|HTTP 5\d\d|Could not reach/i.test(message))
				unclear.push(`item ${index}: ${code} ${message}`);
		} else if (ids[index].startsWith('einv_missing_')) {
			unclear.push(`item ${index}: a missing id came out without an error`);
		} else if (item?.id !== ids[index] || item?.object !== 'einvoice') {
			unclear.push(`item ${index}: neither the e-invoice ${ids[index]} nor an error`);
		}
	});
	expect(unclear).toEqual([]);
	// A planted missing id may also meet a storm first and fail with that error instead.
	expect(errors.NOT_FOUND).toBeGreaterThan(ITEMS / MISSING_EVERY / 2);
	expect(errors.NOT_FOUND).toBeLessThanOrEqual(ITEMS / MISSING_EVERY);
	// The storms were met: retries happened (more calls than items) and were bounded.
	const calls = control.counters().apiRequestsTotal;
	expect(calls).toBeGreaterThan(ITEMS + 50);
	expect(calls).toBeLessThan(ITEMS * 2);

	expect(
		findLeaks(
			{
				execution: JSON.stringify(run.execution),
				response: run.responseText,
				'n8n log': n8n.logs(),
			},
			{ 'client secret': client.clientSecret, 'signing secret': session.signingSecret },
		),
	).toEqual([]);
});
