/**
 * The exact messages a user reads in the n8n editor for a refused resource id, the API paths read
 * back into a resource and id, and the capability names a service rejection is mapped to.
 */
import { capabilityName, checkResourceId, describePath } from '../../../transport/resources';

const EINVOICE_EXPECTED = 'expected an id starting with "einv_", for example einv_123';
const SEGMENT_RULE =
	'is not a valid id: it contains a slash, backslash, "?", "#", "%", ";", whitespace or a ' +
	'control character, or is only dots. Expected';

describe('empty resource ids', () => {
	it.each([undefined, null, ''])('an e-invoice id of %j is reported as nothing received', (raw) => {
		expect(checkResourceId('einvoice', raw)).toEqual({
			ok: false,
			message: `E-invoice ID is empty: received nothing, ${EINVOICE_EXPECTED}`,
		});
	});

	it('an e-way bill id left empty asks for an id, as e-way bills have no prefix', () => {
		expect(checkResourceId('ewaybill', undefined)).toEqual({
			ok: false,
			message: 'E-way bill ID is empty: received nothing, expected an id',
		});
	});

	it('an id of only whitespace, or of a type that is no id, shows what was received', () => {
		expect(checkResourceId('einvoice', '   ')).toEqual({
			ok: false,
			message: `E-invoice ID is empty: received "   ", ${EINVOICE_EXPECTED}`,
		});
		expect(checkResourceId('ewaybill', { id: 1 })).toEqual({
			ok: false,
			message: 'E-way bill ID is empty: received {"id":1}, expected an id',
		});
	});
});

describe('e-invoice id prefix', () => {
	it('an e-invoice id without the "einv_" prefix is refused with the expected form', () => {
		expect(checkResourceId('einvoice', ' inv_1 ')).toEqual({
			ok: false,
			message: `E-invoice ID "inv_1" is not valid: ${EINVOICE_EXPECTED}`,
		});
	});

	it('the prefix is required at the start, not anywhere in the id', () => {
		expect(checkResourceId('einvoice', 'x_einv_1').ok).toBe(false);
	});

	it('e-way bill ids need no prefix', () => {
		expect(checkResourceId('ewaybill', 'inv_1')).toEqual({ ok: true, id: 'inv_1' });
	});
});

describe('ids that are not one path segment', () => {
	it('the message names the id, the forbidden characters and the expected form', () => {
		expect(checkResourceId('ewaybill', 'a/b')).toEqual({
			ok: false,
			message: `E-way bill ID "a/b" ${SEGMENT_RULE} an id`,
		});
		expect(checkResourceId('einvoice', 'einv_a?b')).toEqual({
			ok: false,
			message: `E-invoice ID "einv_a?b" ${SEGMENT_RULE} ${EINVOICE_EXPECTED.replace('expected ', '')}`,
		});
	});
});

describe('long ids in messages', () => {
	it('an id of 80 characters is shown whole', () => {
		const id = 'x'.repeat(80);
		expect(checkResourceId('einvoice', id)).toEqual({
			ok: false,
			message: `E-invoice ID "${id}" is not valid: ${EINVOICE_EXPECTED}`,
		});
	});

	it('an id of 81 characters is cut to its first 80 and an ellipsis', () => {
		const id = `${'x'.repeat(80)}y`;
		expect(checkResourceId('einvoice', id)).toEqual({
			ok: false,
			message: `E-invoice ID "${'x'.repeat(80)}…" is not valid: ${EINVOICE_EXPECTED}`,
		});
		const slashed = `a/${'b'.repeat(100)}`;
		expect(checkResourceId('ewaybill', slashed)).toEqual({
			ok: false,
			message: `E-way bill ID "${slashed.slice(0, 80)}…" ${SEGMENT_RULE} an id`,
		});
	});
});

describe('reading a resource path', () => {
	it('maps both collections to their resource', () => {
		expect(describePath('/v1/einvoices/einv_1')).toEqual({ resource: 'einvoice', id: 'einv_1' });
		expect(describePath('/v1/ewaybills/ewb_1')).toEqual({ resource: 'ewaybill', id: 'ewb_1' });
	});

	it('reads the id up to a query, fragment or further segment', () => {
		expect(describePath('/v1/einvoices/einv_1?x=1')).toEqual({
			resource: 'einvoice',
			id: 'einv_1',
		});
		expect(describePath('/v1/ewaybills/ewb_1/cancel')).toEqual({
			resource: 'ewaybill',
			id: 'ewb_1',
		});
	});

	it('only a path starting with the API version is a resource path', () => {
		expect(describePath('/x/v1/einvoices/a')).toBeUndefined();
		expect(describePath('v1/einvoices/a')).toBeUndefined();
		expect(describePath('/v1/einvoices/')).toBeUndefined();
		expect(describePath('/v1/other/a')).toBeUndefined();
	});

	it('percent-decodes the id', () => {
		expect(describePath('/v1/einvoices/einv_a%20b%2Fc')).toEqual({
			resource: 'einvoice',
			id: 'einv_a b/c',
		});
	});

	it('keeps the raw segment when it is not valid percent-encoding', () => {
		expect(describePath('/v1/ewaybills/ewb_%E0%A4')).toEqual({
			resource: 'ewaybill',
			id: 'ewb_%E0%A4',
		});
	});
});

describe('capability names from a service rejection', () => {
	it.each([
		['ewaybill', 'e-way bills'],
		['ewaybills', 'e-way bills'],
		['E-Way-Bills', 'e-way bills'],
		['e_way_bill', 'e-way bills'],
		[' e way bill ', 'e-way bills'],
		['einvoice', 'e-invoices'],
		['EInvoices', 'e-invoices'],
		['e-invoice', 'e-invoices'],
		['E_INVOICE', 'e-invoices'],
	])('%j is the plan capability %j', (named, human) => {
		expect(capabilityName(named, 'fallback')).toBe(human);
	});

	it('a name that only ends with a resource name is not that resource', () => {
		expect(capabilityName('bulk_ewaybill', 'fallback')).toBe('bulk_ewaybill');
	});

	it('an unknown name is shown as the service sent it, without surrounding spaces', () => {
		expect(capabilityName('  bulk_export ', 'fallback')).toBe('bulk_export');
	});

	it.each([undefined, null, 42, '', '   '])('%j gives the fallback', (named) => {
		expect(capabilityName(named, 'e-invoices')).toBe('e-invoices');
	});
});
