/** The trigger's description, credentials and activation hooks as n8n reads them. */
import { EVENT_TYPES } from '../../../../nodes/GstComplianceTrigger/events';
import { GstComplianceTrigger } from '../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import { hookContext } from '../../helpers/deliverToTrigger';

describe('node and credential description', () => {
	const node = new GstComplianceTrigger();

	it('is a POST webhook trigger that answers on receipt', () => {
		expect(node.description.name).toBe('gstComplianceTrigger');
		expect(node.description.inputs).toEqual([]);
		expect(node.description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		]);
	});

	it('offers the seven event types plus All Events', () => {
		const events = node.description.properties.find((p) => p.name === 'events');
		expect(events?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
			'*',
			...EVENT_TYPES.map((e) => e.value),
		]);
	});

	it('tests its webhook credential locally, shows the API credential only for refetch, and takes an optional Redis', () => {
		expect(node.description.credentials).toEqual([
			{
				name: 'gstComplianceWebhookApi',
				required: true,
				testedBy: 'gstComplianceWebhookSecretCheck',
			},
			{
				name: 'gstComplianceApi',
				required: false,
				displayOptions: { show: { refetch: [true] } },
				testedBy: 'testGstComplianceCredentials',
			},
			{
				name: 'gstComplianceRedisApi',
				required: false,
				testedBy: 'gstComplianceRedisCheck',
			},
		]);
	});

	it('registers nothing remotely: the lifecycle hooks are local no-ops', async () => {
		const hooks = node.webhookMethods.default;
		const context = hookContext('activate');
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});
});
