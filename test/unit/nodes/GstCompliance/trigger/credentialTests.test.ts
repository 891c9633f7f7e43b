/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * Each credential's Test, as both nodes offer it: the same function under the name the node gives
 * as `testedBy`, whichever node n8n finds first.
 */
import type { ICredentialsDecrypted, ICredentialTestFunctions } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';
import { testGstComplianceCredentials } from '@/nodes/GstCompliance/credential/connectionCheck';
import * as credentialTests from '@/nodes/GstCompliance/trigger/credentialTests';

const call = async (test: typeof credentialTests.gstComplianceWebhookSecretCheck, data: object) =>
	await test.call(
		{} as ICredentialTestFunctions,
		{
			id: '1',
			name: 'credential',
			type: 'any',
			data,
		} as ICredentialsDecrypted,
	);

describe('each node offers the Test its credentials name, the one function', () => {
	// The trigger's versions share their slots' Tests (the integration test checks each version).
	const nodes = { action: new GstCompliance(), trigger: new GstComplianceTrigger().getNodeType() };
	const slots = Object.entries(nodes).flatMap(([node, type]) =>
		(type.description.credentials ?? []).map((slot) => [node, slot.name, slot.testedBy] as const),
	);

	it('every credential slot of both nodes names a Test', () => {
		expect(slots.map(([node, name]) => `${node} ${name}`).sort()).toEqual([
			'action gstComplianceApi',
			'action gstComplianceWebhookApi',
			'trigger gstComplianceApi',
			'trigger gstComplianceRedisApi',
			'trigger gstComplianceWebhookApi',
		]);
	});

	it.each(slots)('the %s node, credential %s → %s, the shared Test', (node, _name, testedBy) => {
		expect(typeof testedBy).toBe('string');
		const offered = (
			nodes[node as keyof typeof nodes].methods!.credentialTest as Record<string, unknown>
		)[testedBy as string];
		const shared: Record<string, unknown> = { ...credentialTests, testGstComplianceCredentials };
		expect(offered).toBe(shared[testedBy as string]);
		expect(offered).toBeDefined();
	});
});

describe('gstComplianceWebhookSecretCheck: the webhook’s own rules for a secret', () => {
	it('a secret the webhook verifies with → OK', async () => {
		await expect(
			call(credentialTests.gstComplianceWebhookSecretCheck, {
				signingSecret: 'whsec_0123456789abcdef0123',
			}),
		).resolves.toMatchObject({ status: 'OK' });
	});

	it('a secret shorter than 16 characters → Error naming the field', async () => {
		await expect(
			call(credentialTests.gstComplianceWebhookSecretCheck, { signingSecret: 'short' }),
		).resolves.toMatchObject({ status: 'Error', message: expect.stringMatching(/Signing Secret/) });
	});
});

describe('gstComplianceRedisCheck: what the trigger runs on Redis', () => {
	it('a Redis Cluster with no Cluster Nodes → Error naming the field, no connection tried', async () => {
		const answer = await call(credentialTests.gstComplianceRedisCheck, {
			deployment: 'cluster',
			clusterNodes: '',
		});
		expect(answer.status).toBe('Error');
		expect(answer.message).toMatch(/Cluster Nodes/);
	});
});
