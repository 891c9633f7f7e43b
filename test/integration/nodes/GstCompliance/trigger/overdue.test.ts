/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Naming events accepted and never started (trigger/overdue.ts), through the trigger as n8n runs
 * it (helpers/deliverToTrigger.ts): on the next started item and in the log, on any delivery the
 * trigger receives after the Start Deadline, at most every 10 s per trigger.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import {
	deliver,
	envelope,
	newWorkflow,
	movingClock,
	signed,
} from '@/test/integration/helpers/deliverToTrigger';

const MINUTE = 60_000;
const clock = movingClock();
const { fresh } = clock;

describe('naming events accepted and never started', () => {
	it('version 3: the notice is an execution hint beside the output, never a field of the item', async () => {
		const workflow = newWorkflow('wf-overdue-hint');
		await deliver({ ...fresh('evt_lost'), workflow, execution: 'later', typeVersion: 3 });
		clock.now += 30 * MINUTE;
		const next = await deliver({ ...fresh('evt_a'), workflow, typeVersion: 3, execution: 'later' });
		const run = await next.execution!();
		expect(run.items).toHaveLength(1);
		expect(run.items[0]).not.toHaveProperty('dedupeNotice');
		expect(run.hints).toEqual([expect.stringContaining('"evt_lost" was accepted')]);
	});

	it('the next started item after the Start Deadline names the lost event once; a look is made at most every 10 s', async () => {
		const warnings: string[] = [];
		jest
			.spyOn(Container.get(Logger), 'warn')
			.mockImplementation((message: unknown) => void warnings.push(String(message)));
		const workflow = newWorkflow('wf-overdue-look');
		await deliver({ ...fresh('evt_lost'), workflow, execution: 'later' });
		clock.now += 30 * MINUTE;
		const first = await deliver({ ...fresh('evt_a'), workflow });
		expect(first.started?.[0].dedupeNotice).toContain('"evt_lost" was accepted');
		await deliver({ ...fresh('evt_lost_2'), workflow, execution: 'later' });
		// A look 2 s before evt_lost_2's deadline: nothing to name yet.
		clock.now += 30 * MINUTE - 2_000;
		expect((await deliver({ ...fresh('evt_b'), workflow })).started?.[0]).not.toHaveProperty(
			'dedupeNotice',
		);
		// Overdue 3 s later, but within 10 s of that look: not looked for again yet.
		clock.now += 5_000;
		expect((await deliver({ ...fresh('evt_c'), workflow })).started?.[0]).not.toHaveProperty(
			'dedupeNotice',
		);
		clock.now += 5_000;
		const later = await deliver({ ...fresh('evt_d'), workflow });
		expect(later.started?.[0].dedupeNotice).toContain('"evt_lost_2" was accepted');
		expect(warnings.filter((w) => w.includes('was accepted at'))).toHaveLength(2);
	});

	it.each([
		['a copy of an event already started', { id: 'evt_done' }],
		['an event type the trigger does not select', { id: 'evt_other', type: 'ewaybill.expired' }],
	])(
		'%s, after the Start Deadline → starts nothing, so the built-in store leaves the lost event to the next delivery that starts an execution, whose item names it',
		async (_, delivered) => {
			const warnings: string[] = [];
			jest
				.spyOn(Container.get(Logger), 'warn')
				.mockImplementation((message: unknown) => void warnings.push(String(message)));
			const workflow = newWorkflow('wf-overdue-any');
			const events = ['einvoice.generated'];
			await deliver({ ...fresh('evt_done'), workflow, events });
			await deliver({ ...fresh('evt_lost'), workflow, events, execution: 'later' });
			clock.now += 30 * MINUTE;
			const body = JSON.stringify(envelope(delivered));
			const result = await deliver({
				...signed(body, Math.floor(clock.now / 1000)),
				workflow,
				events,
			});
			expect(result.started).toBeUndefined();
			expect(warnings.filter((w) => w.includes('"evt_lost" was accepted at'))).toHaveLength(0);
			const next = await deliver({ ...fresh('evt_next'), workflow, events });
			expect(next.started?.[0].dedupeNotice).toContain('"evt_lost" was accepted at');
			expect(warnings.filter((w) => w.includes('"evt_lost" was accepted at'))).toHaveLength(1);
		},
	);
});
