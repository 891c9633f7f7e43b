/**
 * The credential Tests the nodes offer, by the names the credential types give as `testedBy`. Both
 * nodes list a credential's Test where they use the credential: n8n runs the one of the first node
 * it finds, so each Test is written once, here, and gives the same verdict from either node.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { testRedisCredential } from './trigger/dedupe/redis/redisCredential';
import { checkSigningSecrets } from './trigger/secretCheck';

export { testGstComplianceCredentials } from './credential/connectionCheck';

/** The Webhook Signing Secret's Test: the webhook's own rules for a secret (secretCheck.ts). */
export async function gstComplianceWebhookSecretCheck(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return checkSigningSecrets(credential.data);
}

/** The Dedupe Redis credential's Test: what the trigger runs on Redis (redisCredential.ts). */
export async function gstComplianceRedisCheck(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await testRedisCredential(credential.data);
}
