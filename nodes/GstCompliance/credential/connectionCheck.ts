import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { findCredentialError } from '../errors/credentialError';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	ENVIRONMENT_LABEL,
	parseCredentials,
} from './environment';
import { classifyStatus } from '../http/httpStatus';
import * as messages from '../errors/messages';
import { describeNetworkFailure } from '../http/networkError';
import { excerpt } from '../errors/redact';
import { settings } from '../settings';
import { tokenCache } from './tokenCache';

/**
 * Path used to prove the API host accepts the token. Assumption (docs/service-api.md, "Errors and
 * rate limits": no status codes are shown): an authenticated GET of an id that does not exist
 * answers 404 (or 2xx / 403 entitlement), and
 * an unauthenticated one 401, so any answer but 401 means "token accepted here".
 */
export const CREDENTIAL_CHECK_PATH = '/v1/einvoices/einv_credential_check';

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * The "Test" button: succeeds only when a token is issued *and* the environment's API host
 * accepts it. Wired through `testedBy` on the nodes because a declarative `test` request cannot
 * mint a token first. Both requests use `fetch`: the only request helper n8n 2.41 gives a
 * credential test is the deprecated `helpers.request`, which n8n's community-node verification
 * rejects, so n8n's outbound request policy does not cover this button (docs/security.md).
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
		const known = findCredentialError(caught);
		if (known) return error(known.message);
		// Not one of ours (a bug or an n8n refusal): its text, redacted, beats saying nothing.
		const secret =
			typeof credential.data?.clientSecret === 'string' ? credential.data.clientSecret : '';
		const detail = caught instanceof Error ? caught.message : String(caught);
		return error(messages.credentialTest.notChecked(excerpt(detail, [secret], 200)));
	}
	const environment = ENVIRONMENT_LABEL[credentials.environment];
	const base = apiBaseUrl(credentials);
	const host = new URL(base).host;
	const organization = token.organizationId
		? `organization ${token.organizationId}`
		: 'the organization of this client';
	let status: number;
	try {
		status = await checkStatus(`${base}${CREDENTIAL_CHECK_PATH}`, token.accessToken);
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

/** Status of an authenticated GET, redirects not followed. */
async function checkStatus(url: string, accessToken: string): Promise<number> {
	const response = await fetch(url, {
		headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
		redirect: 'manual',
		signal: AbortSignal.timeout(settings.apiRequestTimeoutMs),
	});
	await response.arrayBuffer();
	return response.status;
}
