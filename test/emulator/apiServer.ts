/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the service emulator is a Node server for tests, never loaded by n8n */
import { createServer, type IncomingMessage, type Server } from 'http';
import { guard, sendError, sendFault, sendJson } from './http';
import { verifyJwt } from './jwt';
import { bump, type ClientRecord, type EmulatorState, type ResourceKind } from './state';
import { AUDIENCE } from './tokenServer';
import type { Environment } from './types';

type AuthResult = { client: ClientRecord } | { message: string };

const ROUTE = /^\/v1\/(einvoices|ewaybills)\/([^/]+)$/;
const KIND: Record<string, ResourceKind> = { einvoices: 'einvoice', ewaybills: 'ewaybill' };

function authenticate(
	state: EmulatorState,
	req: IncomingMessage,
	environment: Environment,
): AuthResult {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
	if (!match) return { message: 'Missing bearer token' };
	const claims = verifyJwt(match[1], state.signingKey);
	if (!claims) return { message: 'Invalid token' };
	const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
	if (!audience.includes(AUDIENCE)) return { message: 'Invalid token audience' };
	if (typeof claims.exp !== 'number' || claims.exp * 1000 <= state.clock.now())
		return { message: 'Token expired' };
	const client = state.clients.get(String(claims.client_id));
	if (!client || client.organizationId !== claims.organization_id)
		return { message: 'Invalid token' };
	// The host decides the environment: a client of the other environment is unauthenticated here.
	if (client.environment !== environment || claims.environment !== environment) {
		return { message: `This client is not valid for the ${environment} environment` };
	}
	return { client };
}

/**
 * One API host (production or sandbox). Order: redirect switch, fault, authentication, rate limit,
 * entitlement, route. `elsewhereUrl()` is the redirect target, known once that server listens.
 */
export function createApiServer(
	state: EmulatorState,
	environment: Environment,
	elsewhereUrl: () => string,
): Server {
	const server = createServer(
		guard(async (req, res) => {
			state.counters.apiRequestsTotal++;
			if (state.redirect) {
				res.writeHead(302, { Location: elsewhereUrl() + (req.url ?? '/'), 'Content-Length': 0 });
				return void res.end();
			}
			const fault = state.apiFaults.shift();
			if (fault?.kind === 'reset') return void req.socket.destroy();
			if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms));
			if (fault?.kind === 'redirect') {
				const path = req.url ?? '/';
				const location = fault.location ?? (fault.elsewhere ? elsewhereUrl() + path : path);
				res.writeHead(fault.status ?? 302, { Location: location, 'Content-Length': 0 });
				return void res.end();
			}
			if (fault?.kind === 'status') {
				return sendFault(res, fault, {
					error: { code: 'injected_fault', message: 'Injected fault' },
				});
			}

			const auth = authenticate(state, req, environment);
			if ('message' in auth) {
				return sendError(res, 401, 'unauthorized', auth.message, {
					headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
				});
			}
			const { client } = auth;
			bump(state.counters.apiCalls, client.clientId);
			const wait = state.apiLimiter.hit(client.clientId);
			if (wait) {
				return sendError(res, 429, 'rate_limited', 'Per-client request rate exceeded', {
					headers: { 'Retry-After': wait },
				});
			}

			const { pathname } = new URL(req.url ?? '/', 'http://emulator');
			if (
				/^\/v1\/ewaybills(\/|$)/.test(pathname) &&
				state.planOf(client.organizationId) !== 'einvoice+ewaybill'
			) {
				return sendError(res, 403, 'entitlement_denied', 'Your plan does not include e-way bills', {
					fields: { capability: 'ewaybill' },
				});
			}
			const route = ROUTE.exec(pathname);
			if (!route) return sendError(res, 404, 'not_found', 'Not found');
			if (req.method !== 'GET') {
				return sendError(res, 405, 'method_not_allowed', 'Method not allowed', {
					headers: { Allow: 'GET' },
				});
			}
			const resource = state.find(
				KIND[route[1]],
				decodeURIComponent(route[2]),
				client.organizationId,
				environment,
			);
			if (!resource) return sendError(res, 404, 'not_found', 'Not found');
			sendJson(res, 200, resource);
		}),
	);
	server.on('connection', (socket) => {
		state.openApiSockets++;
		state.counters.maxConcurrentApiSockets = Math.max(
			state.counters.maxConcurrentApiSockets,
			state.openApiSockets,
		);
		socket.once('close', () => state.openApiSockets--);
	});
	return server;
}

/**
 * Another origin (same interface, its own port) that records every request it receives, and
 * whether it carried an `Authorization` header, then answers 200 `{ elsewhere: true, path }`.
 */
export function createElsewhereServer(state: EmulatorState): Server {
	return createServer(
		guard(async (req, res) => {
			const path = req.url ?? '/';
			state.elsewhereRequests.push({
				method: req.method ?? 'GET',
				path,
				authorization: req.headers.authorization !== undefined,
			});
			sendJson(res, 200, { elsewhere: true, path });
		}),
	);
}
