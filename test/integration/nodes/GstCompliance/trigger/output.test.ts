/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The item an accepted event starts the workflow with when "Refetch Latest State" is on, over the
 * real path: n8n-core's WebhookContext runs the trigger's webhook(), which verifies a signed
 * delivery, then GETs the resource through the `gstComplianceApi` credential's own authenticate
 * (token from the emulator's token endpoint) and n8n's request helper over real HTTP to the
 * emulator's API host. A GET that fails, is refused or never answers starts the workflow anyway,
 * with `refetched: null` and the reason. The item without refetch is in webhook.test.ts.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import * as output from '@/nodes/GstCompliance/trigger/output';
const { REFETCH_BUDGET_MS } = output;
import * as apiRequest from '@/nodes/GstCompliance/transport/apiRequest';
import type { ClientInfo } from '@/test/emulator';
import { deliver, newWorkflow, signed } from '@/test/integration/helpers/deliverToTrigger';
import {
	closedPortUrl,
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';

// The shipped timeouts: on a loaded machine a 300 ms token timeout would re-mint and skew the
// counts.
const emulator = useEmulatorForPackage(
	{},
	{ tokenRequestTimeoutMs: 10_000, apiRequestTimeoutMs: 30_000 },
);
let client: ClientInfo;
let apiCredential: ICredentialDataDecryptedObject;
let workflow = newWorkflow();

beforeEach(() => {
	dedupeRegistry.clear();
	client = emulator().control.createClient({ environment: 'sandbox', plan: 'einvoice' });
	apiCredential = credentialData(emulator(), client);
	workflow = newWorkflow(`wf-refetch-${client.clientId}`);
});
afterEach(() => jest.restoreAllMocks());

const DUPLICATE = { status: 200, body: { received: true, duplicate: true }, started: undefined };
/** Sends an envelope, or a body as written (a number JSON.stringify cannot write, unrounded). */
const send = async (envelope: Record<string, unknown> | string) =>
	await deliver({
		...signed(
			typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
			Math.floor(Date.now() / 1000),
		),
		refetch: true,
		apiCredential,
		workflow,
	});
const einvoiceEvent = (id: unknown, eventId: string) => ({
	id: eventId,
	type: 'einvoice.generated',
	createdAt: new Date().toISOString(),
	data: { id, object: 'einvoice', status: 'generated' },
});
const newEinvoice = () =>
	emulator().control.createEinvoice({
		organizationId: client.organizationId,
		environment: 'sandbox',
	});
const apiCalls = () => emulator().control.counters().apiCalls[client.clientId] ?? 0;

describe('adding the resource as the API returns it now', () => {
	it('webhook() with refetch on → refetched is the e-invoice now, the event’s data as sent; one token, one GET', async () => {
		const { control } = emulator();
		const invoice = newEinvoice();
		control.setEinvoiceStatus(invoice.id, 'cancelled');
		const get = jest.spyOn(apiRequest, 'gstApiRequest');
		const result = await send(einvoiceEvent(invoice.id, 'evt_refetch_1'));
		expect(result.status).toBe(202);
		expect(result.started).toHaveLength(1);
		const [item] = result.started!;
		expect(item.data).toMatchObject({ id: invoice.id, status: 'generated' });
		expect(item.refetched).toEqual({ ...invoice, status: 'cancelled' });
		expect(item).not.toHaveProperty('refetchError');
		expect(get).toHaveBeenCalledWith('GET', `/v1/einvoices/${invoice.id}`);
		const counters = control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1);
	});

	it('webhook() for an e-way bill event → GET /v1/ewaybills/<id>, refetched is the e-way bill', async () => {
		const { control } = emulator();
		control.setPlan(client.organizationId, 'einvoice+ewaybill');
		const ewaybill = control.createEwaybill({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const get = jest.spyOn(apiRequest, 'gstApiRequest');
		const result = await send({
			id: 'evt_refetch_ewb',
			type: 'ewaybill.generated',
			data: { id: ewaybill.id, object: 'ewaybill', status: 'generated' },
		});
		expect(get).toHaveBeenCalledWith('GET', `/v1/ewaybills/${encodeURIComponent(ewaybill.id)}`);
		expect(result.started).toEqual([expect.objectContaining({ refetched: ewaybill })]);
	});

	it('webhook() × 3 events → one token for all three GETs', async () => {
		for (let i = 0; i < 3; i++) {
			const invoice = newEinvoice();
			const result = await send(einvoiceEvent(invoice.id, `evt_reuse_${i}`));
			expect(result.started![0].refetched).toMatchObject({ id: invoice.id });
		}
		expect(emulator().control.counters().tokenMints[client.clientId]).toBe(1);
	});

	it('webhook() with a redelivery of a refetched event → duplicate, no second GET', async () => {
		const invoice = newEinvoice();
		expect((await send(einvoiceEvent(invoice.id, 'evt_once'))).started).toHaveLength(1);
		expect(await send(einvoiceEvent(invoice.id, 'evt_once'))).toEqual(DUPLICATE);
		expect(apiCalls()).toBe(1);
	});
});

describe('starting with refetched null and the reason when the GET cannot be made', () => {
	it('webhook() for an event type naming no resource → the reason, no GET', async () => {
		const result = await send({ id: 'evt_future', type: 'gstr1.filed', data: { id: 'x' } });
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: 'Events of type gstr1.filed name no resource this node can fetch',
			}),
		]);
		expect(apiCalls()).toBe(0);
	});

	it.each([
		[undefined, 'E-invoice ID is empty: received nothing'],
		['   ', 'E-invoice ID is empty: received "   "'],
		[42, 'E-invoice ID 42 is a number, and e-invoice IDs are text'],
		['ewb_1', 'E-invoice ID "ewb_1" is not valid'],
		['einv_../x', 'E-invoice ID "einv_../x" is not a valid id: it contains a slash'],
	])('webhook() with data.id %p → refetchError "%s…", no GET', async (resourceId, reason) => {
		const result = await send(einvoiceEvent(resourceId, 'evt_bad_id'));
		expect(result.status).toBe(202);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringContaining(reason),
			}),
		]);
		expect(result.started![0].refetchError).toMatch(
			/expected an id starting with "einv_", for example einv_123$/i,
		);
		expect(apiCalls()).toBe(0);
	});

	it.each([
		['-5', '-5', 'is not a valid id: a number used as an id must be a whole number'],
		['1.5', '1.5', 'is not a valid id: a number used as an id must be a whole number'],
		// JSON.parse rounds it: a GET would fetch …568, another e-way bill, with the token.
		['12345678901234567', '12345678901234568', "is beyond JavaScript's safe integer range"],
	])(
		'webhook() with data.id the JSON number %s → refetchError naming %s, no GET',
		async (written, shown, reason) => {
			const body = `{"id":"evt_number_${written}","type":"ewaybill.generated","data":{"id":${written},"object":"ewaybill","status":"generated"}}`;
			const result = await send(body);
			expect(result.status).toBe(202);
			expect(result.started).toEqual([
				expect.objectContaining({
					refetched: null,
					refetchError: expect.stringContaining(`E-way bill ID ${shown} (a number) ${reason}`),
				}),
			]);
			expect(apiCalls()).toBe(0);
		},
	);
});

