import type { IHttpRequestOptions } from 'n8n-workflow';

import { GstCredentialError } from '../errors/credentialError';
import type { GstCredentials } from './environment';
import { tokenUrl } from './environment';
import { decodeJwtClaims, readExpiresIn, tokenLifetimeMs } from './jwtClaims';
import { describeNetworkFailure, isNetworkFailure } from '../http/networkError';
import { classifyStatus } from '../http/httpStatus';
import * as messages from '../errors/messages';
import { excerpt } from '../errors/redact';
import { serverWords } from '../errors/serverWords';
import type { AttemptResult, RetryFailure } from '../http/retry';
import { fatal, parseRetryAfter, retryable, withRetry } from '../http/retry';
import { settings } from '../settings';
import { jsonObject } from '../text/json';

export interface IssuedToken {
	accessToken: string;
	/** When we sent the token request (our clock); the lifetime counts from here, conservatively. */
	requestedAt: number;
	lifetimeMs: number;
	organizationId?: string;
}

/** One token request as the token client sends it: a form POST. */
export interface TokenHttpRequest {
	url: string;
	headers: Record<string, string>;
	body: string;
	timeoutMs: number;
}

export interface TokenHttpResponse {
	status: number;
	/**
	 * The `Retry-After` header as the transport has it (a string, a number, a list, or nothing);
	 * `parseRetryAfter` reads every such form.
	 */
	retryAfter?: unknown;
	body: string;
}

/**
 * How a token request is sent, as docs/service-api.md ("Token endpoint") describes it:
 * form-encoded, no `scope`. Never follows a redirect (the secret is in the body). A network
 * failure rejects with an error `describeNetworkFailure` recognizes; any other rejection means the
 * request was not sent (e.g. n8n's outbound request policy refused it).
 */
export type TokenPost = (request: TokenHttpRequest) => Promise<TokenHttpResponse>;

/**
 * The global `fetch`: for the credential's `authenticate` when n8n calls it without request
 * helpers (the HTTP Request node), so outside n8n's outbound request policy (docs/security.md).
 */
export const fetchPost: TokenPost = async (request) => {
	const response = await fetch(request.url, {
		method: 'POST',
		headers: request.headers,
		body: request.body,
		redirect: 'manual',
		signal: AbortSignal.timeout(request.timeoutMs),
	});
	return {
		status: response.status,
		retryAfter: response.headers.get('retry-after'),
		body: await response.text(),
	};
};

type N8nHttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

/** Through a node's `this.helpers.httpRequest`: n8n's outbound request policy applies. */
export function n8nHttpRequestPost(httpRequest: N8nHttpRequest): TokenPost {
	return async (request) => {
		const response = (await httpRequest({
			method: 'POST',
			url: request.url,
			headers: request.headers,
			body: request.body,
			encoding: 'text',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: request.timeoutMs,
		})) as { statusCode: number; headers?: unknown; body?: unknown };
		return fromN8nResponse(response);
	};
}

function fromN8nResponse(response: {
	statusCode: number;
	headers?: unknown;
	body?: unknown;
}): TokenHttpResponse {
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	return {
		status: response.statusCode,
		retryAfter: Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1],
		body: bodyText(response.body),
	};
}

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body === undefined || body === null) return '';
	return JSON.stringify(body);
}

/** One client-credentials exchange, exactly as docs/service-api.md: form-encoded, no `scope`. */
export async function mintToken(
	credentials: GstCredentials,
	post: TokenPost = fetchPost,
): Promise<IssuedToken> {
	const url = tokenUrl(credentials);
	const host = new URL(url).host;
	return await withRetry(
		settings.tokenRetry,
		settings,
		async () => await requestToken(url, host, credentials, post),
		(failure) => finalError(failure, host),
	);
}

