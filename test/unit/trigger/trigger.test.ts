import { CredentialTestContext } from 'n8n-core';
import type { ICredentialsDecrypted } from 'n8n-workflow';

import { dedupeRegistry } from '../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { EVENT_TYPES } from '../../../nodes/GstComplianceTrigger/events';
import { gstApiRequest } from '../../../transport/apiRequest';
import { GstComplianceTrigger } from '../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import { checkSigningSecrets } from '../../../nodes/GstComplianceTrigger/secretCheck';
import { GstComplianceWebhookApi } from '../../../credentials/GstComplianceWebhookApi.credentials';
import { formatSignatureHeader, sign } from '../../../nodes/GstComplianceTrigger/signature';
import {
	deliver,
	envelope,
	hookContext,
	newWorkflow,
	NOW_MS,
	NOW_S,
	PREVIOUS_SECRET,
	SECRET,
	signed,
} from '../helpers/deliverToTrigger';

jest.mock('../../../transport/apiRequest', () => ({ gstApiRequest: jest.fn() }));
const refetchMock = gstApiRequest as unknown as jest.Mock;

const HOUR = 3_600_000;
let now = NOW_MS;
beforeEach(() => {
	now = NOW_MS;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	dedupeRegistry.clear();
	refetchMock.mockReset();
});
afterEach(() => jest.restoreAllMocks());

const event = (id: string, overrides: Record<string, unknown> = {}) =>
	JSON.stringify(envelope({ id, ...overrides }));
/** A delivery signed at the (stubbed) current time. */
const fresh = (body: string) => signed(body, Math.floor(now / 1000));
/** What n8n does to static data across a restart: save it as JSON, load it back. */
const restart = (workflow: ReturnType<typeof newWorkflow>) => {
	dedupeRegistry.clear();
	workflow.staticData = JSON.parse(JSON.stringify(workflow.staticData));
};

