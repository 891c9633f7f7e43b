/**
 * "Refetch Latest State" over the real path: the trigger's webhook() verifies a signed delivery,
 * then GETs the resource through the `gstComplianceApi` credential's own authenticate (token from
 * the emulator's token endpoint) and real HTTP to the emulator's API host.
 */
// @ts-nocheck

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { GstComplianceTrigger } from '../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import { formatSignatureHeader, sign } from '../../../../nodes/GstComplianceTrigger/signature';
import type { ClientInfo } from '../../../emulator';
import { httpRequest } from '../../helpers/n8nHttp';
import { closedPortUrl, credentialData, useEmulator } from '../../helpers/gstEmulator';

const SECRET = 'whsec_refetch_0123456789abcdefghij';
const node = new GstComplianceTrigger();

interface Delivered {
	status: number;
	body: unknown;
	started?: IDataObject[];
}

describe('Refetch Latest State against the emulator', () => {
	// The shipped timeouts: on a loaded machine a 300 ms token timeout would re-mint and skew the counts.
	const emulator = useEmulator({}, { tokenRequestTimeoutMs: 10_000, apiRequestTimeoutMs: 30_000 });
	let client: ClientInfo;
	let apiCredential: IDataObject;
	let workflowId = 0;

	beforeEach(() => {
		dedupeRegistry.clear();
		client = emulator().control.createClient({ environment: 'sandbox', plan: 'einvoice' });
		apiCredential = credentialData(emulator(), client);
		workflowId++;
	});

	/** The node's webhook() with n8n's request helper, both credentials and refetch on. */
	const deliver = async (envelope: Record<string, unknown>): Promise<Delivered> => {
		const body = Buffer.from(JSON.stringify(envelope));
		const t = Math.floor(Date.now() / 1000);
		const headers = { 'service-signature': formatSignatureHeader(t, [sign(SECRET, t, body)]) };
		const response = { status: 0, body: undefined as unknown };
		const parameters: IDataObject = { events: ['*'], options: {}, refetch: true };
		const staticData: IDataObject = {};
		const context = {
			getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
			getCredentials: async (type: string) => {
				if (type === 'gstComplianceWebhookApi') return { signingSecret: SECRET };
				if (type === 'gstComplianceApi') return { ...apiCredential };
				throw new Error(`no ${type} credential`);
			},
			getRequestObject: () => ({ rawBody: body, headers }),
			getResponseObject: () => ({
				status(code: number) {
					response.status = code;
					return this;
				},
				json(json: unknown) {
					response.body = json;
					return this;
				},
			}),
			getHeaderData: () => headers,
			getMode: () => 'webhook',
			getWorkflow: () => ({ id: `wf-refetch-${workflowId}`, active: true }),
			getNode: () => ({ id: 'trigger-1', name: 'GST Compliance Trigger' }),
			getWorkflowStaticData: () => staticData,
			logger: { debug() {}, info() {}, warn() {}, error() {} },
			helpers: { httpRequest: async (options: never) => await httpRequest(options) },
		} as unknown as IWebhookFunctions;
		const result = await node.webhook.call(context);
		const started = result.workflowData?.[0]?.map((item) => item.json);
		if (result.noWebhookResponse) return { ...response, started };
		return { status: 200, body: result.webhookResponse, started };
	};

	const einvoiceEvent = (id: string, eventId: string) => ({
		id: eventId,
		type: 'einvoice.generated',
		createdAt: new Date().toISOString(),
		data: { id, object: 'einvoice', status: 'generated' },
	});

	it('adds the resource as the API returns it now, not as the event described it', async () => {
		const { control } = emulator();
		const invoice = control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		control.setEinvoiceStatus(invoice.id, 'cancelled');
		const result = await deliver(einvoiceEvent(invoice.id, 'evt_refetch_1'));
		expect(result.status).toBe(200);
		expect(result.started).toHaveLength(1);
		const [item] = result.started!;
		expect(item.data).toMatchObject({ id: invoice.id, status: 'generated' });
		expect(item.refetched).toEqual({ ...invoice, status: 'cancelled' });
		expect(item).not.toHaveProperty('refetchError');
		const counters = control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1);
	});

	it('reuses one token for later deliveries', async () => {
		const { control } = emulator();
		for (let i = 0; i < 3; i++) {
			const invoice = control.createEinvoice({
				organizationId: client.organizationId,
				environment: 'sandbox',
			});
			const result = await deliver(einvoiceEvent(invoice.id, `evt_reuse_${i}`));
			expect(result.started![0].refetched).toMatchObject({ id: invoice.id });
		}
		expect(control.counters().tokenMints[client.clientId]).toBe(1);
	});

	it('GET refused (plan without e-way bills): the workflow starts with refetched null and the reason', async () => {
		const result = await deliver({
			id: 'evt_refetch_403',
			type: 'ewaybill.generated',
			data: { id: 'ewb_1', object: 'ewaybill', status: 'generated' },
		});
		expect(result.status).toBe(200);
		expect(result.started).toEqual([
			expect.objectContaining({
				id: 'evt_refetch_403',
				refetched: null,
				refetchError: expect.stringMatching(/Your plan does not include e-way bills/),
			}),
		]);
	});

	it('GET of a resource that does not exist: refetched null, and the id stays claimed', async () => {
		const event = einvoiceEvent('einv_missing', 'evt_refetch_404');
		const result = await deliver(event);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringMatching(/E-invoice einv_missing was not found in Sandbox/),
			}),
		]);
		expect(await deliver(event)).toMatchObject({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('API host unreachable: refetched null with the reason, after the bounded retries', async () => {
		apiCredential = { ...apiCredential, sandboxApiUrl: await closedPortUrl() };
		const invoice = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const result = await deliver(einvoiceEvent(invoice.id, 'evt_refetch_down'));
		expect(result.status).toBe(200);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringMatching(
					/Could not reach the GST Compliance API at 127\.0\.0\.1:\d+: the connection was refused/,
				),
			}),
		]);
	});
});
