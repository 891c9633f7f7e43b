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
import { describeNetworkFailure } from '../../transport/networkError';
import { settings } from '../../transport/settings';
import { tokenCache } from './tokenCache';

/**
 * Path used to prove the API host accepts the token. Assumption (the spec lists no status codes):
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
		return error(findCredentialError(caught)?.message ?? 'The credential could not be checked');
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
			`A token was issued, but the ${environment} API host ${host} could not be reached: ${describeNetworkFailure(caught)}. Check the ${environment} API URL.`,
		);
	}
	if (status === 401) {
		return error(
			`A token was issued for ${organization}, but the ${environment} API host ${host} rejected it (HTTP 401). ` +
				`Check that the ${environment} API URL really is the ${environment.toLowerCase()} host and that the client was created in the ${environment === 'Production' ? 'Live' : 'Sandbox'} tab.`,
		);
	}
	if (status === 429) {
		return error(
			`The ${environment} API host ${host} is rate-limiting this client (HTTP 429). Try the test again in a minute.`,
		);
	}
	if ((status >= 200 && status < 300) || status === 403 || status === 404) {
		return { status: 'OK', message: `Connected to ${environment} (${host}) as ${organization}` };
	}
	return error(
		`A token was issued, but the ${environment} API host ${host} answered HTTP ${status}. Check the ${environment} API URL.`,
	);
}