describe('an accepted delivery', () => {
	it('answers 200 {received:true} and starts one item with the envelope', async () => {
		const result = await deliver(fresh(event('evt_1')));
		expect(result.status).toBe(200);
		expect(result.body).toEqual({ received: true });
		expect(result.started).toEqual([
			{
				id: 'evt_1',
				type: 'einvoice.generated',
				createdAt: '2025-01-15T04:29:59Z',
				data: { id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
			},
		]);
	});

	it('outputs data alone with the Data Only shape', async () => {
		const result = await deliver({ ...fresh(event('evt_1')), options: { outputShape: 'data' } });
		expect(result.started).toEqual([
			{ id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
		]);
	});

	it('starts each selected type, and only those', async () => {
		const selected = ['einvoice.failed', 'ewaybill.rejected'];
		for (const { value } of EVENT_TYPES) {
			const result = await deliver({
				...fresh(event(`evt_${value}`, { type: value })),
				events: selected,
			});
			expect(result.status).toBe(200);
			expect(result.started !== undefined).toBe(selected.includes(value));
		}
	});

	it('accepts a header with several v1 of which one is valid, in any order, with spaces', async () => {
		const body = event('evt_1');
		const header = ` v1=${'0'.repeat(64)} , v1=${sign(SECRET, NOW_S, body)} , t=${NOW_S} `;
		const result = await deliver({ body, headers: { 'service-signature': header } });
		expect(result.started).toHaveLength(1);
	});

	it('accepts t up to the configured tolerance, and not beyond', async () => {
		const options = { toleranceSeconds: 30 };
		expect(
			(await deliver({ ...signed(event('evt_1'), NOW_S - 30), options })).started,
		).toHaveLength(1);
		expect((await deliver({ ...signed(event('evt_2'), NOW_S - 31), options })).status).toBe(401);
		expect((await deliver({ ...signed(event('evt_3'), NOW_S - 299) })).started).toHaveLength(1);
	});
});

describe('secret rotation', () => {
	const credentials = { signingSecret: SECRET, previousSigningSecret: PREVIOUS_SECRET };

	it('accepts deliveries signed with the previous secret while it is set', async () => {
		const result = await deliver({
			...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
			credentials,
		});
		expect(result.started).toHaveLength(1);
	});

	it('accepts the service’s double signature (new and old v1) during the overlap', async () => {
		const body = event('evt_both');
		const header = formatSignatureHeader(NOW_S, [
			sign(SECRET, NOW_S, body),
			sign(PREVIOUS_SECRET, NOW_S, body),
		]);
		const result = await deliver({ body, headers: { 'service-signature': header }, credentials });
		expect(result.started).toHaveLength(1);
	});

	it('rejects the previous secret once it is cleared from the credential', async () => {
		const result = await deliver({
			...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
			credentials: { signingSecret: SECRET, previousSigningSecret: '' },
		});
		expect(result.status).toBe(401);
	});
});

describe('dedupe through the node', () => {
	it('answers a redelivery 200 {duplicate:true} and starts nothing', async () => {
		const workflow = newWorkflow();
		expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
		now += 60_000;
		const again = await deliver({ ...fresh(event('evt_1')), workflow });
		expect(again).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
			started: undefined,
		});
	});

	it('starts exactly one of 20 concurrent deliveries of one id', async () => {
		const workflow = newWorkflow();
		const results = await Promise.all(
			Array.from({ length: 20 }, () => deliver({ ...fresh(event('evt_race')), workflow })),
		);
		expect(results.every((r) => r.status === 200)).toBe(true);
		expect(results.filter((r) => r.started)).toHaveLength(1);
		expect(results.filter((r) => (r.body as { duplicate?: boolean }).duplicate)).toHaveLength(19);
	});

	it('still knows the ids after a restart, from the persisted static data', async () => {
		const workflow = newWorkflow();
		for (const id of ['evt_a', 'evt_b', 'evt_c']) await deliver({ ...fresh(event(id)), workflow });
		restart(workflow);
		expect((await deliver({ ...fresh(event('evt_b')), workflow })).body).toEqual({
			received: true,
			duplicate: true,
		});
		expect((await deliver({ ...fresh(event('evt_d')), workflow })).started).toHaveLength(1);
	});

	it('forgets an id after the window (24 h + tolerance by default), not before', async () => {
		const workflow = newWorkflow();
		await deliver({ ...fresh(event('evt_1')), workflow });
		now += 24 * HOUR + 4 * 60_000;
		expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toBeUndefined();
		now += 3 * 60_000;
		expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
	});

	it('uses the configured window', async () => {
		const workflow = newWorkflow();
		const options = { dedupeWindowHours: 1 };
		await deliver({ ...fresh(event('evt_1')), workflow, options });
		now += 2 * HOUR;
		expect((await deliver({ ...fresh(event('evt_1')), workflow, options })).started).toHaveLength(
			1,
		);
	});

	it('keeps test-URL deliveries apart from production, and persists nothing for them', async () => {
		const workflow = newWorkflow();
		const test = await deliver({ ...fresh(event('evt_1')), workflow, mode: 'manual' });
		expect(test.started).toHaveLength(1);
		expect(workflow.staticData).toEqual({});
		expect(
			(await deliver({ ...fresh(event('evt_1')), workflow, mode: 'manual' })).started,
		).toBeUndefined();

		expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
		expect((await deliver({ ...fresh(event('evt_2')), workflow })).started).toHaveLength(1);
		expect(
			(await deliver({ ...fresh(event('evt_2')), workflow, mode: 'manual' })).started,
		).toHaveLength(1);
	});

	it('keeps workflows apart', async () => {
		expect(
			(await deliver({ ...fresh(event('evt_1')), workflow: newWorkflow('wf1') })).started,
		).toHaveLength(1);
		expect(
			(await deliver({ ...fresh(event('evt_1')), workflow: newWorkflow('wf2') })).started,
		).toHaveLength(1);
	});
});

