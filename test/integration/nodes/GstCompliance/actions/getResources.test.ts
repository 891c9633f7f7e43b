/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/** The action node run by n8n-core against the emulator over real HTTP. */
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { GstCompliance } from '../../../../../nodes/GstCompliance/GstCompliance.node';
import { configureSettings } from '../../../helpers/settings';
import type { ClientInfo, Einvoice, Ewaybill } from '../../../../emulator';
import { executeContext } from '../../../helpers/executeNode';
import { recordOutboundRequests } from '../../../helpers/outboundRequests';
import {
	credentialData,
	FAST_RETRIES,
	recordingSleep,
	useEmulatorForPackage,
} from '../../../helpers/emulatorForPackage';

const node = new GstCompliance();
/** The ID parameter as a user maps it from the incoming item. */
const ID_FROM_ITEM = '={{ $json.id }}';
const outbound = recordOutboundRequests();
beforeEach(() => outbound.reset());

describe('GST Compliance node: Get', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;
	let einvoice: Einvoice;
	let ewaybill: Ewaybill;

	beforeEach(() => {
		const { control } = emulator();
		client = control.createClient({ environment: 'sandbox' });
		einvoice = control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		ewaybill = control.createEwaybill({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
	});

	/** Runs the node for items whose `id` field feeds the ID parameter, as {{ $json.id }} would. */
	const run = async (
		ids: unknown[],
		options: {
			resource?: string;
			continueOnFail?: boolean;
			nodeOptions?: Record<string, unknown>;
			/** n8n before 1.123.50 (1.x) and 2.6 (2.x): `sendCredentialsOnCrossOriginRedirect` unknown. */
			n8nWithoutRedirectOption?: boolean;
		} = {},
	) => {
		const items: INodeExecutionData[] = ids.map((id) => ({ json: { id } as never }));
		const { context, credentialsHelper } = executeContext({
			items,
			continueOnFail: options.continueOnFail,
			credentials: { gstComplianceApi: credentialData(emulator(), client) },
			parameters: {
				resource: options.resource ?? 'einvoice',
				operation: 'get',
				einvoiceId: ID_FROM_ITEM,
				ewaybillId: ID_FROM_ITEM,
				options: (options.nodeOptions ?? {}) as INodeParameters,
			},
		});
		if (options.n8nWithoutRedirectOption) {
			const send = context.helpers.httpRequest;
			context.helpers.httpRequest = async (request) => {
				const known = { ...request };
				delete known.sendCredentialsOnCrossOriginRedirect;
				return await send(known);
			};
		}
		const [output] = await node.execute.call(context);
		return { output, context, credentialReads: credentialsHelper.reads };
	};
	const apiRequests = () => emulator().control.counters().apiRequestsTotal;

	it('gets an e-invoice exactly as the API returns it, paired to its item', async () => {
		const { output } = await run([einvoice.id]);
		expect(output).toEqual([{ json: einvoice, pairedItem: { item: 0 } }]);
	});

	it('reads the credential through n8n once per execution, not once per item', async () => {
		const { output, credentialReads } = await run([einvoice.id, einvoice.id, einvoice.id]);
		expect(output).toHaveLength(3);
		expect(credentialReads).toBe(1);
	});

	it('gets an e-way bill exactly as the API returns it', async () => {
		const { output } = await run([ewaybill.id], { resource: 'ewaybill' });
		expect(output).toEqual([{ json: ewaybill, pairedItem: { item: 0 } }]);
	});

	it('trims whitespace around the id', async () => {
		const { output } = await run([`  ${einvoice.id}\n`]);
		expect(output[0].json).toEqual(einvoice);
	});

	const mixed = () => [einvoice.id, 'einv_missing', 'INV-2024-001', '   ', einvoice.id];

	it('continue on fail: a mixed batch gives one item per input, in order, errors as items', async () => {
		const { output } = await run(mixed(), { continueOnFail: true });
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		expect(output[0].json).toEqual(einvoice);
		expect(output[4].json).toEqual(einvoice);
		expect(output[1].json).toEqual({
			error: {
				message: 'E-invoice einv_missing was not found in Sandbox for this organization',
				code: 'NOT_FOUND',
				httpStatus: 404,
			},
		});
		expect(output[2].json).toEqual({
			error: {
				message:
					'E-invoice ID "INV-2024-001" is not valid: expected an id starting with "einv_", for example einv_123',
				code: 'INVALID_ID',
				httpStatus: null,
			},
		});
		expect(output[3].json).toEqual({
			error: {
				message:
					'E-invoice ID is empty: received "   ", expected an id starting with "einv_", for example einv_123',
				code: 'INVALID_ID',
				httpStatus: null,
			},
		});
		// Invalid ids never reach the network.
		expect(apiRequests()).toBe(3);
	});

	it('without continue on fail: the first failing item stops the run with its index', async () => {
		const error = await run(mixed()).catch(
			(caught: Error & { context?: Record<string, unknown> }) => caught,
		);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(
			'E-invoice einv_missing was not found in Sandbox for this organization',
		);
		expect((error as { context: Record<string, unknown> }).context.itemIndex).toBe(1);
	});

	it('without continue on fail: an invalid id fails before any network call', async () => {
		const error = await run(['']).catch((caught: Error) => caught);
		expect((error as Error).message).toMatch(
			/E-invoice ID is empty: received nothing, expected an id starting with "einv_"/,
		);
		expect(apiRequests()).toBe(0);
	});

	it('an id that is a number but no safe non-negative integer fails its item, naming the value, before any network call', async () => {
		// 12345678901234567 as n8n holds it after parsing JSON: rounded to …568, another e-way bill.
		const ids = [NaN, -5, 1.5, Infinity, Number('12345678901234567')];
		const { output } = await run(ids, { resource: 'ewaybill', continueOnFail: true });
		expect(output.map((item) => item.json.error)).toEqual(
			['NaN', '-5', '1.5', 'Infinity', '12345678901234568'].map((shown) => ({
				message: expect.stringMatching(new RegExp(`^E-way bill ID ${shown} \\(a number\\) is `)),
				code: 'INVALID_ID',
				httpStatus: null,
			})),
		);
		expect((output[4].json.error as { message: string }).message).toMatch(
			/beyond JavaScript's safe integer range .* Pass the id as text/,
		);
		expect(apiRequests()).toBe(0);
	});

	it('Ignore Not Found outputs a marker item instead of failing', async () => {
		const { output } = await run(['einv_missing'], { nodeOptions: { ignoreNotFound: true } });
		expect(output).toEqual([
			{ json: { id: 'einv_missing', notFound: true }, pairedItem: { item: 0 } },
		]);
	});

	it('follows the plan when e-way bills are switched off and on at settings, without retrying the refusal', async () => {
		const { control } = emulator();
		control.setPlan(client.organizationId, 'einvoice');
		const refused = await run([ewaybill.id], { resource: 'ewaybill', continueOnFail: true });
		expect(refused.output[0].json.error).toMatchObject({ code: 'NOT_ENTITLED', httpStatus: 403 });
		expect((refused.output[0].json.error as { message: string }).message).toMatch(
			/^Your plan does not include e-way bills\./,
		);
		expect(apiRequests()).toBe(1);

		control.setPlan(client.organizationId, 'einvoice+ewaybill');
		const allowed = await run([ewaybill.id], { resource: 'ewaybill' });
		expect(allowed.output[0].json).toEqual(ewaybill);
	});

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
		expect(output[0].json.error).toMatchObject({ code: 'RATE_LIMITED', httpStatus: 429 });
		expect((output[0].json.error as { message: string }).message).toMatch(
			new RegExp(
				`rate-limiting this client \\(HTTP 429\\); gave up after ${attempts} attempts. Lower the node's Concurrency`,
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
						error: {
							message: `The GST Compliance API at ${host} refused the request (HTTP ${status}): Injected fault`,
							code: 'REQUEST_REJECTED',
							httpStatus: status,
						},
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
			expect(output[0].json.error).toEqual({
				message: `The request to the GST Compliance API at ${host} failed: it was redirected more than 10 times`,
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
				expect(output[0].json.error).toMatchObject({
					code: 'REQUEST_REJECTED',
					httpStatus: 401,
					message: `The GST Compliance API at ${host} refused the request (HTTP 401): who are you?`,
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
			expect(output[0].json.error).toMatchObject({
				code: 'REQUEST_REJECTED',
				httpStatus: 302,
				message: expect.stringContaining(`at ${host} refused the request (HTTP 302)`),
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
		expect(server.output[0].json.error).toEqual({
			message: `The GST Compliance API at ${host} failed with HTTP 502 on each of ${attempts} attempts. Try again later.`,
			code: 'SERVER_ERROR',
			httpStatus: 502,
		});
		emulator().control.injectApiFaults(
			Array.from({ length: attempts }, () => ({ kind: 'reset' as const })),
		);
		const network = await run([einvoice.id], { continueOnFail: true });
		expect(network.output[0].json.error).toMatchObject({
			code: 'API_UNREACHABLE',
			httpStatus: null,
		});
		expect((network.output[0].json.error as { message: string }).message).toContain(
			`Could not reach the GST Compliance API at ${host}`,
		);
	});
});

describe.each([
	[undefined, 5],
	[50, 20],
])('GST Compliance node: 1,000 ids with concurrency option %s', (concurrency, bound) => {
	// A fresh emulator per case: idle keep-alive sockets of an earlier case would count as open.
	const emulator = useEmulatorForPackage({ apiRateLimitPerMinute: 100_000 });

	it(`mints 1 token, keeps at most ${bound} requests in flight and returns items in input order`, async () => {
		const { control } = emulator();
		const client = control.createClient({ environment: 'sandbox' });
		const ids = Array.from(
			{ length: 40 },
			() =>
				control.createEinvoice({ organizationId: client.organizationId, environment: 'sandbox' })
					.id,
		);
		const items = Array.from({ length: 1000 }, (_, index) => ({
			json: { id: ids[index % ids.length] },
		}));
		const { context } = executeContext({
			items,
			credentials: { gstComplianceApi: credentialData(emulator(), client) },
			parameters: {
				resource: 'einvoice',
				operation: 'get',
				einvoiceId: ID_FROM_ITEM,
				options: concurrency === undefined ? {} : { concurrency },
			},
		});
		const [output] = await node.execute.call(context);
		expect(output).toHaveLength(1000);
		expect(
			output.every(
				(item, index) =>
					item.json.id === items[index].json.id &&
					(item.pairedItem as { item: number }).item === index,
			),
		).toBe(true);
		const counters = control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1000);
		expect(outbound.maxInFlight).toBe(bound);
		// Sockets: the HTTP client may open a spare connection while a finished one is being
		// returned to its pool, so the bound is loose; without the pool it would be ~1,000.
		expect(counters.maxConcurrentApiSockets).toBeGreaterThan(0);
		expect(counters.maxConcurrentApiSockets).toBeLessThanOrEqual(2 * bound);
	}, 120_000);
});
