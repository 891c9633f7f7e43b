/**
 * What an accepted delivery starts the workflow with when Refetch Latest State is on: the resource
 * as the API returns it now, fetched through the transport (mocked here; the transport has its own
 * tests against the emulator).
 */
import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { gstApiRequest } from '../../../../transport/apiRequest';
import { deliver, envelope, newWorkflow, NOW_MS, signed } from '../../helpers/deliverToTrigger';

jest.mock('../../../../transport/apiRequest', () => ({ gstApiRequest: jest.fn() }));
const refetchMock = gstApiRequest as unknown as jest.Mock;

beforeEach(() => {
	jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
	dedupeRegistry.clear();
	refetchMock.mockReset();
});
afterEach(() => jest.restoreAllMocks());

const event = (id: string, overrides: Record<string, unknown> = {}) =>
	JSON.stringify(envelope({ id, ...overrides }));
const fresh = (body: string) => signed(body);

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
