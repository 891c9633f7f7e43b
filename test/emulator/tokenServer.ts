/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the service emulator is a Node server for tests, never loaded by n8n */
import { createServer, type Server, type ServerResponse } from 'http';
import { randomHex } from './fixtures';
import { guard, mediaType, readBody, sendFault, sendJson, type Headers } from './http';
import { signJwt } from './jwt';
import { bump, type EmulatorState } from './state';

export const AUDIENCE = 'service.api';

/**
 * Token-endpoint errors use the OAuth 2.0 shape (RFC 6749 §5.2), as a Keycloak-style realm would.
 */
function oauthError(
	res: ServerResponse,
	status: number,
	error: string,
	description: string,
	headers?: Headers,
): void {
	sendJson(res, status, { error, error_description: description }, headers);
}

export function tokenPath(realm: string): string {
	return `/realms/${realm}/protocol/openid-connect/token`;
}

/** `elsewhereUrl()`: the other origin a `redirect` token fault points at. */
export function createTokenServer(
	state: EmulatorState,
	issuer: () => string,
	elsewhereUrl: () => string = () => '',
): Server {
	const path = tokenPath(state.options.realm);
	return createServer(
		guard(async (req, res) => {
			const url = new URL(req.url ?? '/', 'http://emulator');
			if (url.pathname !== path) return oauthError(res, 404, 'not_found', 'Unknown path');
			if (req.method !== 'POST')
				return oauthError(res, 405, 'invalid_request', 'Use POST', { Allow: 'POST' });
			const raw = await readBody(req);
			const form = new URLSearchParams(
				mediaType(req) === 'application/x-www-form-urlencoded' ? raw.toString('utf8') : '',
			);
			const clientId = form.get('client_id') ?? '';
			state.counters.tokenRequestsTotal++;
			if (clientId) bump(state.counters.tokenRequests, clientId);

			const fault = state.tokenFaults.shift();
			if (fault?.kind === 'timeout') return; // hold the socket; stop() closes it
			if (fault?.kind === 'redirect') {
				const location = elsewhereUrl() + (req.url ?? '/');
				res.writeHead(fault.status ?? 307, { Location: location, 'Content-Length': 0 });
				return void res.end();
			}
			if (fault?.kind === 'garbage') {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				return void res.end('<html>upstream proxy error</html>');
			}
			if (fault?.kind === 'status') {
				return sendFault(res, fault, {
					error: 'injected_fault',
					error_description: 'Injected fault',
				});
			}

			if (mediaType(req) !== 'application/x-www-form-urlencoded') {
				return oauthError(
					res,
					400,
					'invalid_request',
					'Content-Type must be application/x-www-form-urlencoded',
				);
			}
			if (clientId) {
				const wait = state.tokenLimiter.hit(clientId);
				if (wait)
					return oauthError(res, 429, 'rate_limited', 'Too many token requests', {
						'Retry-After': wait,
					});
			}
			const grant = form.get('grant_type');
			if (!grant) return oauthError(res, 400, 'invalid_request', 'grant_type is required');
			if (grant !== 'client_credentials')
				return oauthError(
					res,
					400,
					'unsupported_grant_type',
					'Only client_credentials is supported',
				);
			if (form.has('scope') && state.options.rejectScope) {
				return oauthError(
					res,
					400,
					'invalid_scope',
					'Do not send scope; service.api is attached automatically',
				);
			}
			const client = state.authenticateClient(clientId, form.get('client_secret') ?? '');
			if (!client) return oauthError(res, 401, 'invalid_client', 'Invalid client credentials');

			const iat = Math.floor(state.clock.now() / 1000);
			const ttl = state.options.tokenTtlSeconds;
			const accessToken = signJwt(
				{
					iss: issuer(),
					sub: client.clientId,
					aud: AUDIENCE,
					iat,
					exp: iat + ttl,
					jti: randomHex(16),
					typ: 'Bearer',
					azp: client.clientId,
					client_id: client.clientId,
					organization_id: client.organizationId,
					environment: client.environment,
					scope: AUDIENCE,
				},
				state.signingKey,
			);
			bump(state.counters.tokenMints, client.clientId);
			sendJson(res, 200, {
				access_token: accessToken,
				expires_in: ttl,
				token_type: 'Bearer',
				scope: AUDIENCE,
			});
		}),
	);
}
