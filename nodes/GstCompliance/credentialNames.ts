/**
 * The credential type names the package installs. Saved workflows refer to them, so they never
 * change; the credential classes declare the same names (a unit test holds them equal).
 */
export const CREDENTIAL = {
	api: 'gstComplianceApi',
	webhook: 'gstComplianceWebhookApi',
	redis: 'gstComplianceRedisApi',
} as const;
