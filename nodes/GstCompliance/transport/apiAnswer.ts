/**
 * What each answer of the GST Compliance API means for the node: a result, an error to retry, or
 * an error for the user (its stable code and a message that says what to change), and the error
 * the user reads once the retries are spent. The request itself (auth, retries, re-mint, redirects)
 * is apiRequest.ts; this file is the table docs/service-api.md's error section describes.
 */
import type { IDataObject, INode, IN8nHttpFullResponse } from 'n8n-workflow';

import type { GstErrorCode } from '../errors/apiError';
import { fromCredentialError, gstError, gstErrorInfo } from '../errors/apiError';
import { findCredentialError } from '../errors/credentialError';
import type { GstCredentials } from '../credential/environment';
import { classifyStatus } from '../http/httpStatus';
import * as messages from '../errors/messages';
import { describeNetworkFailure, isNetworkFailure } from '../http/networkError';
import type { Hop } from '../http/redirects';
import { MAX_REDIRECTS } from '../http/redirects';
import { excerpt } from '../errors/redact';
import { serverWords } from '../errors/serverWords';
import { capabilityName, describePath, RESOURCES } from '../resources';
import type { AttemptResult, RetryFailure } from '../http/retry';
import { fatal, parseRetryAfter, retryable } from '../http/retry';
import { settings } from '../settings';
import { isJsonObject, parseJsonOr } from '../text/json';

/** The request an answer belongs to, as the user's messages name it. */
export interface RequestScope {
	node: INode;
	credentials: GstCredentials;
	environment: string;
	host: string;
	path: string;
	itemIndex?: number;
}

export type ApiError = ReturnType<typeof gstError>;

/** One answer of the API: the parsed object, or the error its status means. */
export function classifyAnswer(
	scope: RequestScope,
	status: number,
	response: IN8nHttpFullResponse,
	answeredBy: Hop,
): AttemptResult<IDataObject> {
	const body = parseBody(response.body);
	const kind = classifyStatus(status);
	if (kind === 'success') {
		if (isJsonObject(body)) {
			return { ok: true, value: body as IDataObject };
		}
		const message = messages.apiNotJson(scope.host, status);
		return fatal(
			gstError(scope.node, {
				code: 'BAD_RESPONSE',
				message,
				httpStatus: status,
				itemIndex: scope.itemIndex,
			}),
		);
	}
	const serverSays = serverWords(body, [scope.credentials.clientSecret]);
	const description = serverSays ? `The service said: ${serverSays}` : undefined;
	const fail = (code: GstErrorCode, message: string) =>
		gstError(scope.node, {
			code,
			message,
			description,
			httpStatus: status,
			itemIndex: scope.itemIndex,
		});
	const target = describePath(scope.path);

	switch (kind) {
		case 'unauthorized':
			// Another origin a redirect led to: it refused a request that carried no token.
			if (!answeredBy.authenticated) {
				const host = new URL(answeredBy.url).host;
				return fatal(fail('REQUEST_REJECTED', messages.apiRefused(host, status, serverSays)));
			}
			return fatal(fail('UNAUTHORIZED', messages.apiUnauthorized(scope.environment, scope.host)));
		case 'rateLimited': {
			const retryAfterMs = parseRetryAfter(response.headers?.['retry-after'], settings.now());
			return retryable(fail('RATE_LIMITED', 'HTTP 429'), retryAfterMs);
		}
		case 'serverError':
			return retryable(fail('SERVER_ERROR', `HTTP ${status}`));
		case 'forbidden': {
			// docs/service-api.md: the entitlement status is not shown; the emulator and
			// Keycloak-style gateways answer 403 and may name the capability.
			const named = (errorObject(body) ?? {}).capability;
			const fallback = target ? RESOURCES[target.resource].capability : 'this capability';
			return fatal(fail('NOT_ENTITLED', messages.notEntitled(capabilityName(named, fallback))));
		}
		case 'notFound': {
			const what = target
				? `${RESOURCES[target.resource].label} ${target.id}`
				: `Nothing at ${scope.path}`;
			return fatal(fail('NOT_FOUND', messages.notFound(what, scope.environment)));
		}
		default:
			return fatal(fail('REQUEST_REJECTED', messages.apiRefused(scope.host, status, serverSays)));
	}
}

