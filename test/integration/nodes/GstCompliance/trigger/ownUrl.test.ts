/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Requests to the trigger's own Production URL (trigger/ownUrl.ts), over real HTTP with n8n's own
 * request helper: a kept delivery sent again, signed as the service signs, so the trigger's
 * webhook verifies it; a probe, which carries nothing but its header; what fails is thrown with
 * the reason the trigger names.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { judgeDelivery } from '@/nodes/GstCompliance/trigger/delivery';
import {
	probe,
	PROBE_HEADER,
	redeliver,
	type OwnUrlContext,
} from '@/nodes/GstCompliance/trigger/ownUrl';
import { SIGNATURE_HEADER } from '@/nodes/GstCompliance/trigger/signature';
import { executeContext } from '@/test/integration/helpers/executeNode';

const SECRET = 'whsec_redelivery_0123456789abcdef';
const BODY = Buffer.from(JSON.stringify({ id: 'evt_again', type: 'einvoice.generated', data: {} }));

/** A Production URL answering `status`, recording what it received. */
async function productionUrl(status: number) {
	const received: Array<{
		method?: string;
		url?: string;
		headers: http.IncomingHttpHeaders;
		body: Buffer;
	}> = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: Buffer.concat(chunks),
			});
			res.writeHead(status, { 'content-type': 'application/json' }).end('{"received":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/abc/webhook`;
	return { url, received, close: () => server.close() };
}

/** n8n-core's request helper, with the Production URL n8n would give the trigger. */
function contextWith(url: string | undefined): OwnUrlContext {
	const { context } = executeContext({ parameters: {} });
	return { getNodeWebhookUrl: () => url, helpers: context.helpers };
}

describe('requests to the trigger’s own Production URL', () => {
	it('redeliver(kept body) → POSTs the exact bytes to the Production URL, signed with the Signing Secret now: the trigger verifies it', async () => {
		const target = await productionUrl(202);
		try {
			const nowMs = Date.now();
			await redeliver(contextWith(target.url), SECRET, BODY, nowMs);
			expect(target.received).toHaveLength(1);
			const [request] = target.received;
			expect(request).toMatchObject({ method: 'POST', url: '/webhook/abc/webhook', body: BODY });
			expect(request.headers['content-type']).toBe('application/json');
			const verdict = judgeDelivery({
				body: request.body,
				signatureHeader: request.headers[SIGNATURE_HEADER],
				secrets: [SECRET],
				nowMs,
				toleranceMs: 300_000,
				selectedEvents: ['*'],
			});
			expect(verdict).toMatchObject({ kind: 'verified', event: { id: 'evt_again' } });
		} finally {
			target.close();
		}
	});

	it('redeliver() answered 503 → throws naming the URL and the status', async () => {
		const target = await productionUrl(503);
		try {
			await expect(redeliver(contextWith(target.url), SECRET, BODY)).rejects.toThrow(
				`${target.url} answered 503`,
			);
		} finally {
			target.close();
		}
	});

	it('probe() → POSTs an empty body with the probe header and no signature', async () => {
		const target = await productionUrl(204);
		try {
			await probe(contextWith(target.url));
			expect(target.received).toEqual([
				expect.objectContaining({ method: 'POST', body: Buffer.alloc(0) }),
			]);
			expect(target.received[0].headers[PROBE_HEADER]).toBe('1');
			expect(target.received[0].headers[SIGNATURE_HEADER]).toBeUndefined();
		} finally {
			target.close();
		}
	});

	it('redeliver() where n8n gives no Production URL → throws saying so', async () => {
		await expect(redeliver(contextWith(undefined), SECRET, BODY)).rejects.toThrow(
			'n8n gives the trigger no Production URL',
		);
	});

	it('redeliver() to a port nothing listens on → throws the connection error', async () => {
		await expect(
			redeliver(contextWith('http://127.0.0.1:9/webhook/abc/webhook'), SECRET, BODY),
		).rejects.toThrow(/ECONNREFUSED/);
	});
});
