/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Every name the trigger keeps state under, built and read back in one place. */
import { createHash } from 'crypto';

import {
	credentialKey,
	ledgerScope,
	LEGACY_SNAPSHOT_KEY,
	processesKey,
	readStaticDataKey,
	redisAcceptedKey,
	redisEventKey,
	REDIS_PREFIX,
	probeScope,
	replicaMarkerKey,
	snapshotKey,
	triggerKey,
	triggerId,
	triggerRunKey,
} from '@/nodes/GstCompliance/trigger/dedupe/keys';

const TRIGGER = { workflowId: 'wf1', nodeId: 'node-1' };
const S = ledgerScope({ workflowId: 'w', nodeId: 'n' });

describe('names in the process: one per trigger, workflow and node apart', () => {
	it('triggerKey → workflow and node; triggerRunKey adds what is said or done', () => {
		expect(triggerKey(TRIGGER)).toBe('wf1:node-1');
		expect(triggerRunKey(TRIGGER, 'redis:timeout')).toBe('wf1:node-1:redis:timeout');
		expect(triggerKey({ workflowId: 'wf1', nodeId: 'node-2' })).not.toBe(triggerKey(TRIGGER));
	});

	it('credentialKey → the credential type and its saved id, apart for each', () => {
		expect(credentialKey('gstComplianceRedisApi', 'c1')).toBe('gstComplianceRedisApi:c1');
		expect(credentialKey('gstComplianceWebhookApi', 'c1')).not.toBe(
			credentialKey('gstComplianceRedisApi', 'c1'),
		);
	});

	it('triggerId → the workflow and node ids; `unsaved` before the workflow has an id', () => {
		expect(triggerId('wf1', 'node-1')).toEqual(TRIGGER);
		expect(triggerId(undefined, 'node-1')).toEqual({ workflowId: 'unsaved', nodeId: 'node-1' });
	});

	it('ledgerScope → the trigger, with nothing after it: Test-URL deliveries keep no ids', () => {
		expect(ledgerScope(TRIGGER)).toBe('wf1:node-1');
	});

	it("probeScope → the credential test's own ledger, apart from every trigger's", () => {
		expect(probeScope('p1')).toBe('credential-test:probe:p1');
		expect(probeScope('wf1')).not.toBe(
			ledgerScope({ workflowId: 'credential-test', nodeId: 'wf1' }),
		);
		expect(probeScope('wf1')).not.toBe(
			ledgerScope({ workflowId: 'credential-test', nodeId: 'probe' }),
		);
	});
});

describe('static data: written by the node id, read back to the same node', () => {
	it('snapshotKey and processesKey → under dedupe:<node id>, as every release wrote them', () => {
		expect(snapshotKey('node-1')).toBe('dedupe:node-1');
		expect(processesKey('node-1')).toBe('dedupe:node-1:processes');
		expect(LEGACY_SNAPSHOT_KEY).toBe('dedupe');
	});

	it('readStaticDataKey → the node and what the key holds, for every key the builders make', () => {
		for (const nodeId of ['node-1', 'a:b', '7f0c-uuid'])
			expect([
				readStaticDataKey(snapshotKey(nodeId)),
				readStaticDataKey(processesKey(nodeId)),
			]).toEqual([
				{ nodeId, holds: 'snapshot' },
				{ nodeId, holds: 'processes' },
			]);
	});

	it('readStaticDataKey → undefined for a key of another shape (a Code node’s own, the legacy name)', () => {
		for (const key of ['orders', 'dedupe', 'dedupe:', 'my-dedupe:n1', 'lastRun'])
			expect(readStaticDataKey(key)).toBeUndefined();
	});
});

describe('Redis: fixed-size keys under one prefix', () => {
	const digest = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 22);

	it('redisEventKey → the prefix, the scope and 132 bits of the id’s SHA-256 (earlier keys still match)', () => {
		expect(redisEventKey(S, 'evt_1')).toBe(`n8n-gst-compliance:dedupe:v1:w:n:${digest('evt_1')}`);
		expect(redisEventKey(S, 'x'.repeat(5_000))).toHaveLength(redisEventKey(S, 'e').length);
	});

	it('redisEventKey → distinct ids distinct keys, lone surrogates included', () => {
		const ids = ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd', 'evt_\ud800\udc00'];
		expect(new Set(ids.map((id) => redisEventKey(S, id))).size).toBe(4);
	});

	it('the accepted set and the replica barrier → under the same prefix, apart from every event key', () => {
		expect(redisAcceptedKey(S)).toBe(`${REDIS_PREFIX}:w:n:accepted`);
		expect(replicaMarkerKey()).toBe(`${REDIS_PREFIX}:replica-barrier`);
		expect(replicaMarkerKey(7)).toBe(`${REDIS_PREFIX}:replica-barrier:{7}`);
		expect(redisEventKey(S, 'accepted')).not.toBe(redisAcceptedKey(S));
	});
});
