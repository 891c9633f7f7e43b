/** The webhook credential's fields as the editor shows them. */
import { GstComplianceWebhookApi } from '../../../credentials/GstComplianceWebhookApi.credentials';

describe('GST Compliance Webhook credential', () => {
	it('masks every secret field, current and previous', () => {
		const secrets = new GstComplianceWebhookApi().properties.filter((p) => /secret/i.test(p.name));
		expect(secrets.length).toBeGreaterThanOrEqual(2);
		for (const field of secrets)
			expect({ [field.name]: field.typeOptions?.password }).toEqual({ [field.name]: true });
	});
});
