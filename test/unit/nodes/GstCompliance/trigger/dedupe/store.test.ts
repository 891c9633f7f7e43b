import { dedupeRegistry } from '../../../../../../nodes/GstCompliance/trigger/dedupe/memory/registry';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '../../../../../../nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { redisClients } from '../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { releaseTrigger } from '../../../../../../nodes/GstCompliance/trigger/dedupe/store';

const SHIPPED: DedupeOptions = { windowMs: 24 * 3_600_000 + 300_000, capacity: 125_000 };
const create = () => new MemoryDedupeStore(SHIPPED);

describe('forgetting a trigger n8n deactivated', () => {
	it('releaseTrigger(workflow, node) → that trigger’s built-in stores dropped and its Redis client released', () => {
		dedupeRegistry.clear();
		dedupeRegistry.get('wf:a:production', SHIPPED, create);
		dedupeRegistry.get('wf:a:test', SHIPPED, create);
		dedupeRegistry.get('wf:b:production', SHIPPED, create);
		const release = jest.spyOn(redisClients, 'release');
		releaseTrigger('wf', 'a');
		expect(dedupeRegistry.size).toBe(1);
		expect(release).toHaveBeenCalledWith('wf:a');
		release.mockRestore();
		dedupeRegistry.clear();
	});
});