describe('Refetch Latest State', () => {
	it('adds the resource as it is now', async () => {
		const latest = { id: 'einv_1', object: 'einvoice', status: 'cancelled' };
		refetchMock.mockResolvedValue(latest);
		const result = await deliver({ ...fresh(event('evt_1')), refetch: true });
		expect(refetchMock).toHaveBeenCalledWith('GET', '/v1/einvoices/einv_1');
		expect(result.started?.[0]).toMatchObject({
			id: 'evt_1',
			data: { status: 'generated' },
			refetched: latest,
		});
	});

	it('GETs e-way bills from their own path', async () => {
		refetchMock.mockResolvedValue({ id: 'ewb_9' });
		await deliver({
			...fresh(event('evt_1', { type: 'ewaybill.expired', data: { id: 'ewb_9' } })),
			refetch: true,
		});
		expect(refetchMock).toHaveBeenCalledWith('GET', '/v1/ewaybills/ewb_9');
	});

	it('still starts, with the error, when the GET fails (the id is already claimed)', async () => {
		refetchMock.mockRejectedValue(new Error('Your plan does not include e-way bills'));
		const result = await deliver({ ...fresh(event('evt_1')), refetch: true });
		expect(result.status).toBe(200);
		expect(result.started?.[0]).toMatchObject({
			refetched: null,
			refetchError: 'Your plan does not include e-way bills',
		});
	});

	it('explains when the event names no resource it can fetch', async () => {
		const result = await deliver({
			...fresh(event('evt_1', { type: 'gstr1.filed' })),
			refetch: true,
		});
		expect(refetchMock).not.toHaveBeenCalled();
		expect(result.started?.[0]).toMatchObject({ refetched: null });
	});

	it('does not GET for a duplicate', async () => {
		refetchMock.mockResolvedValue({});
		const workflow = newWorkflow();
		await deliver({ ...fresh(event('evt_1')), refetch: true, workflow });
		await deliver({ ...fresh(event('evt_1')), refetch: true, workflow });
		expect(refetchMock).toHaveBeenCalledTimes(1);
	});
});

describe('webhook credential test', () => {
	it.each([
		[{ signingSecret: 'whsec_0123456789abcdef' }, 'OK'],
		[
			{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'whsec_fedcba9876543210' },
			'OK',
		],
		[{ signingSecret: '' }, 'Error'],
		[{}, 'Error'],
		[{ signingSecret: ' whsec_0123456789abcdef' }, 'Error'],
		[{ signingSecret: 'whsec_0123456789abcdef\n' }, 'Error'],
		[{ signingSecret: 'short' }, 'Error'],
		[{ signingSecret: 'x'.repeat(513) }, 'Error'],
		[{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'tiny' }, 'Error'],
		[
			{ signingSecret: 'whsec_0123456789abcdef', previousSigningSecret: 'whsec_0123456789abcdef' },
			'Error',
		],
	])('case %# → %s', (data, status) => {
		expect(checkSigningSecrets(data).status).toBe(status);
	});

	it('says the check is local, and never repeats the secret', async () => {
		const node = new GstComplianceTrigger();
		const secret = 'whsec_0123456789abcdef';
		const ok = await node.methods.credentialTest.gstComplianceWebhookSecretCheck.call(
			new CredentialTestContext(),
			{ data: { signingSecret: secret } } as unknown as ICredentialsDecrypted,
		);
		expect(ok).toEqual({ status: 'OK', message: expect.stringContaining('locally') });
		const bad = checkSigningSecrets({ signingSecret: `${secret} ` });
		expect(bad.message).not.toContain(secret);
	});
});

describe('node and credential description', () => {
	const node = new GstComplianceTrigger();

	it('is a POST webhook trigger that answers on receipt', () => {
		expect(node.description.name).toBe('gstComplianceTrigger');
		expect(node.description.inputs).toEqual([]);
		expect(node.description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		]);
	});

	it('offers the seven event types plus All Events', () => {
		const events = node.description.properties.find((p) => p.name === 'events');
		expect(events?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual([
			'*',
			...EVENT_TYPES.map((e) => e.value),
		]);
	});

	it('tests its webhook credential locally, shows the API credential only for refetch, and takes an optional Redis', () => {
		expect(node.description.credentials).toEqual([
			{
				name: 'gstComplianceWebhookApi',
				required: true,
				testedBy: 'gstComplianceWebhookSecretCheck',
			},
			{
				name: 'gstComplianceApi',
				required: false,
				displayOptions: { show: { refetch: [true] } },
				testedBy: 'testGstComplianceCredentials',
			},
			{
				name: 'gstComplianceRedisApi',
				required: false,
				testedBy: 'gstComplianceRedisCheck',
			},
		]);
	});

	it('registers nothing remotely: the lifecycle hooks are local no-ops', async () => {
		const hooks = node.webhookMethods.default;
		const context = hookContext('activate');
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});

	it('keeps the signing secrets in password fields', () => {
		const credential = new GstComplianceWebhookApi();
		expect(credential.name).toBe('gstComplianceWebhookApi');
		expect(credential.properties.map((p) => [p.name, p.typeOptions?.password])).toEqual([
			['signingSecret', true],
			['previousSigningSecret', true],
		]);
	});
});
