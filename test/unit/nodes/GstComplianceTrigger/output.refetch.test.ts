/**
 * "Refetch Latest State" over the real path: n8n-core's WebhookContext runs the trigger's
 * webhook(), which verifies a signed delivery, then GETs the resource through the
 * `gstComplianceApi` credential's own authenticate (token from the emulator's token endpoint) and
 * n8n's request helper over real HTTP to the emulator's API host.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import type { ClientInfo } from '../../../emulator';
import { deliver, newWorkflow, signed } from '../../helpers/deliverToTrigger';
import {
	closedPortUrl,
	credentialData,
	useEmulatorForPackage,
} from '../../helpers/emulatorForPackage';

describe('Refetch Latest State against the emulator', () => {
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

	const send = async (envelope: Record<string, unknown>) =>
		await deliver({
			...signed(JSON.stringify(envelope), Math.floor(Date.now() / 1000)),
			refetch: true,
			apiCredential,
			workflow,
		});
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
		const result = await send(einvoiceEvent(invoice.id, 'evt_refetch_1'));
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
			const result = await send(einvoiceEvent(invoice.id, `evt_reuse_${i}`));
			expect(result.started![0].refetched).toMatchObject({ id: invoice.id });
		}
		expect(control.counters().tokenMints[client.clientId]).toBe(1);
	});

	it('GET refused (plan without e-way bills): the workflow starts with refetched null and the reason', async () => {
		const result = await send({
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
		const result = await send(event);
		expect(result.started).toEqual([
			expect.objectContaining({
				refetched: null,
				refetchError: expect.stringMatching(/E-invoice einv_missing was not found in Sandbox/),
			}),
		]);
		expect(await send(event)).toMatchObject({
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
		const result = await send(einvoiceEvent(invoice.id, 'evt_refetch_down'));
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
