/**
 * What went wrong while preparing authentication. The credential's `authenticate` has no node to
 * build an n8n error with, so it throws this; the transport turns it into a NodeApiError or
 * NodeOperationError. Deliberately no `code`/`status`/`httpCode` property: n8n wraps errors from
 * `authenticate` in NodeApiError, which would replace our message by a generic one for those.
 */
export type GstCredentialErrorKind =
	| 'configuration' // a field is missing or malformed, or the token URL is wrong
	| 'environmentMismatch' // client id prefix does not match the environment
	| 'foreignHost' // the request targets a host other than the environment's API URL
	| 'rejected' // the token endpoint refused the client id / secret
	| 'rateLimited' // the token endpoint kept answering 429
	| 'unreachable' // network error, timeout or 5xx from the token endpoint
	| 'badResponse'; // the token endpoint answered something that is not a token

export class GstCredentialError extends Error {
	readonly kind: GstCredentialErrorKind;

	/** HTTP status of the token endpoint's last answer, when there was one. */
	readonly tokenEndpointStatus?: number;

	/** The token endpoint's `Retry-After`, when it sent one. */
	readonly retryAfterMs?: number;

	constructor(
		kind: GstCredentialErrorKind,
		message: string,
		details: { tokenEndpointStatus?: number; retryAfterMs?: number } = {},
	) {
		super(message);
		this.name = 'GstCredentialError';
		this.kind = kind;
		this.tokenEndpointStatus = details.tokenEndpointStatus;
		this.retryAfterMs = details.retryAfterMs;
	}
}

/** Finds our error inside n8n's wrappers (NodeApiError keeps the original as `cause`). */
export function findCredentialError(error: unknown): GstCredentialError | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		if (current instanceof GstCredentialError) return current;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}