describe('starting with refetched null and the reason when the GET fails', () => {
	it('webhook() whose GET is refused (plan without e-way bills) → the API’s reason', async () => {
		const result = await send({
			id: 'evt_refetch_403',
			type: 'ewaybill.generated',
			data: { id: 'ewb_1', object: 'ewaybill', status: 'generated' },
		});
		expect(result.status).toBe(202);
		expect(result.started).toEqual([
			expect.objectContaining({
				id: 'evt_refetch_403',
				refetched: null,
				refetchError: expect.stringMatching(/Your plan does not include e-way bills/),
			}),
		]);
	});

	it('webhook() whose resource does not exist → "not found", and the id stays remembered', async () => {
		const event = einvoiceEvent('einv_missing', 'evt_refetch_404');
		const result = await send(event);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringMatching(/E-invoice einv_missing was not found in Sandbox/),
			}),
		]);
		expect(await send(event)).toEqual(DUPLICATE);
	});

	it('webhook() with the API host unreachable → "connection refused", after the bounded retries', async () => {
		apiCredential = { ...apiCredential, sandboxApiUrl: await closedPortUrl() };
		const result = await send(einvoiceEvent(newEinvoice().id, 'evt_refetch_down'));
		expect(result.status).toBe(202);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringMatching(
					/Could not reach the GST Compliance API at 127\.0\.0\.1:\d+: the connection was refused/,
				),
			}),
		]);
	});

	it('webhook() whose GET outlasts REFETCH_BUDGET_MS (60 s) → "did not answer within 60 s"', async () => {
		// The GET never answers; the budget's signal aborts at once instead of after 60 s.
		jest
			.spyOn(apiRequest, 'gstApiRequest')
			.mockImplementationOnce(async () => await new Promise<never>(() => {}));
		const budgets: number[] = [];
		jest.spyOn(AbortSignal, 'timeout').mockImplementationOnce((ms: number) => {
			budgets.push(ms);
			const controller = new AbortController();
			void Promise.resolve().then(() => controller.abort());
			return controller.signal;
		});
		const result = await send(einvoiceEvent(newEinvoice().id, 'evt_refetch_slow'));
		expect(budgets).toEqual([REFETCH_BUDGET_MS]);
		expect(REFETCH_BUDGET_MS).toBe(60_000);
		expect(result).toMatchObject({ status: 202, body: { received: true } });
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: 'The API did not answer within 60 s',
			}),
		]);
	});
});

