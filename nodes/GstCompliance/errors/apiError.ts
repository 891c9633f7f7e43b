import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GstCredentialError, GstCredentialErrorKind } from './credentialError';
import { messageParts } from './messageParts';

/** Stable codes for `continueOnFail` output and for workflows that branch on them. */
export type GstErrorCode =
	| 'INVALID_ID'
	| 'CREDENTIAL_CONFIG'
	| 'ENVIRONMENT_MISMATCH'
	| 'FOREIGN_HOST'
	| 'CREDENTIALS_REJECTED'
	| 'TOKEN_RATE_LIMITED'
	| 'TOKEN_ENDPOINT_UNREACHABLE'
	| 'TOKEN_ENDPOINT_BAD_RESPONSE'
	| 'UNAUTHORIZED'
	| 'NOT_FOUND'
	| 'NOT_ENTITLED'
	| 'RATE_LIMITED'
	| 'SERVER_ERROR'
	| 'API_UNREACHABLE'
	| 'BAD_RESPONSE'
	| 'REQUEST_REJECTED'
	| 'REQUEST_FAILED'
	// Test Event → Send (actions/testEvent/triggerAnswer.ts)
	| 'INVALID_URL'
	| 'INVALID_EVENT_TYPE'
	| 'TRIGGER_UNREACHABLE'
	| 'TRIGGER_NOT_LISTENING'
	| 'TRIGGER_REFUSED'
	| 'EVENT_NOT_STARTED'
	| 'NOT_A_TRIGGER';

export interface GstErrorInfo {
	code: GstErrorCode;
	message: string;
	description?: string;
	/**
	 * HTTP status of the answer that decided the failure (API or token endpoint); none for local
	 * checks.
	 */
	httpStatus?: number;
	itemIndex?: number;
}

/**
 * NodeApiError when a server answered, NodeOperationError for local checks and unreachable hosts.
 * n8n shows the message as the error's title and the description under it: the title says what
 * happened, the description what to do (messageParts.ts), then `info.description`.
 */
export function gstError(node: INode, info: GstErrorInfo): NodeApiError | NodeOperationError {
	const { httpStatus, itemIndex } = info;
	const { title, remedy } = messageParts(info.message);
	const description = [remedy, info.description].filter(Boolean).join(' ') || undefined;
	const error =
		httpStatus !== undefined
			? new NodeApiError(node, { message: title } as JsonObject, {
					message: title,
					description,
					httpCode: String(httpStatus),
					itemIndex,
				})
			: new NodeOperationError(node, title, { description, itemIndex });
	// n8n's constructors replace a message containing one of its common error codes (EEXIST,
	// ECONNREFUSED, …) with their own sentence; ours can quote a server's words that contain one.
	error.message = title;
	error.context.gstCode = info.code;
	error.context.httpStatus = httpStatus;
	made.set(error, info);
	return error;
}

/** What each error was made from: the whole message, remedy included (errorSummary, retries). */
const made = new WeakMap<Error, GstErrorInfo>();

/** The message and description `error` was made with by gstError; undefined for any other. */
export function gstErrorInfo(error: unknown): GstErrorInfo | undefined {
	return error instanceof Error ? made.get(error) : undefined;
}

const CODE_OF_KIND: Record<GstCredentialErrorKind, GstErrorCode> = {
	configuration: 'CREDENTIAL_CONFIG',
	environmentMismatch: 'ENVIRONMENT_MISMATCH',
	foreignHost: 'FOREIGN_HOST',
	rejected: 'CREDENTIALS_REJECTED',
	rateLimited: 'TOKEN_RATE_LIMITED',
	unreachable: 'TOKEN_ENDPOINT_UNREACHABLE',
	badResponse: 'TOKEN_ENDPOINT_BAD_RESPONSE',
};

export function fromCredentialError(node: INode, error: GstCredentialError, itemIndex?: number) {
	return gstError(node, {
		code: CODE_OF_KIND[error.kind],
		message: error.message,
		httpStatus: error.tokenEndpointStatus,
		itemIndex,
	});
}

/**
 * `{ message, code, httpStatus }` of any error, for `continueOnFail` output items: the message
 * whole, what to do included, since a workflow passes it on as one text (a Slack or e-mail alert).
 */
export function errorSummary(error: unknown): {
	message: string;
	code: string;
	httpStatus: number | null;
} {
	const context = (error as { context?: Record<string, unknown> })?.context ?? {};
	const httpStatus = typeof context.httpStatus === 'number' ? context.httpStatus : null;
	const code = typeof context.gstCode === 'string' ? context.gstCode : 'UNKNOWN';
	const message =
		gstErrorInfo(error)?.message ?? (error instanceof Error ? error.message : String(error));
	return { message, code, httpStatus };
}
