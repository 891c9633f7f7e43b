/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * A round-robin HTTP load balancer on a free loopback port, in front of the webhook processes,
 * as a scaled-out install has one: each request goes to the next upstream in turn; an upstream
 * that refuses the connection or drops it gets the request answered 502 (no retry here, as a
 * proxy without retries does: the sender's own retry picks the next upstream).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Balancer {
	url: string;
	/** Requests per upstream index, answers per HTTP status (502: the upstream was down). */
	stats(): { sent: number[]; statuses: Record<number, number> };
	stop(): Promise<void>;
}

export async function startBalancer(upstreams: Array<() => string>): Promise<Balancer> {
	let next = 0;
	const sent = upstreams.map(() => 0);
	const statuses: Record<number, number> = {};
	const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
	const server = http.createServer((req, res) => {
		const index = next++ % upstreams.length;
		sent[index]++;
		const target = new URL(req.url ?? '/', upstreams[index]());
		const upstream = http.request(
			{
				hostname: target.hostname,
				port: target.port,
				path: `${target.pathname}${target.search}`,
				method: req.method,
				headers: req.headers,
				agent: false,
			},
			(response) => {
				count(response.statusCode ?? 502);
				res.writeHead(response.statusCode ?? 502, response.headers);
				response.pipe(res);
				response.on('error', () => res.destroy());
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) {
				count(502);
				res.writeHead(502, { 'content-type': 'text/plain' });
				res.end('bad gateway');
			} else res.destroy();
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		stats: () => ({ sent: [...sent], statuses: { ...statuses } }),
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
