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
import { parseJsonOr } from '../text/json';

/**
 * Path used to prove that the URL is the API and that it accepts the token. Assumption
 * (docs/service-api.md, "Resource endpoints": neither status codes nor error bodies are shown): an
 * authenticated GET of an id that does not exist answers 404 (or 2xx, or 403 entitlement), and the
 * same GET without a token 401 (RFC 6750; the spec's API answers 401 to a client of the other
 * environment). No error body is shown, so none is required beyond being JSON (a web page such as
 * the Developer hub answers HTML); what proves "the API" is that the token changes the answer: a
 * host that answers the same without one (an API gateway's unknown route, the token server's own
 * host) is not the API, whatever JSON it sends. A 401 with the token means "token refused here".
 * A 2xx must be an e-invoice.
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
		// 403 is an entitlement answer and 404 the unknown id, both after the token was accepted: if
		// the host is the API, which the same GET without the token tells.
		case 'forbidden':
		case 'notFound':
			if (!body.json) return notTheApi(body.what);
			return await answerWithoutToken(`${base}${CREDENTIAL_CHECK_PATH}`, status, {
				environment,
				host,
				connected,
			});
		default:
			return error(messages.credentialTest.unexpectedStatus(environment, host, status));
	}
}

/**
 * The same GET without the token: the API refuses it (401; some servers refuse a missing token
 * with 403, which counts when the token's answer differs), a host that ignores tokens does not.
 */
async function answerWithoutToken(
	url: string,
	status: number,
	facts: { environment: string; host: string; connected: INodeCredentialTestResult },
): Promise<INodeCredentialTestResult> {
	const { environment, host, connected } = facts;
	let without: number;
	try {
		without = (await checkAnswer(url)).status;
	} catch (caught) {
		return error(
			messages.credentialTest.hostUnreachable(environment, host, describeNetworkFailure(caught)),
		);
	}
	const kind = classifyStatus(without);
	if (kind === 'unauthorized' || (kind === 'forbidden' && without !== status)) return connected;
	if (kind === 'rateLimited')
		return error(
			messages.rateLimited({ party: 'API', host, advice: 'Try the test again in a minute.' }),
		);
	if (kind === 'serverError')
		return error(messages.credentialTest.unexpectedStatus(environment, host, without));
	const what =
		without === status
			? 'JSON it also gives without a token'
			: `JSON, and HTTP ${without} without a token`;
	return error(
		messages.credentialTest.notTheApi(
			environment,
			host,
			status,
			`${what} (the API refuses a request without one)`,
		),
	);
}

interface CheckAnswer {
	status: number;
	/** The body as JSON (an object or array), or what it is instead, as the message names it. */
	body: { json: object; what?: undefined } | { json?: undefined; what: string };
}

/** Status and body of a GET, with the token when given; redirects not followed. */
async function checkAnswer(url: string, accessToken?: string): Promise<CheckAnswer> {
	const response = await fetch(url, {
		headers: {
			...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
			Accept: 'application/json',
		},
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
