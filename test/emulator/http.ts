/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the service emulator is a Node server for tests, never loaded by n8n */
import type { IncomingMessage, Server, ServerResponse } from 'http';

export type Headers = Record<string, string | number>;

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Headers = {},
): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-store',
		...headers,
	});
	res.end(text);
}

/** The emulator's assumed API error body: `{"error":{"code","message",...}}` (see README). */
export function sendError(
	res: ServerResponse,
	status: number,
	code: string,
	message: string,
	extra: { fields?: Record<string, unknown>; headers?: Headers } = {},
): void {
	sendJson(res, status, { error: { code, message, ...extra.fields } }, extra.headers);
}

/**
 * Answers an injected status fault: its status, optional Retry-After, its body or a default JSON
 * one.
 */
export function sendFault(
	res: ServerResponse,
	fault: { status: number; body?: string; retryAfterSeconds?: number },
	defaultBody: unknown,
): void {
	const headers =
		fault.retryAfterSeconds !== undefined ? { 'Retry-After': fault.retryAfterSeconds } : {};
	res.writeHead(fault.status, { 'Content-Type': 'application/json', ...headers });
	res.end(fault.body ?? JSON.stringify(defaultBody));
}

export function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				reject(new Error('body too large'));
				req.destroy();
			} else chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Lowercased media type without parameters, '' when absent. */
export function mediaType(req: IncomingMessage): string {
	return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

export function listen(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			const address = server.address();
			resolve(typeof address === 'object' && address ? address.port : port);
		});
	});
}

/** Closes the server and every open socket (keep-alive or hung), so jest can exit. */
export function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		if (!server.listening) return resolve();
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

/** Wraps an async request handler: an unexpected throw becomes a 500 instead of a hung socket. */
export function guard(
	handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		handler(req, res).catch((error: Error) => {
			if (!res.headersSent) sendError(res, 500, 'internal_error', error.message);
			else res.destroy();
		});
	};
}
