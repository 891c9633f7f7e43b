/**
 * The Tests of the trigger's own credentials (the Webhook Signing Secret and the Dedupe Redis), by
 * the names the nodes give as `testedBy`. Both nodes offer a credential's Test where they use the
 * credential, and n8n runs the one of the first node it finds, so each is written once, here, and
 * gives the same verdict from either node (the API credential's is credential/connectionCheck.ts).
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { testRedisCredential } from './dedupe/redis/redisCredential';
import { checkSigningSecrets } from './secretCheck';

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
