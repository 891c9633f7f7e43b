/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import { createHmac, timingSafeEqual } from 'crypto';
import { createServer, type IncomingHttpHeaders } from 'http';
import type { AddressInfo } from 'net';

export interface Received {
	headers: IncomingHttpHeaders;
	raw: Buffer;
	body: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

/** A real webhook receiver: records raw bytes; `respond` decides each answer's status. */
export async function startReceiver(respond: (r: Received, index: number) => number = () => 200) {
	const received: Received[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const entry = {
				headers: req.headers,
				raw,
				body: JSON.parse(raw.toString('utf8')) as Received['body'],
			};
			received.push(entry);
			const status = respond(entry, received.length - 1);
			res.writeHead(status, { 'Content-Type': 'text/plain' });
			res.end(`answer ${status}`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * Independent verification per the spec: HMAC-SHA256 of "<t>.<raw body>", constant-time compare.
 */
export function verifySignature(
	header: string,
	raw: Buffer,
	secret: string,
	nowMs: number,
): boolean {
	const parts = header.split(',').map((p) => p.split('='));
	const t = Number(parts.find(([k]) => k === 't')?.[1]);
	if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > 300) return false;
	const expected = createHmac('sha256', secret)
		.update(Buffer.concat([Buffer.from(`${t}.`), raw]))
		.digest();
	return parts
		.filter(([k]) => k === 'v1')
		.some(([, v]) => {
			const given = Buffer.from(v, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		});
}
