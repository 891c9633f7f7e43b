/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * A TCP proxy in front of a Redis that can hold what the server sends: the replication stream a
 * replica has not received yet, as a slow or partitioned link leaves it, or the reply to one
 * command, as a stalled server or network gives it late. `cut()` drops the link and whatever it
 * held, as the master's death before a failover does.
 */
import net from 'net';

export interface HoldingProxy {
	port: number;
	/** Holds the master's bytes from now on, until `release()`. */
	hold(): void;
	/** Sends what was held, and everything after it at once. */
	release(): void;
	/**
	 * Holds the server's bytes for `forMs` from the next request that contains `marker` (a
	 * script's text): its reply, and everything after it, come that much later.
	 */
	holdAfter(marker: string, forMs: number): void;
	/**
	 * Closes the link, both sides, when the server answers the next request that contains
	 * `marker`: the server ran it, the client never gets its reply (a proxy reset, a network
	 * blip). The proxy goes on accepting new connections.
	 */
	dropAfter(marker: string): void;
	/** Closes every connection and the listener; held bytes are lost. */
	cut(): Promise<void>;
}

export async function holdingProxy(target: { host: string; port: number }): Promise<HoldingProxy> {
	let holding = false;
	let trigger: { marker: string; forMs: number } | undefined;
	let dropping: { marker: string } | undefined;
	const release = () => {
		holding = false;
		for (const link of links) for (const chunk of link.held.splice(0)) link.client.write(chunk);
	};
	const links: Array<{
		client: net.Socket;
		upstream: net.Socket;
		held: Buffer[];
		dropOnReply: boolean;
	}> = [];
	const server = net.createServer((client) => {
		const upstream = net.connect(target.port, target.host);
		const link = { client, upstream, held: [] as Buffer[], dropOnReply: false };
		links.push(link);
		client.on('data', (chunk: Buffer) => {
			if (dropping && chunk.includes(dropping.marker)) {
				dropping = undefined;
				link.dropOnReply = true;
			}
			if (trigger && chunk.includes(trigger.marker)) {
				const { forMs } = trigger;
				trigger = undefined;
				holding = true;
				setTimeout(release, forMs);
			}
			upstream.write(chunk);
		});
		upstream.on('data', (chunk: Buffer) => {
			if (link.dropOnReply) {
				client.destroy();
				upstream.destroy();
				return;
			}
			if (holding) link.held.push(chunk);
			else client.write(chunk);
		});
		for (const socket of [client, upstream]) {
			socket.on('error', () => undefined);
			socket.on('close', () => {
				client.destroy();
				upstream.destroy();
			});
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		hold: () => (holding = true),
		release,
		holdAfter: (marker, forMs) => (trigger = { marker, forMs }),
		dropAfter: (marker) => (dropping = { marker }),
		cut: async () => {
			for (const link of links) {
				link.held = [];
				link.upstream.destroy();
				link.client.destroy();
			}
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
