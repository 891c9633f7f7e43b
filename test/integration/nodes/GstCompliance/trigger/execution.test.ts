/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The trigger's first step in its execution (trigger/execution.ts), run by n8n-core's ExecuteContext
 * (helpers/deliverToTrigger.ts): the item built and the event started once, the reason said when an
 * execution ends empty, items that are not the webhook's passed through, and a store that cannot
 * be reached failing the execution with what to do. Naming overdue events: overdue.test.ts.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { thisProcess } from '@/nodes/GstCompliance/trigger/dedupe/thisProcess';
import { DELIVERED_FIELD } from '@/nodes/GstCompliance/trigger/output';
import {
	deliver,
	envelope,
	firstStepWith,
	newWorkflow,
	movingClock,
} from '@/test/integration/helpers/deliverToTrigger';

const clock = movingClock();
const { fresh } = clock;

describe('starting the event', () => {
	it('execute() of the webhook’s item → the envelope alone (the carried field gone), paired with its input', async () => {
		const result = await deliver({ ...fresh('evt_1'), execution: 'later' });
		const run = await result.execution!();
		expect(run).toEqual({ items: [envelope({ id: 'evt_1' })], hints: [] });
		expect(run.items[0]).not.toHaveProperty(DELIVERED_FIELD);
	});

	it('two executions of one event (two acceptances of it) → the second ends without items and says why, in a hint and at info level', async () => {
		const infos: string[] = [];
		jest
			.spyOn(Container.get(Logger), 'info')
			.mockImplementation((message: unknown) => void infos.push(String(message)));
		const row = newWorkflow();
		const acceptedItem = (token: string) => ({
			[DELIVERED_FIELD]: {
				...envelope({ id: 'evt_twice' }),
				acceptance: { token, process: thisProcess.id, acceptedMs: clock.now },
			},
		});
		expect((await firstStepWith([acceptedItem('first')], row)).items).toHaveLength(1);
		const again = await firstStepWith([acceptedItem('second')], row);
		expect(again.items).toEqual([]);
		expect(again.hints).toEqual([expect.stringContaining('"evt_twice" was already started')]);
		expect(infos).toEqual([expect.stringContaining('"evt_twice" was already started')]);
	});
});

describe('items that are not the webhook’s', () => {
	it('execute() of an item without the carried event (an execution an earlier version queued) → passed through as it is', async () => {
		const old = envelope({ id: 'evt_old_version' });
		expect(await firstStepWith([old])).toEqual({ items: [old], hints: [] });
	});

	it('execute() of a carried field that is not an event (no id or type) → passed through', async () => {
		const item = { [DELIVERED_FIELD]: { id: 42, type: 'einvoice.generated' } };
		expect((await firstStepWith([item])).items).toEqual([item]);
	});
});