/**
 * A request that got no answer: what the error n8n's request helper (or the credential's
 * `authenticate` before it) threw means. `stopped`: the user stopped the execution, and n8n
 * aborted the request.
 */
export function classifyThrown(
	scope: RequestScope,
	error: unknown,
	stopped: boolean,
): AttemptResult<IDataObject> {
	const credentialError = findCredentialError(error);
	if (credentialError)
		return fatal(fromCredentialError(scope.node, credentialError, scope.itemIndex));
	const failed = (why: string) =>
		gstError(scope.node, {
			code: 'REQUEST_FAILED',
			message: messages.apiRequestFailed(scope.host, why),
			itemIndex: scope.itemIndex,
		});
	// Nothing to retry once the user stopped the execution.
	if (stopped) return fatal(failed('the execution was stopped'));
	if (isNetworkFailure(error)) return retryable(unreachable(scope, describeNetworkFailure(error)));
	// Not a connection problem (e.g. n8n refused the request): retrying would not help.
	const why = error instanceof Error ? error.message : String(error);
	return fatal(failed(excerpt(why, [scope.credentials.clientSecret])));
}

/** The redirects went on past MAX_REDIRECTS; `status` is the last one's. */
export function redirectedTooOften(
	scope: RequestScope,
	status: number,
): AttemptResult<IDataObject> {
	return fatal(
		gstError(scope.node, {
			code: 'REQUEST_FAILED',
			message: messages.apiRequestFailed(scope.host, messages.redirectedTooOften(MAX_REDIRECTS)),
			httpStatus: status,
			itemIndex: scope.itemIndex,
		}),
	);
}

export function finalError(scope: RequestScope, failure: RetryFailure): Error {
	const error = failure.error as ApiError;
	if (failure.reason === 'fatal') return error;
	const code = error.context.gstCode as GstErrorCode;
	const httpStatus = error.context.httpStatus as number | undefined;
	const made = gstErrorInfo(error);
	const info = { httpStatus, itemIndex: scope.itemIndex, description: made?.description };
	const giveUp = (message: string) => gstError(scope.node, { ...info, code, message });
	if (code === 'RATE_LIMITED') {
		const waitTooLong = failure.reason === 'retryAfterTooLong';
		return giveUp(
			messages.rateLimited({
				party: 'API',
				retryAfterMs: waitTooLong ? failure.retryAfterMs : undefined,
				waitTooLong,
				attempts: failure.attempts,
			}),
		);
	}
	if (code === 'SERVER_ERROR') {
		return giveUp(messages.apiServerError(scope.host, httpStatus, failure.attempts));
	}
	return giveUp(messages.gaveUpAfter(made?.message ?? error.message, failure.attempts));
}

function unreachable(scope: RequestScope, why: string): ApiError {
	return gstError(scope.node, {
		code: 'API_UNREACHABLE',
		message: messages.apiUnreachable(scope.host, why, scope.environment),
		itemIndex: scope.itemIndex,
	});
}

function parseBody(body: unknown): unknown {
	return typeof body === 'string' ? parseJsonOr(body, body) : body;
}

/**
 * The API's error object, for the fields other than its words (errors/serverWords.ts):
 * `{ error: { code, message, ... } }` in the emulator; not shown in docs/service-api.md.
 */
function errorObject(body: unknown): Record<string, unknown> | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const { error } = body as Record<string, unknown>;
	if (error && typeof error === 'object') return error as Record<string, unknown>;
	return body as Record<string, unknown>;
}
