import { GstCredentialError } from './credentialError';
import type { GstCredentials } from './environment';
import { tokenUrl } from './environment';
import { decodeJwtClaims, tokenLifetimeMs } from './jwtClaims';
import { describeNetworkFailure } from '../../transport/networkError';
import { classifyStatus } from '../../transport/httpStatus';
import * as messages from '../../transport/messages';
import { excerpt } from '../../transport/redact';
import type { AttemptResult, RetryFailure } from '../../transport/retry';
import { parseRetryAfter, withRetry } from '../../transport/retry';
import { settings } from '../../transport/settings';

export interface IssuedToken {
	accessToken: string;
	/** When we sent the token request (our clock); the lifetime counts from here, conservatively. */
	requestedAt: number;
	lifetimeMs: number;
	organizationId?: string;
}

/**
 * One client-credentials exchange, as docs/service-api.md ("Token endpoint") describes it: form-encoded, no `scope`. Uses the global
 * `fetch` because the credential's `authenticate` receives no n8n request helpers.
 */
export async function mintToken(credentials: GstCredentials): Promise<IssuedToken> {
	const url = tokenUrl(credentials);
	const host = new URL(url).host;
	return await withRetry(
		settings.tokenRetry,
		settings,
		async () => await requestToken(url, host, credentials),
		(failure) => finalError(failure, host),
	);
}

async function requestToken(
	url: string,
	host: string,
	credentials: GstCredentials,
): Promise<AttemptResult<IssuedToken>> {
	const secrets = [credentials.clientSecret];
	const requestedAt = settings.now();
	let status: number;
	let body: string;
	let retryAfter: string | null;
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: credentials.clientId,
				client_secret: credentials.clientSecret,
			}).toString(),
			// Never follow a redirect with the secret in the body.
			redirect: 'manual',
			signal: AbortSignal.timeout(settings.tokenRequestTimeoutMs),
		});
		status = response.status;
		retryAfter = response.headers.get('retry-after');
		body = await response.text();
	} catch (error) {
		return retryable(
			new GstCredentialError(
				'unreachable',
				messages.tokenEndpointUnreachable(host, describeNetworkFailure(error)),
			),
		);
	}

	const details = { tokenEndpointStatus: status };
	const serverSays = oauthErrorText(body, secrets);
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
		case 'rateLimited': {
			const retryAfterMs = parseRetryAfter(retryAfter, settings.now());
			const message = messages.rateLimited({ party: 'token endpoint', host, retryAfterMs });
			return {
				ok: false,
				retryable: true,
				retryAfterMs,
				error: new GstCredentialError('rateLimited', message, { ...details, retryAfterMs }),
			};
		}
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

function parseTokenResponse(body: string, requestedAt: number): IssuedToken | undefined {
	let json: unknown;
	try {
		json = JSON.parse(body);
	} catch {
		return undefined;
	}
	if (!json || typeof json !== 'object') return undefined;
	const { access_token: accessToken, expires_in: expiresIn } = json as Record<string, unknown>;
	if (typeof accessToken !== 'string' || accessToken === '') return undefined;
	// docs/service-api.md fixes expires_in at 900 s; fall back to it if a proxy drops the field.
	const seconds = Number(expiresIn);
	const claims = decodeJwtClaims(accessToken);
	const organizationId = claims?.organization_id;
	return {
		accessToken,
		requestedAt,
		lifetimeMs: tokenLifetimeMs(
			Number.isFinite(seconds) && seconds > 0 ? seconds : 900,
			claims,
			requestedAt,
		),
		organizationId: typeof organizationId === 'string' ? organizationId : undefined,
	};
}

/** The OAuth error body (`error`, `error_description`) as `: <text>`, redacted; '' when there is none. */
function oauthErrorText(body: string, secrets: string[]): string {
	try {
		const json = JSON.parse(body) as Record<string, unknown>;
		const parts = [json.error, json.error_description].filter(
			(part) => typeof part === 'string' && part !== '',
		);
		return parts.length > 0 ? `: ${excerpt(parts.join(' - '), secrets, 160)}` : '';
	} catch {
		return '';
	}
}

const retryable = (error: GstCredentialError): AttemptResult<IssuedToken> => ({
	ok: false,
	retryable: true,
	error,
});
const fatal = (error: GstCredentialError): AttemptResult<IssuedToken> => ({
	ok: false,
	retryable: false,
	error,
});

function finalError(failure: RetryFailure, host: string): Error {
	const error = failure.error as GstCredentialError;
	if (failure.reason === 'fatal') return error;
	const details = {
		tokenEndpointStatus: error.tokenEndpointStatus,
		retryAfterMs: failure.retryAfterMs,
	};
	if (error.kind === 'rateLimited') {
		const message = messages.rateLimited({
			party: 'token endpoint',
			host,
			retryAfterMs: failure.retryAfterMs,
			attempts: failure.attempts,
		});
		return new GstCredentialError('rateLimited', message, details);
	}
	return new GstCredentialError(
		error.kind,
		messages.gaveUpAfter(error.message, failure.attempts),
		details,
	);
}