describe('executions that end empty spend no GET', () => {
	it('an execution of an event another execution started (its delivery taken again past the Start Deadline) → ends empty without a GET', async () => {
		const invoice = newEinvoice();
		const event = einvoiceEvent(invoice.id, 'evt_refetch_twice');
		const realNow = Date.now();
		let now = realNow;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		const deliverIt = async () =>
			await deliver({
				...signed(JSON.stringify(event), Math.floor(now / 1000)),
				refetch: true,
				apiCredential,
				workflow,
				execution: 'later',
			});
		const first = await deliverIt();
		now = realNow + 31 * 60_000; // past the Start Deadline: the copy is taken again
		const retaken = await deliverIt();
		now = realNow;
		expect((await retaken.execution!()).items).toEqual([
			expect.objectContaining({ refetched: expect.objectContaining({ id: invoice.id }) }),
		]);
		const callsBefore = apiCalls();
		const empty = await first.execution!();
		expect(empty).toEqual({
			items: [],
			hints: [expect.stringContaining('"evt_refetch_twice" was already started')],
		});
		expect(apiCalls()).toBe(callsBefore);
	});
});

describe('the item the webhook hands its execution', () => {
	const event = {
		id: 'evt_1',
		type: 'einvoice.generated',
		createdAt: '2025-01-15T04:29:59Z',
		data: { id: 'einv_1' },
	};

	const acceptance = { token: 'tok-1', process: 'proc-1', acceptedMs: 1_700_000_000_000 };

	it('deliveredItem → deliveredEvent gives the envelope and its acceptance back, and the accepting process’s notice when there is one', () => {
		const through = (item: object) => JSON.parse(JSON.stringify(item)) as IDataObject;
		expect(output.deliveredEvent(through(output.deliveredItem(event, acceptance)))).toEqual({
			event,
			acceptance,
		});
		expect(
			output.deliveredEvent(
				through(output.deliveredItem(event, { ...acceptance, notice: 'attach Redis' })),
			),
		).toEqual({ event, acceptance, notice: 'attach Redis' });
	});

	it('deliveredEvent of an item without a whole acceptance (queued by an earlier version) → the envelope alone', () => {
		const item = (mark: unknown) => ({
			[output.DELIVERED_FIELD]: { ...event, acceptance: mark },
		});
		for (const mark of [
			undefined,
			'tok',
			{ ...acceptance, token: 1 },
			{ ...acceptance, process: null },
			{ ...acceptance, acceptedMs: 'now' },
		])
			expect(output.deliveredEvent(item(mark))).toEqual({ event });
	});

	it('deliveredEvent of an item the webhook did not make (no field, no id, no type) → undefined; a missing createdAt or data → undefined and {}', () => {
		expect(output.deliveredEvent({ id: 'evt_1' })).toBeUndefined();
		expect(output.deliveredEvent({ [output.DELIVERED_FIELD]: 'x' })).toBeUndefined();
		expect(output.deliveredEvent({ [output.DELIVERED_FIELD]: { type: 't' } })).toBeUndefined();
		expect(output.deliveredEvent({ [output.DELIVERED_FIELD]: { id: 'e' } })).toBeUndefined();
		expect(output.deliveredEvent({ [output.DELIVERED_FIELD]: { id: 'e', type: 't' } })).toEqual({
			event: { id: 'e', type: 't', createdAt: undefined, data: {} },
		});
	});
});
