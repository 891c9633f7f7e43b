/** The service's webhook event types, and which of them a trigger's selection lets through. */
import {
	ALL_EVENTS,
	EVENT_TYPES,
	eventResource,
	isEventSelected,
} from '../../../../../nodes/GstCompliance/trigger/events';

describe('the event types (docs/service-api.md, "Event types")', () => {
	it('lists the seven types of the spec, each named after its resource', () => {
		expect(EVENT_TYPES.map((type) => type.value)).toEqual([
			'einvoice.generated',
			'einvoice.cancelled',
			'einvoice.failed',
			'ewaybill.generated',
			'ewaybill.cancelled',
			'ewaybill.expired',
			'ewaybill.rejected',
		]);
	});

	it.each([
		[['einvoice.failed'], 'einvoice.failed', true],
		[['einvoice.failed'], 'einvoice.generated', false],
		[[ALL_EVENTS], 'einvoice.some_new_type', true],
		[[], 'einvoice.failed', false],
	])('isEventSelected(%j, %s) → %s', (selection, type, expected) => {
		expect(isEventSelected(selection, type)).toBe(expected);
	});

	it.each([
		['einvoice.failed', 'einvoice'],
		['ewaybill.expired', 'ewaybill'],
		['ewaybill', undefined],
		['einvoices.failed', undefined],
		['invoice.failed', undefined],
	])('eventResource(%s) → %s', (type, resource) => {
		expect(eventResource(type)).toBe(resource);
	});
});
