/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Minimal HTTP client on node:http (no keep-alive pools left open in jest, raw bodies, any status).
 */
import * as http from 'http';
import * as net from 'net';

export interface HttpResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	json<T = unknown>(): T;
}

export interface RequestOptions {
	method?: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
	timeoutMs?: number;
}

export function request(url: string, opts: RequestOptions = {}): Promise<HttpResponse> {
	const u = new URL(url);
	return new Promise((resolve, reject) => {
		const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
		const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
		if (body) headers['content-length'] = body.length;
		const req = http.request(
			{
				hostname: u.hostname,
				port: u.port,
				path: `${u.pathname}${u.search}`,
				method: opts.method ?? (body ? 'POST' : 'GET'),
				headers,
				agent: false,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						text,
						json: () => JSON.parse(text),
					});
				});
				res.on('error', reject);
			},
		);
		req.setTimeout(opts.timeoutMs ?? 60_000, () => req.destroy(new Error(`timeout: ${url}`)));
		req.on('error', reject);
		if (body) req.write(body);
		req.end();
	});
}

/** Ports this process has handed out: never handed out twice. */
const handedOut = new Set<number>();
const PORT_FROM = 20_000;
const PORT_COUNT = 12_000;

/**
 * A free TCP port, bound on every interface and released, for a server started next. It is taken
 * below Linux's ephemeral range (32768–60999): a port from that range, free when checked, can be
 * the local end of some outgoing connection by the time n8n binds it ("n8n Task Broker's port … is
 * already in use", seen in CI).
 */
export async function freePort(): Promise<number> {
	for (let tries = 0; tries < 500; tries++) {
		const port = PORT_FROM + Math.floor(Math.random() * PORT_COUNT);
		if (handedOut.has(port)) continue;
		handedOut.add(port); // before the check: concurrent calls never pick the same port
		if (await canBind(port)) return port;
	}
	throw new Error(
		`no free TCP port between ${PORT_FROM} and ${PORT_FROM + PORT_COUNT - 1} after 500 tries`,
	);
}

function canBind(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, () => srv.close(() => resolve(true)));
	});
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Thrown inside a `waitFor` callback to stop polling at once. */
export class FatalError extends Error {}

/**
 * Polls `fn` until it returns a truthy value or `timeoutMs` passes. The deadline is read off the
 * monotonic clock: tests that fake `Date.now` still get their timeout.
 */
export async function waitFor<T>(
	fn: () => Promise<T | undefined | null | false>,
	what: string,
	timeoutMs = 60_000,
	intervalMs = 250,
): Promise<T> {
	const deadline = performance.now() + timeoutMs;
	let lastErr: unknown;
	for (;;) {
		try {
			const v = await fn();
			if (v) return v as T;
		} catch (err) {
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
			if (err instanceof FatalError) throw err;
			lastErr = err;
		}
		if (performance.now() > deadline) {
			throw new Error(
				`timed out after ${timeoutMs} ms waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`,
			);
		}
		await sleep(intervalMs);
	}
}
