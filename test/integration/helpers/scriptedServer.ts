/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * A local HTTP server whose answers a test scripts request by request, for token endpoints and API
 * hosts that misbehave in ways the emulator does not offer. Records every request it receives.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'http';
import type { AddressInfo } from 'net';

export interface ScriptedRequest {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface ScriptedAnswer {
	status: number;
	headers?: Record<string, string>;
	body?: string;
}

export type Script = (request: ScriptedRequest, index: number) => ScriptedAnswer;

export interface ScriptedServer {
	/** `http://127.0.0.1:<port>` */
	origin: string;
	requests: ScriptedRequest[];
	/** Replaces the script for the requests that follow. */
	answer(script: Script): void;
	close(): Promise<void>;
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
	let current = script;
	const requests: ScriptedRequest[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: ScriptedRequest = {
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(request);
			const answer = current(request, requests.length - 1);
			res.writeHead(answer.status, answer.headers ?? {});
			res.end(answer.body ?? '');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		answer(next) {
			current = next;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A JWT-shaped token with the given claims (unsigned; the package never verifies it). */
export const fakeJwt = (claims: Record<string, unknown> = {}): string =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

export const tokenAnswer = (expiresIn: unknown = 900, claims = {}): ScriptedAnswer => ({
	status: 200,
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify({
		access_token: fakeJwt(claims),
		token_type: 'Bearer',
		expires_in: expiresIn,
	}),
});
