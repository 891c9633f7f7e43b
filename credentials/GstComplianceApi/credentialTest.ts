import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { findCredentialError } from './credentialError';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	ENVIRONMENT_LABEL,
	parseCredentials,
} from './environment';
import { classifyStatus } from '../../transport/httpStatus';
import * as messages from '../../transport/messages';
import { describeNetworkFailure } from '../../transport/networkError';
import { settings } from '../../transport/settings';
import { tokenCache } from './tokenCache';

/**
 * Path used to prove the API host accepts the token. Assumption (docs/service-api.md, "Errors and rate limits": no status codes are shown):
 * an authenticated GET of an id that does not exist answers 404 (or 2xx / 403 entitlement), and
 * an unauthenticated one 401, so any answer but 401 means "token accepted here".
 */
export const CREDENTIAL_CHECK_PATH = '/v1/einvoices/einv_credential_check';

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * The "Test" button: succeeds only when a token is issued *and* the environment's API host
 * accepts it. Wired through `testedBy` on the nodes because a declarative `test` request cannot
 * mint a token first. Uses `fetch` as the token client does; this context has no modern helpers.
 */
export async function testGstComplianceCredentials(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let token;
	let credentials;
	try {
		credentials = parseCredentials(credential.data ?? {});
		assertClientMatchesEnvironment(credentials);
		// Fresh: a cached token would hide a secret revoked since it was minted.
		token = await tokenCache.getToken(credentials, { fresh: true });
	} catch (caught) {
		return error(findCredentialError(caught)?.message ?? messages.credentialTest.notChecked);
	}
	const environment = ENVIRONMENT_LABEL[credentials.environment];
	const base = apiBaseUrl(credentials);
	const host = new URL(base).host;
	const organization = token.organizationId
		? `organization ${token.organizationId}`
		: 'the organization of this client';
	let status: number;
	try {
		const response = await fetch(`${base}${CREDENTIAL_CHECK_PATH}`, {
			headers: { Authorization: `Bearer ${token.accessToken}`, Accept: 'application/json' },
			redirect: 'manual',
			signal: AbortSignal.timeout(settings.apiRequestTimeoutMs),
		});
		status = response.status;
		await response.arrayBuffer();
	} catch (caught) {
		return error(
			messages.credentialTest.hostUnreachable(environment, host, describeNetworkFailure(caught)),
		);
	}
	switch (classifyStatus(status)) {
		case 'unauthorized':
			return error(messages.credentialTest.tokenRejected(environment, host, organization));
		case 'rateLimited':
			return error(
				messages.rateLimited({ party: 'API', host, advice: 'Try the test again in a minute.' }),
			);
		// 403 is an entitlement answer and 404 the unknown id: both come after the token was accepted.
		case 'success':
		case 'forbidden':
		case 'notFound':
			return {
				status: 'OK',
				message: messages.credentialTest.connected(environment, host, organization),
			};
		default:
			return error(messages.credentialTest.unexpectedStatus(environment, host, status));
	}
}
