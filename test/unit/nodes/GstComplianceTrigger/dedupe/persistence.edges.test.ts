/** Test-URL deliveries never read what production persisted, also after a restart. */
import { dedupeRegistry } from '../../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { deliver, envelope, newWorkflow, NOW_MS, signed } from '../../../helpers/deliverToTrigger';

beforeEach(() => {
	jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
	dedupeRegistry.clear();
});
afterEach(() => jest.restoreAllMocks());

const event = (id: string) => signed(JSON.stringify(envelope({ id })));

it('a test-URL delivery after a restart starts an id production has already seen', async () => {
	const workflow = newWorkflow();
	expect((await deliver({ ...event('evt_seen'), workflow })).started).toHaveLength(1);
	expect(workflow.staticData).not.toEqual({});
	dedupeRegistry.clear(); // a restart: only the saved static data survives
	expect((await deliver({ ...event('evt_seen'), workflow, mode: 'manual' })).started).toHaveLength(
		1,
	);
	expect((await deliver({ ...event('evt_seen'), workflow })).started).toBeUndefined();
});
