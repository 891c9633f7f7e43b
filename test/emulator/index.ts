/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the service emulator is a Node server for tests, never loaded by n8n */
import type { Server } from 'http';
import { Scheduler } from './clock';
import { createControl, createControlServer } from './control';
import { closeServer, listen } from './http';
import { createApiServer, createElsewhereServer } from './apiServer';
import { seed } from './seed';
import { EmulatorState, type Resolved } from './state';
import { createTokenServer, tokenPath } from './tokenServer';
import type { EmulatorOptions, RunningEmulator } from './types';
import { Webhooks } from './webhooks';

export * from './types';
export { MANUAL_CLOCK_START } from './clock';
export { SEED } from './seed';
export { sign as signWebhookPayload } from './webhooks';

function resolve(options: EmulatorOptions): Resolved {
	return {
		host: options.host ?? '127.0.0.1',
		ports: { auth: 0, production: 0, sandbox: 0, control: 0, elsewhere: 0, ...options.ports },
		realm: options.realm ?? 'gst',
		tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
		tokenRateLimitPerMinute: options.tokenRateLimitPerMinute ?? 30,
		apiRateLimitPerMinute: options.apiRateLimitPerMinute ?? 6000,
		rejectScope: options.rejectScope ?? true,
		seed: options.seed ?? true,
		retryBaseMs: options.retryBaseMs ?? 1000,
		deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
	};
}

/**
 * Starts the token host, both API hosts and the control host; every port is ephemeral unless given.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
	const opts = resolve(options);
	const clock = new Scheduler(options.clock ?? 'real', options.manualClockStart);
	const state = new EmulatorState(opts, clock);
	const webhooks = new Webhooks(state, clock, opts.retryBaseMs, opts.deliveryTimeoutMs);
	const control = createControl(state, webhooks, clock);
	const seeded = opts.seed ? seed(state) : null;

	const urls = { authUrl: '', productionUrl: '', sandboxUrl: '', controlUrl: '', elsewhereUrl: '' };
	const info = () => ({
		...urls,
		realm: opts.realm,
		tokenUrl: urls.authUrl + tokenPath(opts.realm),
		seeded,
	});
	const servers: Array<[Server, number, keyof typeof urls]> = [
		[
			createTokenServer(
				state,
				() => `${urls.authUrl}/realms/${opts.realm}`,
				() => urls.elsewhereUrl,
			),
			opts.ports.auth,
			'authUrl',
		],
		[
			createApiServer(state, 'production', () => urls.elsewhereUrl),
			opts.ports.production,
			'productionUrl',
		],
		[createApiServer(state, 'sandbox', () => urls.elsewhereUrl), opts.ports.sandbox, 'sandboxUrl'],
		[createControlServer(control, info), opts.ports.control, 'controlUrl'],
		[createElsewhereServer(state), opts.ports.elsewhere, 'elsewhereUrl'],
	];
	const urlHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
	let stopped: Promise<void> | null = null;
	const stop = () => {
		stopped ??= (async () => {
			clock.stop();
			webhooks.stop();
			await clock.drain();
			await Promise.all(servers.map(([server]) => closeServer(server)));
		})();
		return stopped;
	};
	try {
		for (const [server, port, key] of servers)
			urls[key] = `http://${urlHost}:${await listen(server, port, opts.host)}`;
	} catch (error) {
		await stop();
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
		throw error;
	}
	return { ...info(), control, stop };
}
