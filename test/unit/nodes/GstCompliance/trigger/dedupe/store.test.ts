import { dedupeRegistry } from '../../../../../../nodes/GstCompliance/trigger/dedupe/memory/registry';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../../nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { redisClients } from '../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { releaseTrigger } from '../../../../../../nodes/GstCompliance/trigger/dedupe/store';

const SHIPPED: DedupeOptions = { windowMs: 24 * 3_600_000 + 300_000, capacity: 125_000 };
const create = () => new MemoryDedupeStore(SHIPPED);

describe('letting go of a trigger n8n deactivated', () => {
	it('releaseTrigger(workflow, node) → its Redis client released; the built-in stores kept (a publish deactivates and activates)', () => {
		dedupeRegistry.clear();
		dedupeRegistry.get({ workflowId: 'wf', nodeId: 'a' }, SHIPPED, create);
		dedupeRegistry.get({ workflowId: 'wf', nodeId: 'b' }, SHIPPED, create);
		const release = jest.spyOn(redisClients, 'release');
		releaseTrigger({ workflowId: 'wf', nodeId: 'a' });
		expect(dedupeRegistry.size).toBe(2);
		expect(release).toHaveBeenCalledWith('wf:a');
		release.mockRestore();
		dedupeRegistry.clear();
	});
});
