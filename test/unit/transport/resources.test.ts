/** Resource ids checked locally, API paths built and read back, capability names. */
import {
	checkResourceId,
	capabilityName,
	describePath,
	resourcePath,
} from '../../../transport/resources';

describe('resource ids and paths', () => {
	it('checks e-invoice ids locally', () => {
		expect(checkResourceId('einvoice', ' einv_1 ')).toEqual({ ok: true, id: 'einv_1' });
		expect(checkResourceId('einvoice', 'einv_1/../x')).toMatchObject({ ok: false });
		expect(checkResourceId('einvoice', undefined)).toMatchObject({
			ok: false,
			message: expect.stringContaining('received nothing'),
		});
		expect(checkResourceId('ewaybill', 'ewb_1')).toEqual({ ok: true, id: 'ewb_1' });
		expect(checkResourceId('ewaybill', 123456789012)).toEqual({ ok: true, id: '123456789012' });
	});

	it('builds and reads resource paths, and names capabilities', () => {
		expect(resourcePath('einvoice', 'einv_a b')).toBe('/v1/einvoices/einv_a%20b');
		expect(describePath('/v1/ewaybills/ewb_1')).toEqual({ resource: 'ewaybill', id: 'ewb_1' });
		expect(describePath('/v1/other')).toBeUndefined();
		expect(capabilityName('ewaybill', 'x')).toBe('e-way bills');
		expect(capabilityName(undefined, 'e-invoices')).toBe('e-invoices');
		expect(capabilityName('bulk_export', 'x')).toBe('bulk_export');
	});
});
