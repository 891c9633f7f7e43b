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
import { parseJsonOr } from '../http/json';

/**
 * Path used to prove the API host accepts the token. Assumption (docs/service-api.md, "Errors and
 * rate limits": no status codes or error bodies are shown): an authenticated GET of an id that
 * does not exist answers 404 (or 2xx / 403 entitlement) with a JSON body, and an unauthenticated
 * one 401. So 401 means "token refused here", and a 403 or 404 means "token accepted" only when
 * its body is JSON: a web page at the URL (the Developer hub, a mistyped host) answers HTML, and
 * would pass a test that every Get then fails. A 2xx must be an e-invoice.
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
	let answer: CheckAnswer;
	try {
		answer = await checkAnswer(`${base}${CREDENTIAL_CHECK_PATH}`, token.accessToken);
	} catch (caught) {
		return error(
			messages.credentialTest.hostUnreachable(environment, host, describeNetworkFailure(caught)),
		);
	}
	const { status, body } = answer;
	const connected = {
		status: 'OK' as const,
		message: messages.credentialTest.connected(environment, host, organization),
	};
	const notTheApi = (what: string) =>
		error(messages.credentialTest.notTheApi(environment, host, status, what));
	switch (classifyStatus(status)) {
		case 'unauthorized':
			return error(messages.credentialTest.tokenRejected(environment, host, organization));
		case 'rateLimited':
			return error(
				messages.rateLimited({ party: 'API', host, advice: 'Try the test again in a minute.' }),
			);
		case 'success':
			if (!body.json) return notTheApi(body.what);
			if ((body.json as { object?: unknown }).object !== 'einvoice')
				return notTheApi('JSON that is not an e-invoice');
			return connected;
		// 403 is an entitlement answer and 404 the unknown id: both come after the token was accepted.
		case 'forbidden':
		case 'notFound':
			return body.json ? connected : notTheApi(body.what);
		default:
			return error(messages.credentialTest.unexpectedStatus(environment, host, status));
	}
}

interface CheckAnswer {
	status: number;
	/** The body as JSON (an object or array), or what it is instead, as the message names it. */
	body: { json: object; what?: undefined } | { json?: undefined; what: string };
}

/** Status and body of an authenticated GET, redirects not followed. */
async function checkAnswer(url: string, accessToken: string): Promise<CheckAnswer> {
	const response = await fetch(url, {
		headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
		redirect: 'manual',
		signal: AbortSignal.timeout(settings.apiRequestTimeoutMs),
	});
	const text = await response.text();
	const json = parseJsonOr(text, undefined);
	if (typeof json === 'object' && json !== null) return { status: response.status, body: { json } };
	// Not JSON: named below.
	const html = /html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(text);
	return {
		status: response.status,
		body: { what: html ? 'an HTML page' : text ? 'a body that is not JSON' : 'an empty body' },
	};
}