async function requestToken(
	url: string,
	host: string,
	credentials: GstCredentials,
	post: TokenPost,
): Promise<AttemptResult<IssuedToken>> {
	const secrets = [credentials.clientSecret];
	const requestedAt = settings.now();
	let status: number;
	let body: string;
	let retryAfter: unknown;
	try {
		const response = await post({
			url,
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: credentials.clientId,
				client_secret: credentials.clientSecret,
			}).toString(),
			timeoutMs: settings.tokenRequestTimeoutMs,
		});
		status = response.status;
		retryAfter = response.retryAfter;
		body = response.body;
	} catch (error) {
		if (post !== fetchPost && !isNetworkFailure(error)) {
			// Not sent: n8n refused it (its outbound request policy) or the helper failed before.
			const detail = excerpt(error instanceof Error ? error.message : String(error), secrets, 300);
			return fatal(
				new GstCredentialError('configuration', messages.tokenRequestRefusedByN8n(host, detail)),
			);
		}
		return retryable(
			new GstCredentialError(
				'unreachable',
				messages.tokenEndpointUnreachable(host, describeNetworkFailure(error)),
			),
		);
	}

	const details = { tokenEndpointStatus: status };
	const serverSays = serverWords(body, secrets);
	switch (classifyStatus(status)) {
		case 'success': {
			const token = parseTokenResponse(body, requestedAt);
			if (token) return { ok: true, value: token };
			const shown = excerpt(body, secrets, 80);
			return retryable(
				new GstCredentialError(
					'badResponse',
					messages.tokenNotUsable(host, status, shown),
					details,
				),
			);
		}
		case 'badRequest':
		case 'unauthorized':
			return fatal(
				new GstCredentialError('rejected', messages.tokenRejected(status, serverSays), details),
			);
		case 'rateLimited':
			// finalError words the message: every 429 ends in a retry or there, never as it is.
			return retryable(
				new GstCredentialError('rateLimited', 'HTTP 429', details),
				parseRetryAfter(retryAfter, settings.now()),
			);
		case 'serverError':
			return retryable(
				new GstCredentialError(
					'unreachable',
					messages.tokenServerError(host, status, serverSays),
					details,
				),
			);
		default:
			return fatal(
				new GstCredentialError(
					'configuration',
					messages.tokenUrlWrong(url, status, serverSays),
					details,
				),
			);
	}
}

/**
 * The fields of a JSON body; none when it is not JSON or is `null`. A primitive or an array has none
 * of the fields read here, so it needs no check of its own.
 */
function jsonFields(body: string): Record<string, unknown> {
	return jsonObject(body) ?? {};
}

function parseTokenResponse(body: string, requestedAt: number): IssuedToken | undefined {
	const { access_token: accessToken, expires_in: expiresIn } = jsonFields(body);
	if (typeof accessToken !== 'string' || accessToken === '') return undefined;
	const claims = decodeJwtClaims(accessToken);
	const organizationId = claims?.organization_id;
	return {
		accessToken,
		requestedAt,
		lifetimeMs: tokenLifetimeMs(readExpiresIn(expiresIn), claims, requestedAt),
		organizationId: typeof organizationId === 'string' ? organizationId : undefined,
	};
}

function finalError(failure: RetryFailure, host: string): Error {
	const error = failure.error as GstCredentialError;
	if (failure.reason === 'fatal') return error;
	const details = {
		tokenEndpointStatus: error.tokenEndpointStatus,
		retryAfterMs: failure.retryAfterMs,
	};
	if (error.kind === 'rateLimited') {
		// The token cache pauses token requests for this long (see TokenCache.mintInto).
		const pausedForMs = Math.min(failure.retryAfterMs ?? 0, settings.maxTokenPauseMs);
		const message = messages.rateLimited({
			party: 'token endpoint',
			host,
			retryAfterMs: failure.retryAfterMs,
			waitTooLong: failure.reason === 'retryAfterTooLong',
			attempts: failure.attempts,
			pausedForMs: pausedForMs > 0 ? pausedForMs : undefined,
		});
		return new GstCredentialError('rateLimited', message, details);
	}
	return new GstCredentialError(
		error.kind,
		messages.gaveUpAfter(error.message, failure.attempts),
		details,
	);
}
