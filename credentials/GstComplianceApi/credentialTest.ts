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
import { describeNetworkFailure, isNetworkFailure } from '../../transport/networkError';
import { excerpt } from '../../transport/redact';
import { settings } from '../../transport/settings';
import { tokenCache } from './tokenCache';
import { n8nLegacyRequestPost } from './tokenClient';

/**
 * Path used to prove the API host accepts the token. Assumption (docs/service-api.md, "Errors and rate limits": no status codes are shown):
 * an authenticated GET of an id that does not exist answers 404 (or 2xx / 403 entitlement), and
 * an unauthenticated one 401, so any answer but 401 means "token accepted here".
 */
export const CREDENTIAL_CHECK_PATH = '/v1/einvoices/einv_credential_check';

type LegacyRequest = (options: object) => Promise<unknown>;

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * The "Test" button: succeeds only when a token is issued *and* the environment's API host
 * accepts it. Wired through `testedBy` on the nodes because a declarative `test` request cannot
 * mint a token first. Both requests go through n8n's legacy request helper (`this.helpers.request`,
 * the only one this context has), so n8n's outbound request policy applies; `fetch` only when a
 * caller gives no helper.
 */
export async function testGstComplianceCredentials(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	// ICredentialTestFunctions offers only the legacy `request` helper (n8n 2.41 CredentialTestContext):
	// the one way to put the credential test under n8n's outbound request policy.
	const helpers = this?.helpers;
	// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
	const legacyRequest = this?.helpers?.request?.bind(helpers) as LegacyRequest | undefined;
	let token;
	let credentials;
	try {
		credentials = parseCredentials(credential.data ?? {});
		assertClientMatchesEnvironment(credentials);
		// Fresh: a cached token would hide a secret revoked since it was minted.
		token = await tokenCache.getToken(credentials, {
			fresh: true,
			post: legacyRequest ? n8nLegacyRequestPost(legacyRequest) : undefined,
		});
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
		status = await checkStatus(`${base}${CREDENTIAL_CHECK_PATH}`, token.accessToken, legacyRequest);
	} catch (caught) {
		if (legacyRequest && !isNetworkFailure(caught)) {
			const detail = caught instanceof Error ? caught.message : String(caught);
			return error(messages.apiRequestRefusedByN8n(host, excerpt(detail, [], 300)));
		}
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
async function checkStatus(
	url: string,
	accessToken: string,
	legacyRequest?: LegacyRequest,
): Promise<number> {
	const headers = { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' };
	if (legacyRequest) {
		const response = (await legacyRequest({
			method: 'GET',
			uri: url,
			headers,
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			timeout: settings.apiRequestTimeoutMs,
		})) as { statusCode: number };
		return response.statusCode;
	}
	const response = await fetch(url, {
		headers,
		redirect: 'manual',
		signal: AbortSignal.timeout(settings.apiRequestTimeoutMs),
	});
	await response.arrayBuffer();
	return response.status;
}
