/**
 * The request to the GST Compliance API, as both nodes send it: the credential read, the token
 * attached, one re-mint on 401, retries, and the redirects followed here. What each answer means
 * for the user is apiAnswer.ts.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL } from '../credentialNames';
import { fromCredentialError } from '../errors/apiError';
import { authenticateWith } from '../credential/authenticate';
import { n8nHttpRequestPost } from '../credential/tokenClient';
import type { GstCredentialError } from '../errors/credentialError';
import type { GstCredentials } from '../credential/environment';
import { apiBaseUrl, ENVIRONMENT_LABEL, parseCredentials } from '../credential/environment';
import { sendAuthenticated, type SendContext } from '../n8nCompat';
import type { Hop } from '../http/redirects';
import { followRedirects, requestUrl } from '../http/redirects';
import type { AttemptResult } from '../http/retry';
import { withRetry } from '../http/retry';
import {
	classifyAnswer,
	classifyThrown,
	finalError,
	redirectedTooOften,
	type RequestScope,
} from './apiAnswer';
import { settings } from '../settings';
import { tokenCache } from '../credential/tokenCache';

/** What the request needs of an n8n context; IExecuteFunctions and IWebhookFunctions both fit. */
export interface GstRequestContext extends SendContext {
	getNode(): INode;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(
		type: string,
		itemIndex?: number,
	): Promise<T>;
}

export interface GstRequestOptions {
	itemIndex?: number;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * The credential as `getCredentials` returned it, read once per execution by the caller. Each
	 * `getCredentials` (and each `httpRequestWithAuthentication`, which calls it) is a database read
	 * and a decryption in n8n, so per item it would cost more than the request itself.
	 */
	credentialData?: ICredentialDataDecryptedObject;
}

/**
 * One call to the GST Compliance API with the `gstComplianceApi` credential. Retries 429 (per
 * Retry-After), 5xx and network errors within `settings.apiRetry`; re-mints once on 401; follows
 * redirects itself (http/redirects.ts). Throws NodeApiError / NodeOperationError with a message a
 * no-code user can act on (apiAnswer.ts).
 *
 * n8n's own retry on 401 exists only for credentials with `preAuthentication` and an `expirable`
 * field, which would also persist every token in the credentials table; the token cache
 * (credential/tokenCache.ts) is in memory instead, so the 401 handling lives here.
 */
export async function gstApiRequest(
	this: GstRequestContext,
	method: IHttpRequestMethods,
	path: string,
	opts: GstRequestOptions = {},
): Promise<IDataObject> {
	const credentialData = opts.credentialData ?? (await getCredentialData(this, opts.itemIndex));
	const scope = requestScope(this.getNode(), credentialData, path, opts.itemIndex);
	const apiBase = apiBaseUrl(scope.credentials);
	const request: IHttpRequestOptions = {
		method,
		url: path,
		qs: opts.qs,
		body: opts.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: settings.apiRequestTimeoutMs,
		disableFollowRedirect: true,
	};
	const first: Hop = {
		url: requestUrl(apiBase, path, opts.qs),
		method,
		body: opts.body,
		authenticated: true,
	};
	// The token request goes through the same helper, so n8n's outbound request policy applies.
	const post = n8nHttpRequestPost(async (options) => await this.helpers.httpRequest(options));
	const send = async (hop: Hop, followed: number) => {
		const options =
			followed === 0
				? request
				: { ...request, url: hop.url, qs: undefined, method: hop.method, body: hop.body };
		return await sendAuthenticated(this, options, async (unsent) =>
			hop.authenticated ? await authenticateWith(credentialData, unsent, post) : unsent,
		);
	};

	let reauthenticated = false;
	const attempt = async (): Promise<AttemptResult<IDataObject>> => {
		const serialAtStart = tokenCache.lastSerial;
		let followed;
		try {
			followed = await followRedirects(first, new URL(apiBase).origin, send);
		} catch (error) {
			return classifyThrown(scope, error, this.getExecutionCancelSignal?.()?.aborted === true);
		}
		const { hop, answer, redirectedTooOften: tooMany } = followed;
		if (tooMany) return redirectedTooOften(scope, answer.statusCode);
		// A 401 from another origin says nothing about the token, which did not go there.
		if (answer.statusCode === 401 && hop.authenticated && !reauthenticated) {
			reauthenticated = true;
			tokenCache.invalidate(scope.credentials, serialAtStart);
			return await attempt();
		}
		return classifyAnswer(scope, answer.statusCode, answer, hop);
	};
	return await withRetry(settings.apiRetry, settings, attempt, (failure) =>
		finalError(scope, failure),
	);
}

/** The request as the user's messages name it; a credential that cannot be used ends here. */
function requestScope(
	node: INode,
	credentialData: ICredentialDataDecryptedObject,
	path: string,
	itemIndex: number | undefined,
): RequestScope {
	let credentials: GstCredentials;
	try {
		credentials = parseCredentials(credentialData);
	} catch (error) {
		// parseCredentials throws only GstCredentialError (a missing field or a malformed URL)
		throw fromCredentialError(node, error as GstCredentialError, itemIndex);
	}
	return {
		node,
		credentials,
		environment: ENVIRONMENT_LABEL[credentials.environment],
		host: new URL(apiBaseUrl(credentials)).host,
		path,
		itemIndex,
	};
}

/** The credential's data, read through n8n (a database read and a decryption). */
export async function getCredentialData(
	context: Pick<GstRequestContext, 'getCredentials' | 'getNode'>,
	itemIndex?: number,
): Promise<ICredentialDataDecryptedObject> {
	try {
		return await context.getCredentials(CREDENTIAL.api, itemIndex);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
}
