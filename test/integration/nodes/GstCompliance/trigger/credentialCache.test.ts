/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The signing-secret cache (credentialCache.ts) as deliveries meet it: a saved credential read once
 * per 5 s, a Test-URL delivery's read afresh.
 */
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	signed,
} from '@/test/integration/helpers/deliverToTrigger';

describe('the signing-secret cache', () => {
	let now = NOW_MS;
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	it('reads a saved credential once per 5 s, whatever the number of deliveries', async () => {
		const reads: Record<string, number> = {};
		const workflow = newWorkflow('wf-cache');
		for (let i = 0; i < 10; i++) {
			const request = signed(JSON.stringify(envelope({ id: `evt_c${i}` })), Math.floor(now / 1000));
			const result = await deliver({ ...request, workflow, reads, credentialSet: 'shared' });
			expect(result.status).toBe(202);
		}
		expect(reads.gstComplianceWebhookApi).toBe(1);
		now += 5_001;
		const later = signed(JSON.stringify(envelope({ id: 'evt_c_late' })), Math.floor(now / 1000));
		await deliver({ ...later, workflow, reads, credentialSet: 'shared' });
		expect(reads.gstComplianceWebhookApi).toBe(2);
	});

	it('a clock stepped back reads the credential again, not only once the step is made up', async () => {
		const reads: Record<string, number> = {};
		const workflow = newWorkflow('wf-step');
		const at = async (id: string) =>
			await deliver({
				...signed(JSON.stringify(envelope({ id })), Math.floor(now / 1000)),
				workflow,
				reads,
				credentialSet: 'shared',
			});
		await at('evt_s1');
		now -= 3_600_000;
		await at('evt_s2');
		expect(reads.gstComplianceWebhookApi).toBe(2);
		await at('evt_s3');
		expect(reads.gstComplianceWebhookApi).toBe(2);
	});

	it('test-URL deliveries always read the credential afresh', async () => {
		const reads: Record<string, number> = {};
		for (let i = 0; i < 3; i++)
			await deliver({
				...signed(JSON.stringify(envelope({ id: `evt_t${i}` }))),
				mode: 'manual',
				reads,
				credentialSet: 'shared',
			});
		expect(reads.gstComplianceWebhookApi).toBe(3);
	});
});
