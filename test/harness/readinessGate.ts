/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * A load balancer's readiness check in front of one n8n, for the specs that kill and restart it
 * while the service retries deliveries. While n8n starts, between opening its database and the end
 * of its migrations, n8n itself answers every request 200 "n8n is starting up. Please wait" and runs
 * nothing: a retry landing then would count as delivered and its event would be lost. A deployment
 * routes to n8n only while GET /healthz/readiness answers 200 (docs/deployments.md, "While n8n
 * starts"), and so does this gate: before that, it answers 503 and the service retries. Like a
 * balancer's periodic probe, it does not ask on every request (a burst would make n8n answer its
 * own probe late): it asks after n8n stopped (`down()`, called by the harness) or a forward
 * failed, until n8n says it is ready.
 */
import * as http from 'http';

export class ReadinessGate {
	private server?: http.Server;
	private port = 0;
	/** n8n said it was ready, and has not stopped or failed a forward since. */
	private known = false;

	/** `target()`: the port n8n listens on now (it keeps it across restarts). */
	constructor(private readonly target: () => number) {}

	async start(): Promise<void> {
		if (this.server) return;
		const server = http.createServer((req, res) => void this.forward(req, res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		this.server = server;
		this.port = (server.address() as { port: number }).port;
	}

	/** The gate's URL for an n8n path (`/webhook/<path>`). */
	url(pathname: string): string {
		return `http://127.0.0.1:${this.port}${pathname}`;
	}

	/** n8n is stopping or stopped: ask its readiness again before the next forward. */
	down(): void {
		this.known = false;
	}

	async close(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		if (!this.known) this.known = await this.ready();
		if (!this.known) {
			req.resume();
			res.writeHead(503, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: 'n8n is not ready (readiness gate)' }));
			return;
		}
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: this.target(),
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			this.known = false;
			if (!res.headersSent) res.writeHead(502);
			res.end();
		});
		req.pipe(upstream);
	}

	/** n8n's own readiness: its database connected and migrated. */
	private async ready(): Promise<boolean> {
		return await new Promise<boolean>((resolve) => {
			const check = http.get(
				{ host: '127.0.0.1', port: this.target(), path: '/healthz/readiness', timeout: 2_000 },
				(answer) => {
					answer.resume();
					resolve(answer.statusCode === 200);
				},
			);
			check.on('timeout', () => check.destroy());
			check.on('error', () => resolve(false));
		});
	}
}
