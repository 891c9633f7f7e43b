/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- the spec prints how many deliveries were retried after a 409; imports the package through the @/ alias */
/**
 * 1,000 signed deliveries to our trigger in a real n8n: 30 % duplicates, shuffled order, and
 * bursts of 20 concurrent deliveries of one id. Every unique id must start exactly one execution.
 */
import {
	executionCount,
	waitForFinished,
	runBounded,
	startSession,
	activeTrigger,
	type Session,
	type TriggerWorkflow,
} from '@/test/harness';
import { sleep } from '@/test/harness/http';
import {
	CONCURRENCY,
	deliverSigned,
	deliveryPlan,
	DELIVERIES,
	einvoiceEvent,
	outcome,
	UNIQUE,
	type Envelope,
} from './lib/deliveries';

// Bounded waits, generous for a loaded CI machine; ~2 minutes when n8n has the machine to itself.
jest.setTimeout(900_000);

let session: Session;
let trigger: TriggerWorkflow;

beforeAll(async () => {
	session = await startSession();
	trigger = await activeTrigger(session, 'reliability: deliveries');
});

afterAll(async () => {
	await session?.stop();
});

it('starts exactly one execution per unique event id', async () => {
	const events = Array.from({ length: UNIQUE }, (_, i) => einvoiceEvent(i));
	const steps = deliveryPlan(events);
	expect(steps.flat()).toHaveLength(DELIVERIES);

	const outcomes = new Map<string, string[]>();
	const record = (event: Envelope, result: string) =>
		outcomes.set(event.id, [...(outcomes.get(event.id) ?? []), result]);
	let inProgress = 0;
	// As the service does: a 409 (another delivery of the id is being started) is sent again later.
	const send = async (event: Envelope) => {
		for (let attempt = 0; attempt < 40; attempt++) {
			const result = outcome(await deliverSigned(trigger.url, event, session.signingSecret));
			if (result !== 'HTTP 409') {
				record(event, result);
				return;
			}
			inProgress++;
			await sleep(250);
		}
		record(event, 'HTTP 409');
	};
	const load = await runBounded(
		steps.length,
		CONCURRENCY,
		async (index) => {
			const step = steps[index];
			await (Array.isArray(step) ? Promise.all(step.map(send)) : send(step));
		},
		480_000,
	);
	expect(
		load.results.filter((result) => result.error).map((result) => result.error?.message),
	).toEqual([]);
	expect(load.notStarted).toBe(0);

	// Each id: answered once as accepted, every other delivery as a duplicate (some after a 409 while
	// the first was being started); nothing refused.
	console.log(`${inProgress} deliveries answered 409 first, then retried`);
	const perId = [...outcomes.values()];
	expect(perId).toHaveLength(UNIQUE);
	expect(perId.filter((results) => results.filter((r) => r === 'accepted').length !== 1)).toEqual(
		[],
	);
	expect([...new Set(perId.flat())].sort()).toEqual(['accepted', 'duplicate']);

	// n8n agrees: the executions, once settled, are exactly the unique ids, all successful.
	const total = await waitForFinished(session.n8n, trigger.workflowId, UNIQUE, 360_000, 3_000);
	expect(total).toBe(UNIQUE);
	expect(await executionCount(session.n8n, trigger.workflowId, ['success'])).toBe(UNIQUE);
});
