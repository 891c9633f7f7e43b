/** The webhook credential's fields. */
import { GstComplianceWebhookApi } from '../../../credentials/GstComplianceWebhookApi.credentials';

describe('GST Compliance Webhook credential', () => {
	it('keeps the signing secrets in password fields', () => {
		const credential = new GstComplianceWebhookApi();
		expect(credential.name).toBe('gstComplianceWebhookApi');
		expect(credential.properties.map((p) => [p.name, p.typeOptions?.password])).toEqual([
			['signingSecret', true],
			['previousSigningSecret', true],
		]);
	});
});
