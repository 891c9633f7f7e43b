/**
 * Dedupe persistence: one store per workflow node (the registry), and the state reaching n8n's
 * database after every accepted event. n8n 2.41 (live webhooks)
 * loads the workflow with its static data, runs webhook(), creates the execution from a second
 * Workflow over the *same* static-data object (which resets the "changed" flag), reads
 * `webhookResponse`, and only then saves static data if the flag is set. `deliver()` replays that
 * sequence with n8n-workflow's real Workflow (its ObservableObject static data) and n8n-core's
 * WebhookContext, so this fails if the write is lost.
 */
import { GstComplianceTrigger } from '../../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	signed,
	TRIGGER_NAME,
} from '../../../helpers/deliverToTrigger';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';
import {
	acceptedResponse,
	DedupeRegistry,
	dedupeRegistry,
} from '../../../../../nodes/GstComplianceTrigger/dedupe/persistence';

const node = new GstComplianceTrigger();
const NODE_KEY = `node:${TRIGGER_NAME}`;
const HOUR = 3_600_000;
const DAY_OPTIONS: DedupeOptions = { windowMs: 24 * HOUR + 300_000, capacity: 125_000 };

describe('DedupeRegistry', () => {
	it('creates a store once per key and reconfigures it on each use', () => {
		const registry = new DedupeRegistry();
		const create = jest.fn(() => new MemoryDedupeStore(DAY_OPTIONS));
		const a = registry.get('wf:node:production', DAY_OPTIONS, create);
		const b = registry.get('wf:node:production', { windowMs: HOUR, capacity: 5 }, create);
		expect(a).toBe(b);
		expect(create).toHaveBeenCalledTimes(1);
		expect(registry.get('wf:node:test', DAY_OPTIONS, create)).not.toBe(a);
		registry.clear();
		expect(registry.get('wf:node:production', DAY_OPTIONS, create)).not.toBe(a);
	});
});

describe('acceptedResponse', () => {
	it('starts the workflow with the item, and persists when n8n reads the answer', () => {
		const persist = jest.fn();
		const item = { id: 'evt_1', type: 'einvoice.generated' };
		const response = acceptedResponse(item, persist);
		expect(response.workflowData).toEqual([[{ json: item }]]);
		expect(persist).not.toHaveBeenCalled();
		expect(response.webhookResponse).toEqual({ received: true });
		expect(persist).toHaveBeenCalledTimes(1);
	});
});

describe('dedupe state and n8n 2.41 static-data saving', () => {
	beforeAll(() => jest.spyOn(Date, 'now').mockReturnValue(NOW_MS));
	afterAll(() => jest.restoreAllMocks());

	it('lets n8n read webhookResponse (with responseData undefined it answers "firstEntryJson" and never reads it)', () => {
		expect(node.description.webhooks?.[0]).toMatchObject({
			responseMode: 'onReceived',
			responseData: '',
		});
	});

	it('every accepted event id reaches the database, not only the first', async () => {
		const row = newWorkflow('wf-static-data');
		for (const id of ['evt_static_1', 'evt_static_2', 'evt_static_3']) {
			const result = await deliver({ ...signed(JSON.stringify(envelope({ id }))), workflow: row });
			expect(result).toMatchObject({ status: 200, body: { received: true } });
			expect(result.started).toHaveLength(1);
		}
		const saved = row.staticData as Record<string, { dedupe?: { d: string } }>;
		// 14 characters per record: one per event
		expect(saved[NODE_KEY]?.dedupe?.d.length).toBe(3 * 14);
	});

	it('an id saved before a restart is a duplicate after it (only the database survives)', async () => {
		const row = newWorkflow('wf-restart');
		const body = JSON.stringify(envelope({ id: 'evt_before_restart' }));
		expect((await deliver({ ...signed(body), workflow: row })).started).toHaveLength(1);
		dedupeRegistry.clear();
		const again = await deliver({ ...signed(body), workflow: row });
		expect(again.started).toBeUndefined();
		expect(again.body).toEqual({ received: true, duplicate: true });
	});
});
