/**
 * transport/ holds what talks HTTP: to the service, and the n8n HTTP behaviours the package depends
 * on (n8nCompat.ts); it imports nothing from credentials/ or nodes/.
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
import { fromCredentialError, gstError } from '../errors/apiError';
import { authenticateWith } from '../credential/authenticate';
import { n8nHttpRequestPost } from '../credential/tokenClient';
import type { GstCredentialError } from '../errors/credentialError';
import { findCredentialError } from '../errors/credentialError';
import type { GstCredentials } from '../credential/environment';
import { apiBaseUrl, ENVIRONMENT_LABEL, parseCredentials } from '../credential/environment';
import { sendAuthenticated } from '../n8nCompat';
import type { Hop } from '../http/redirects';
import { MAX_REDIRECTS, nextHop, requestUrl } from '../http/redirects';
import * as messages from '../errors/messages';
import { describeNetworkFailure, isNetworkFailure } from '../http/networkError';
import { excerpt } from '../errors/redact';
import type { AttemptResult } from '../http/retry';
import { fatal, retryable, withRetry } from '../http/retry';
import { classifyAnswer, finalError, unreachable, type RequestScope } from './apiAnswer';
import { settings } from '../settings';
import { tokenCache } from '../credential/tokenCache';

/** What the transport needs of an n8n context; IExecuteFunctions and IWebhookFunctions both fit. */
export interface GstRequestContext {
	getNode(): INode;
	getCredentials<T extends object = ICredentialDataDecryptedObject>(
		type: string,
		itemIndex?: number,
	): Promise<T>;
	helpers: { httpRequest(requestOptions: IHttpRequestOptions): Promise<unknown> };
	getExecutionCancelSignal?(): AbortSignal | undefined;
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
 * redirects itself (http/redirects.ts). Throws
 * NodeApiError / NodeOperationError with a message a no-code user can act on.
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
	const node = this.getNode();
	const { itemIndex } = opts;
	const credentialData = opts.credentialData ?? (await getCredentialData(this, itemIndex));
	let credentials: GstCredentials;
	try {
		credentials = parseCredentials(credentialData);
	} catch (error) {
		// parseCredentials throws only GstCredentialError (a missing field or a malformed URL)
		throw fromCredentialError(node, error as GstCredentialError, itemIndex);
	}
	const apiBase = apiBaseUrl(credentials);
	const scope: RequestScope = {
		node,
		credentials,
		environment: ENVIRONMENT_LABEL[credentials.environment],
		host: new URL(apiBase).host,
		path,
		itemIndex,
	};
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
	let reauthenticated = false;
	// The token request goes through the same helper, so n8n's outbound request policy applies.
	const post = n8nHttpRequestPost(async (options) => await this.helpers.httpRequest(options));
	const apiOrigin = new URL(apiBase).origin;
	const first: Hop = {
		url: requestUrl(apiBase, path, opts.qs),
		method,
		body: opts.body,
		authenticated: true,
	};

	/** The request and the redirects it leads to (http/redirects.ts). */
	const exchange = async () => {
		const send = async (hop: Hop, options: IHttpRequestOptions) =>
			await sendAuthenticated(this, options, async (unsent) =>
				hop.authenticated ? await authenticateWith(credentialData, unsent, post) : unsent,
			);
		let hop = first;
		let response = await send(hop, request);
		for (let followed = 0; ; followed++) {
			const next = nextHop(response.statusCode, response.headers?.location, hop, apiOrigin);
			if (!next) return { hop, response, redirectedTooOften: false };
			if (followed === MAX_REDIRECTS) return { hop, response, redirectedTooOften: true };
			hop = next;
			response = await send(hop, {
				...request,
				url: hop.url,
				qs: undefined,
				method: hop.method,
				body: hop.body,
			});
		}
	};

	const attempt = async (): Promise<AttemptResult<IDataObject>> => {
		for (;;) {
			const serialAtStart = tokenCache.lastSerial;
			let exchanged: Awaited<ReturnType<typeof exchange>>;
			try {
				exchanged = await exchange();
			} catch (error) {
				const credentialError = findCredentialError(error);
				if (credentialError) {
					return fatal(fromCredentialError(node, credentialError, itemIndex));
				}
				if (this.getExecutionCancelSignal?.()?.aborted) {
					// The user stopped the execution: n8n aborted the request; nothing to retry.
					return fatal(
						gstError(node, {
							code: 'REQUEST_FAILED',
							message: messages.apiRequestFailed(scope.host, 'the execution was stopped'),
							itemIndex,
						}),
					);
				}
				if (isNetworkFailure(error)) {
					return retryable(unreachable(scope, describeNetworkFailure(error)));
				}
				// Not a connection problem (e.g. n8n refused the request): retrying would not help.
				const message = excerpt(error instanceof Error ? error.message : String(error), [
					credentials.clientSecret,
				]);
				return fatal(
					gstError(node, {
						code: 'REQUEST_FAILED',
						message: messages.apiRequestFailed(scope.host, message),
						itemIndex,
					}),
				);
			}
			const { hop, response, redirectedTooOften } = exchanged;
			const status = response.statusCode;
			if (redirectedTooOften) {
				return fatal(
					gstError(node, {
						code: 'REQUEST_FAILED',
						message: messages.apiRequestFailed(
							scope.host,
							messages.redirectedTooOften(MAX_REDIRECTS),
						),
						httpStatus: status,
						itemIndex,
					}),
				);
			}
			// A 401 from another origin says nothing about the token, which did not go there.
			if (status === 401 && hop.authenticated && !reauthenticated) {
				reauthenticated = true;
				tokenCache.invalidate(credentials, serialAtStart);
				continue;
			}
			return classifyAnswer(scope, status, response, hop);
		}
	};
	return await withRetry(settings.apiRetry, settings, attempt, (failure) =>
		finalError(scope, failure),
	);
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
