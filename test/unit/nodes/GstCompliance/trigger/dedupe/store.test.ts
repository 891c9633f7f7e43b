/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import {
	MemoryDedupeStore,
	type DedupeOptions,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/memoryStore';
import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import type { INode } from 'n8n-workflow';

import { RedisCredentialMissingError } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';
import { releaseTrigger, usesRedis } from '@/nodes/GstCompliance/trigger/dedupe/store';

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

describe('which store a trigger uses', () => {
	const node = (dedupeStore?: string, attached = false) =>
		({
			parameters: dedupeStore ? { dedupeStore } : {},
			credentials: attached ? { gstComplianceRedisApi: { id: 'r1', name: 'Redis' } } : undefined,
		}) as unknown as INode;

	it('version 3: Dedupe Store → Redis or Built-In, whatever credential is left attached', () => {
		expect(usesRedis(node('redis', true))).toBe(true);
		expect(usesRedis(node('builtIn', true))).toBe(false);
		expect(usesRedis(node('builtIn'))).toBe(false);
	});

	it('version 3: Redis chosen with no credential → RedisCredentialMissingError', () => {
		expect(() => usesRedis(node('redis'))).toThrow(RedisCredentialMissingError);
	});

	it('versions 1 and 2 (no Dedupe Store): the attached credential decides', () => {
		expect(usesRedis(node(undefined, true))).toBe(true);
		expect(usesRedis(node())).toBe(false);
	});
});
