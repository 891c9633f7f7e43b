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

/** A free TCP port on 127.0.0.1 (bound, then released). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
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
