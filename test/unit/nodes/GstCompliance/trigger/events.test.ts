/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The service's webhook event types, and which of them a trigger's selection lets through. */
import {
	ALL_EVENTS,
	EVENT_TYPES,
	eventResource,
	isEventSelected,
} from '@/nodes/GstCompliance/trigger/events';

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

	it('describes each type in n8n\'s words, as the Stripe Trigger does ("Occurs when …"), never a raw state', () => {
		for (const { description } of EVENT_TYPES) {
			expect(description).toMatch(/^Occurs when an? (e-invoice|e-way bill) /);
			expect(description).not.toMatch(/_|\bstate\b/);
		}
		expect(EVENT_TYPES.find((type) => type.value === 'einvoice.failed')!.description).toBe(
			'Occurs when an e-invoice fails for good (its final status)',
		);
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
