/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The action node run by n8n-core against the emulator over real HTTP. */
import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import type { ClientInfo, Einvoice, Ewaybill } from '@/test/emulator';
import { executeContext } from '@/test/integration/helpers/executeNode';
import { ID_FROM_ITEM, runGet, type GetOptions } from '@/test/integration/helpers/runGet';
import { recordOutboundRequests } from '@/test/integration/helpers/outboundRequests';
import {
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';

const node = new GstCompliance();
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

	const run = async (ids: unknown[], options: GetOptions = {}) =>
		await runGet(emulator(), client, ids, options);
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
			error:
				"E-invoice einv_missing was not found in Sandbox for this organization. Check the ID and the credential's Environment (a sandbox ID is not found in Production), or turn on the node's Ignore Not Found option.",
			code: 'NOT_FOUND',
			httpStatus: 404,
		});
		expect(output[2].json).toEqual({
			error:
				'E-invoice ID "INV-2024-001" is not valid: expected an id starting with "einv_", for example einv_123',
			code: 'INVALID_ID',
			httpStatus: null,
		});
		expect(output[3].json).toEqual({
			error:
				'E-invoice ID is empty: received "   ", expected an id starting with "einv_", for example einv_123',
			code: 'INVALID_ID',
			httpStatus: null,
		});
		// Invalid ids never reach the network.
		expect(apiRequests()).toBe(3);
	});

	it('without continue on fail: the first failing item stops the run with its index', async () => {
		const error = await run(mixed()).catch(
			(caught: Error & { context?: Record<string, unknown> }) => caught,
		);
		expect(error).toBeInstanceOf(Error);
		// n8n shows the message as the red title, the description under it.
		expect({
			message: (error as Error).message,
			description: (error as { description?: string }).description,
		}).toEqual({
			message: 'E-invoice einv_missing was not found in Sandbox for this organization.',
			description:
				"Check the ID and the credential's Environment (a sandbox ID is not found in Production), or turn on the node's Ignore Not Found option. The service said: Not found",
		});
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
		expect(output.map((item) => item.json)).toEqual(
			['NaN', '-5', '1.5', 'Infinity', '12345678901234568'].map((shown) => ({
				error: expect.stringMatching(new RegExp(`^E-way bill ID ${shown} \\(a number\\) is `)),
				code: 'INVALID_ID',
				httpStatus: null,
			})),
		);
		expect(output[4].json.error).toMatch(
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
		expect(refused.output[0].json).toMatchObject({ code: 'NOT_ENTITLED', httpStatus: 403 });
		expect(refused.output[0].json.error).toMatch(/^Your plan does not include e-way bills\./);
		expect(apiRequests()).toBe(1);

		control.setPlan(client.organizationId, 'einvoice+ewaybill');
		const allowed = await run([ewaybill.id], { resource: 'ewaybill' });
		expect(allowed.output[0].json).toEqual(ewaybill);
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
