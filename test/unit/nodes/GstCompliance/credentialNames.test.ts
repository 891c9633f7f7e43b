/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** One set of credential type names: the runtime's constants, the classes and the nodes agree. */
import { GstComplianceApi } from '@/credentials/GstComplianceApi.credentials';
import { GstComplianceRedisApi } from '@/credentials/GstComplianceRedisApi.credentials';
import { GstComplianceWebhookApi } from '@/credentials/GstComplianceWebhookApi.credentials';
import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';
import { CREDENTIAL } from '@/nodes/GstCompliance/credentialNames';

describe('credential type names', () => {
	it('the classes and both nodes declare the names the runtime reads (nodes/GstCompliance/credentialNames.ts)', () => {
		expect(new GstComplianceApi().name).toBe(CREDENTIAL.api);
		expect(new GstComplianceWebhookApi().name).toBe(CREDENTIAL.webhook);
		expect(new GstComplianceRedisApi().name).toBe(CREDENTIAL.redis);
		expect(new GstCompliance().description.credentials?.map((c) => c.name)).toEqual([
			CREDENTIAL.api,
			CREDENTIAL.webhook,
		]);
		for (const version of [1, 2, 3])
			expect(
				new GstComplianceTrigger().getNodeType(version).description.credentials?.map((c) => c.name),
			).toEqual([CREDENTIAL.webhook, CREDENTIAL.api, CREDENTIAL.redis]);
	});
});
