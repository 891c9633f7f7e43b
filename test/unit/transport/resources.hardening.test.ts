/**
 * A resource id is one path segment, never a dot segment or anything a server could read as one.
 */
import { eventResource } from '../../../nodes/GstComplianceTrigger/events';
import { checkResourceId, resourcePath } from '../../../transport/resources';

/** The path the trigger's refetch GETs for an event, or undefined when it makes no request. */
function eventResourcePath(type: string, id: string): string | undefined {
	const resource = eventResource(type);
	if (!resource) return undefined;
	const check = checkResourceId(resource, id);
	return check.ok ? resourcePath(resource, check.id) : undefined;
}

const HOSTILE = [
	'.',
	'..',
	'...',
	'%2e%2e',
	'%2E%2E',
	'.%2e',
	'%2e.',
	'%2e',
	'..;',
	'..;x',
	'a/b',
	'../x',
	'a\\b',
	'..\\',
	'a%2fb',
	'a%5cb',
	'%00',
	'a\u0000b',
	'a\u001fb',
	'a\u007fb',
	'a\tb',
	'a\nb',
	'a b',
	'a?b',
	'a#b',
	'%252e%252e',
	'\u2024\u2024', // one-dot leaders
	'\uff0e\uff0e', // full-width full stops
];

describe('resource ids', () => {
	it.each(HOSTILE)('e-way bill id %j is refused before any request', (id) => {
		const check = checkResourceId('ewaybill', id);
		expect(check.ok).toBe(false);
	});

	it.each(HOSTILE.map((id) => `einv_${id}`).filter((id) => !/^einv_[.%\u2024\uff0e]*$/.test(id)))(
		'e-invoice id %j is refused',
		(id) => {
			expect(checkResourceId('einvoice', id).ok).toBe(false);
		},
	);

	it.each(HOSTILE)('an event naming e-way bill %j is not refetched', (id) => {
		expect(eventResourcePath('ewaybill.generated', id)).toBeUndefined();
	});

	it('ordinary ids pass and stay one segment', () => {
		for (const id of ['ewb_123', '331000123456', 'EWB-2025.01', 'a.b', '.x', 'x.']) {
			expect(checkResourceId('ewaybill', id)).toEqual({ ok: true, id });
			expect(resourcePath('ewaybill', id)).toBe(`/v1/ewaybills/${encodeURIComponent(id)}`);
		}
		expect(checkResourceId('einvoice', 'einv_123').ok).toBe(true);
		expect(eventResourcePath('einvoice.generated', 'einv_1')).toBe('/v1/einvoices/einv_1');
	});
});
