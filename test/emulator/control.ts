/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the service emulator is a Node server for tests, never loaded by n8n */
import { createServer, type Server } from 'http';
import type { Scheduler } from './clock';
import { guard, readBody, sendJson } from './http';
import { emptyCounters, type EmulatorState } from './state';
import type { EmulatorControl } from './types';
import type { Webhooks } from './webhooks';

export function createControl(
	state: EmulatorState,
	webhooks: Webhooks,
	clock: Scheduler,
): EmulatorControl {
	return {
		createClient: (input) => state.createClient(input),
		rotateClientSecret: (clientId) => state.rotateClientSecret(clientId),
		setPlan: (organizationId, plan) => state.setPlan(organizationId, plan),
		createEinvoice: (input) => state.createEinvoice(input),
		setEinvoiceStatus: (id, status) => state.setStatus('einvoice', id, status),
		createEwaybill: (input) => state.createEwaybill(input),
		setEwaybillStatus: (id, status) => state.setStatus('ewaybill', id, status),
		emitEvent: ({ clientId, type, data }) => state.emit(state.client(clientId), type, data),
		createSubscription: (input) => webhooks.createSubscription(input),
		rotateSigningSecret: (id) => webhooks.rotateSigningSecret(id),
		setSubscriptionActive: (id, active) => webhooks.setSubscriptionActive(id, active),
		subscriptions: () => webhooks.subscriptions(),
		deliveries: (filter) => webhooks.deliveries(filter),
		replay: (deliveryId) => webhooks.replay(deliveryId),
		setDeliveryFaults: (faults) => webhooks.setDeliveryFaults(faults),
		settle: async () => {
			webhooks.flushHeld();
			await clock.settle();
		},
		injectTokenFaults: (faults) => void state.tokenFaults.push(...faults),
		injectApiFaults: (faults) => void state.apiFaults.push(...faults),
		setRedirect: (on) => {
			state.redirect = on;
			if (on) state.elsewhereRequests.length = 0;
		},
		elsewhereRequests: () => structuredClone(state.elsewhereRequests),
		counters: () => structuredClone(state.counters),
		resetCounters: () => {
			state.counters = { ...emptyCounters(), maxConcurrentApiSockets: state.openApiSockets };
		},
		now: () => clock.now(),
		advance: (ms) => clock.advance(ms),
	};
}

/**
 * `POST /control/<method>` with a JSON array of arguments → `{ result }` (200) or `{ error }`
 * (400/404). `GET /control/info` → the emulator's URLs and seeded clients, for processes that did
 * not start it.
 */
export function createControlServer(control: EmulatorControl, info: () => unknown): Server {
	return createServer(
		guard(async (req, res) => {
			const { pathname } = new URL(req.url ?? '/', 'http://emulator');
			if (req.method === 'GET' && pathname === '/control/info')
				return sendJson(res, 200, { result: info() });
			const match = /^\/control\/([A-Za-z]+)$/.exec(pathname);
			const method = match?.[1] as keyof EmulatorControl | undefined;
			if (!method || !Object.prototype.hasOwnProperty.call(control, method)) {
				return sendJson(res, 404, { error: `unknown control method ${pathname}` });
			}
			if (req.method !== 'POST')
				return sendJson(res, 405, { error: 'use POST' }, { Allow: 'POST' });
			try {
				const raw = (await readBody(req)).toString('utf8').trim();
				const args: unknown = raw ? JSON.parse(raw) : [];
				if (!Array.isArray(args)) throw new Error('the body must be a JSON array of arguments');
				const fn = control[method] as (...a: unknown[]) => unknown;
				const result = await fn(...args);
				sendJson(res, 200, { result: result ?? null });
			} catch (error) {
				sendJson(res, 400, { error: (error as Error).message });
			}
		}),
	);
}
