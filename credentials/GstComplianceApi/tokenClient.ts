import { GstCredentialError } from './credentialError';
import type { GstCredentials } from './environment';
import { tokenUrl } from './environment';
import { decodeJwtClaims, tokenLifetimeMs } from './jwtClaims';
import { describeNetworkFailure } from '../../transport/networkError';
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
 * One client-credentials exchange, exactly as the spec: form-encoded, no `scope`. Uses the global
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
				`Could not reach the token endpoint at ${host}: ${describeNetworkFailure(error)}. Check the Auth URL and that n8n can reach it.`,
			),
		);
	}

	if (status >= 200 && status < 300) {
		const token = parseTokenResponse(body, requestedAt);
		return token
			? { ok: true, value: token }
			: retryable(
					new GstCredentialError(
						'badResponse',
						`The token endpoint at ${host} answered HTTP ${status} without a usable access token (body: "${excerpt(body, secrets, 80)}"). Check the Auth URL and Realm.`,
						{ tokenEndpointStatus: status },
					),
				);
	}
	const details = { tokenEndpointStatus: status };
	const serverSays = oauthErrorText(body, secrets);
	if (status === 400 || status === 401) {
		return fatal(
			new GstCredentialError(
				'rejected',
				`The token endpoint rejected the client id or secret (HTTP ${status}${serverSays}). Check Client ID and Client Secret; after a secret rotation the old secret stops working 24 hours later.`,
				details,
			),
		);
	}
	if (status === 429) {
		const retryAfterMs = parseRetryAfter(retryAfter, settings.now());
		return {
			ok: false,
			retryable: true,
			retryAfterMs,
			error: new GstCredentialError(
				'rateLimited',
				`The token endpoint at ${host} is rate-limiting this client (HTTP 429)`,
				{ ...details, retryAfterMs },
			),
		};
	}
	if (status >= 500) {
		return retryable(
			new GstCredentialError(
				'unreachable',
				`The token endpoint at ${host} failed with HTTP ${status}${serverSays}`,
				details,
			),
		);
	}
	return fatal(
		new GstCredentialError(
			'configuration',
			`The token endpoint URL ${url} answered HTTP ${status}${serverSays}. Check Auth URL and Realm in the credential.`,
			details,
		),
	);
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
	// The spec fixes expires_in at 900; fall back to it if a proxy drops the field.
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
		const wait =
			failure.retryAfterMs !== undefined
				? ` and asks to wait ${Math.ceil(failure.retryAfterMs / 1000)} s`
				: '';
		return new GstCredentialError(
			'rateLimited',
			`The token endpoint at ${host} is rate-limiting this client (HTTP 429)${wait}; gave up after ${failure.attempts} attempt(s). ` +
				'Tokens are cached per n8n process, so this usually means other processes or tools mint tokens with the same client. Try again later.',
			details,
		);
	}
	return new GstCredentialError(
		error.kind,
		`${error.message} (gave up after ${failure.attempts} attempts)`,
		details,
	);
}
