/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The request to the API (gstApiRequest), as the action node sends it inside n8n-core against the
 * emulator over real HTTP: what it retries and how long it waits, the redirects it follows and
 * where the token goes, and what the user reads when it gives up. What each single answer means
 * is pinned in test/unit/nodes/GstCompliance/transport/apiAnswer.test.ts.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { configureSettings } from '@/test/integration/helpers/settings';
import type { ClientInfo, Einvoice } from '@/test/emulator';
import { runGet, type GetOptions } from '@/test/integration/helpers/runGet';
import {
	FAST_RETRIES,
	recordingSleep,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';

describe('gstApiRequest through the GST Compliance node', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;
	let einvoice: Einvoice;

	beforeEach(() => {
		const { control } = emulator();
		client = control.createClient({ environment: 'sandbox' });
		einvoice = control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
	});

	const run = async (ids: unknown[], options: GetOptions = {}) =>
		await runGet(emulator(), client, ids, options);
	const apiRequests = () => emulator().control.counters().apiRequestsTotal;

	it('waits per Retry-After on 429, then succeeds', async () => {
		const recorder = recordingSleep();
		configureSettings({ sleep: recorder.sleep });
		emulator().control.injectApiFaults([{ kind: 'status', status: 429, retryAfterSeconds: 1 }]);
		const { output } = await run([einvoice.id]);
		expect(output[0].json).toEqual(einvoice);
		expect(recorder.waits).toEqual([1000]);
		expect(apiRequests()).toBe(2);
	});

	it('gives up on 429 after the bounded number of attempts with a clear message', async () => {
		const attempts = FAST_RETRIES.apiRetry!.maxAttempts;
		emulator().control.injectApiFaults(
			Array.from({ length: attempts }, () => ({
				kind: 'status' as const,
				status: 429,
				retryAfterSeconds: 0,
			})),
		);
		const { output } = await run([einvoice.id], { continueOnFail: true });
		expect(output[0].json).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 429 });
		expect(output[0].json.error).toMatch(
			new RegExp(
				`rate-limiting this client; gave up after ${attempts} attempts\\. The answer was HTTP 429\\. Try again later, or send fewer requests at once .*Concurrency option`,
			),
		);
		expect(apiRequests()).toBe(attempts);
	});

	it('retries a 5xx with backoff, then succeeds', async () => {
		emulator().control.injectApiFaults([{ kind: 'status', status: 503 }]);
		const { output } = await run([einvoice.id]);
		expect(output[0].json).toEqual(einvoice);
		expect(apiRequests()).toBe(2);
	});

	it('retries a dropped connection, then succeeds', async () => {
		emulator().control.injectApiFaults([{ kind: 'reset' }]);
		const { output } = await run([einvoice.id]);
		expect(output[0].json).toEqual(einvoice);
	});

	// docs/service-api.md: 5xx, network errors and 429 are retried; other 4xx are not.
	it.each([409, 410, 422])(
		'the API answers HTTP %i → one attempt, not retried as if transient; the item fails with the status and what the service said',
		async (status) => {
			const host = new URL(emulator().sandboxUrl).host;
			// One fault: a retry would get the e-invoice.
			emulator().control.injectApiFaults([{ kind: 'status', status }]);
			const { output } = await run([einvoice.id], { continueOnFail: true });
			expect(output).toEqual([
				{
					json: {
						error: `The GST Compliance API at ${host} refused the request: Injected fault. The answer was HTTP ${status}. Check the ID and the request against what the service says, then try again.`,
						code: 'REQUEST_REJECTED',
						httpStatus: status,
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(apiRequests()).toBe(1);
		},
	);

	describe('follows redirects itself: the token goes only to the API origin, whatever the n8n version', () => {
		it.each([301, 302, 303, 307, 308] as const)(
			'HTTP %i to a path on the API origin → followed with the token',
			async (status) => {
				emulator().control.injectApiFaults([{ kind: 'redirect', status }]);
				const { output } = await run([einvoice.id]);
				expect(output[0].json).toEqual(einvoice);
				expect(apiRequests()).toBe(2);
				const { tokenMints } = emulator().control.counters();
				expect(tokenMints[client.clientId]).toBe(1);
			},
		);

		it.each([false, true])(
			'to another origin → followed without the token (n8n without the redirect option: %s)',
			async (n8nWithoutRedirectOption) => {
				const { control } = emulator();
				// Switching the redirect on clears the record of what reached elsewhereUrl.
				control.setRedirect(true);
				control.setRedirect(false);
				control.injectApiFaults([{ kind: 'redirect', elsewhere: true }]);
				const { output } = await run([einvoice.id], { n8nWithoutRedirectOption });
				expect(control.elsewhereRequests()).toEqual([
					{ method: 'GET', path: `/v1/einvoices/${einvoice.id}`, authorization: false },
				]);
				expect(output[0].json).toEqual({
					elsewhere: true,
					path: `/v1/einvoices/${einvoice.id}`,
				});
			},
		);

		it('more than 10 redirects in a row → fails saying so, without retrying', async () => {
			const host = new URL(emulator().sandboxUrl).host;
			emulator().control.injectApiFaults(
				Array.from({ length: 11 }, () => ({ kind: 'redirect' as const })),
			);
			const { output } = await run([einvoice.id], { continueOnFail: true });
			expect(output[0].json).toEqual({
				error: `The request to the GST Compliance API at ${host} failed: it was redirected more than 10 times. Check the API URL in the credential and that n8n can reach it, then try again.`,
				code: 'REQUEST_FAILED',
				httpStatus: 302,
			});
			expect(apiRequests()).toBe(11);
		});

		it('another origin answering 401 → refused by that host; the token, which did not go there, is kept', async () => {
			const other = createServer((_req, res) => {
				res.writeHead(401, { 'Content-Type': 'application/json' });
				res.end('{"error":{"message":"who are you?"}}');
			});
			await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
			const host = `127.0.0.1:${(other.address() as AddressInfo).port}`;
			try {
				emulator().control.injectApiFaults([{ kind: 'redirect', location: `http://${host}/x` }]);
				const { output } = await run([einvoice.id], { continueOnFail: true });
				expect(output[0].json).toMatchObject({
					code: 'REQUEST_REJECTED',
					httpStatus: 401,
					error: `The GST Compliance API at ${host} refused the request: who are you? The answer was HTTP 401. Check the ID and the request against what the service says, then try again.`,
				});
				expect(emulator().control.counters().tokenMints[client.clientId]).toBe(1);
				expect(apiRequests()).toBe(1);
			} finally {
				other.close();
			}
		});

		it('a redirect without a Location → the status, as the API answered it', async () => {
			const host = new URL(emulator().sandboxUrl).host;
			emulator().control.injectApiFaults([{ kind: 'status', status: 302 }]);
			const { output } = await run([einvoice.id], { continueOnFail: true });
			expect(output[0].json).toMatchObject({
				code: 'REQUEST_REJECTED',
				httpStatus: 302,
				error: expect.stringMatching(
					`at ${host} refused the request: .*The answer was HTTP 302\\.`,
				),
			});
		});
	});

	it('names the host after persistent 5xx and network errors', async () => {
		const attempts = FAST_RETRIES.apiRetry!.maxAttempts;
		const host = new URL(emulator().sandboxUrl).host;
		emulator().control.injectApiFaults(
			Array.from({ length: attempts }, () => ({ kind: 'status' as const, status: 502 })),
		);
		const server = await run([einvoice.id], { continueOnFail: true });
		expect(server.output[0].json).toEqual({
			error: `The GST Compliance API at ${host} has a problem on its side: each of ${attempts} attempts failed. The answer was HTTP 502. Try again later.`,
			code: 'SERVER_ERROR',
			httpStatus: 502,
		});
		emulator().control.injectApiFaults(
			Array.from({ length: attempts }, () => ({ kind: 'reset' as const })),
		);
		const network = await run([einvoice.id], { continueOnFail: true });
		expect(network.output[0].json).toMatchObject({
			code: 'API_UNREACHABLE',
			httpStatus: null,
		});
		expect(network.output[0].json.error).toContain(
			`Could not reach the GST Compliance API at ${host}`,
		);
	});
});
