/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The API's resources as the package knows them: a resource id checked before any request (one path
 * segment, never a dot segment or anything a server could read as one) with the exact message a
 * user reads in the n8n editor, the API path built and read back, and the capability names a
 * service rejection is mapped to. The trigger refetches an event's resource through the same check.
 */
import { eventResource } from '@/nodes/GstCompliance/trigger/events';
import {
	capabilityName,
	checkResourceId,
	describePath,
	resourcePath,
} from '@/nodes/GstCompliance/resources';

const EINVOICE_EXPECTED = 'expected an id starting with "einv_", for example einv_123';
const SEGMENT_RULE =
	'is not a valid id: it contains a slash, backslash, "?", "#", "%", ";", whitespace or a ' +
	'control character, or is only dots. Expected';

/** The path the trigger's refetch GETs for an event, or undefined when it makes no request. */
function eventResourcePath(type: string, id: unknown): string | undefined {
	const resource = eventResource(type);
	if (!resource) return undefined;
	const check = checkResourceId(resource, id);
	return check.ok ? resourcePath(resource, check.id) : undefined;
}

describe('accepts an id that stays one path segment, trimmed', () => {
	it('checkResourceId of " einv_1 " → ok, trimmed to einv_1', () => {
		expect(checkResourceId('einvoice', ' einv_1 ')).toEqual({ ok: true, id: 'einv_1' });
	});

	it('checkResourceId of an e-way bill number → ok, as its digits', () => {
		expect(checkResourceId('ewaybill', 123456789012)).toEqual({ ok: true, id: '123456789012' });
	});

	it('checkResourceId and resourcePath of ordinary ids, dots inside included → ok, one encoded segment', () => {
		for (const id of ['ewb_1', 'ewb_123', '331000123456', 'EWB-2025.01', 'a.b', '.x', 'x.']) {
			expect(checkResourceId('ewaybill', id)).toEqual({ ok: true, id });
			expect(resourcePath('ewaybill', id)).toBe(`/v1/ewaybills/${encodeURIComponent(id)}`);
		}
		expect(checkResourceId('einvoice', 'einv_123').ok).toBe(true);
		expect(eventResourcePath('einvoice.generated', 'einv_1')).toBe('/v1/einvoices/einv_1');
	});
});

describe('refuses an empty id, saying what was received', () => {
	it.each([undefined, null, ''])(
		'checkResourceId of an e-invoice id %j → received nothing',
		(raw) => {
			expect(checkResourceId('einvoice', raw)).toEqual({
				ok: false,
				message: `E-invoice ID is empty: received nothing, ${EINVOICE_EXPECTED}`,
			});
		},
	);

	it('checkResourceId of an empty e-way bill id → asks for an id, as e-way bills have no prefix', () => {
		expect(checkResourceId('ewaybill', undefined)).toEqual({
			ok: false,
			message: 'E-way bill ID is empty: received nothing, expected an id',
		});
	});

	it('checkResourceId of only whitespace, or of a type that is no id → shows what was received', () => {
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

describe('accepts a number as an id only when it is a safe non-negative integer', () => {
	/** As n8n holds it after parsing JSON: the 17 digits are already rounded to …568. */
	const UNSAFE = Number('12345678901234567');
	const NOT_AN_INTEGER =
		'is not a valid id: a number used as an id must be a whole number from 0 to 9007199254740991. Check the expression that produces it, or pass the id as text';

	it('checkResourceId of 0 and of Number.MAX_SAFE_INTEGER → ok, as their digits', () => {
		expect(checkResourceId('ewaybill', 0)).toEqual({ ok: true, id: '0' });
		expect(checkResourceId('ewaybill', Number.MAX_SAFE_INTEGER)).toEqual({
			ok: true,
			id: '9007199254740991',
		});
	});

	it.each([
		[NaN, 'NaN'],
		[-5, '-5'],
		[1.5, '1.5'],
		[Infinity, 'Infinity'],
		[-Infinity, '-Infinity'],
	])(
		'checkResourceId of the number %p → INVALID_ID naming %s; an event naming it → no refetch',
		(raw, shown) => {
			expect(checkResourceId('ewaybill', raw)).toEqual({
				ok: false,
				message: `E-way bill ID ${shown} (a number) ${NOT_AN_INTEGER}. Expected an id`,
			});
			expect(eventResourcePath('ewaybill.generated', raw)).toBeUndefined();
		},
	);

	it('checkResourceId of 12345678901234567 (beyond 2^53, held as …568) → refused, saying to pass it as text', () => {
		expect(checkResourceId('ewaybill', UNSAFE)).toEqual({
			ok: false,
			message:
				"E-way bill ID 12345678901234568 (a number) is beyond JavaScript's safe integer range (up to 9007199254740991), so it has probably been rounded already and may name a different e-way bill. Pass the id as text: type it into the field, or map a field that holds it as text (in quotes in the JSON); converting the number to text afterwards does not bring the lost digits back. Expected an id",
		});
		expect(eventResourcePath('ewaybill.generated', UNSAFE)).toBeUndefined();
		expect(checkResourceId('ewaybill', 2 ** 53).ok).toBe(false);
		expect(checkResourceId('ewaybill', 1e21).ok).toBe(false);
	});

	it.each([-1, 42, 1.5])(
		'checkResourceId of an e-invoice id given as the number %p → a number is never an e-invoice ID: map data.id, not an invoice number',
		(value) => {
			expect(checkResourceId('einvoice', value)).toEqual({
				ok: false,
				message: `E-invoice ID ${value} is a number, and e-invoice IDs are text. Map the field that holds the e-invoice ID (data.id after the trigger), not an invoice or document number. Expected an id starting with "einv_", for example einv_123`,
			});
		},
	);

	it('checkResourceId of the text "12345678901234567" → ok, every digit kept', () => {
		expect(checkResourceId('ewaybill', '12345678901234567')).toEqual({
			ok: true,
			id: '12345678901234567',
		});
	});
});

describe('requires the "einv_" prefix of an e-invoice id, at its start', () => {
	it('checkResourceId of an e-invoice id without it → refused with the expected form', () => {
		expect(checkResourceId('einvoice', ' inv_1 ')).toEqual({
			ok: false,
			message: `E-invoice ID "inv_1" is not valid: ${EINVOICE_EXPECTED}`,
		});
	});

	it('checkResourceId of an e-invoice id with the prefix further in → refused', () => {
		expect(checkResourceId('einvoice', 'x_einv_1').ok).toBe(false);
	});

	it('checkResourceId of an e-way bill id without a prefix → ok', () => {
		expect(checkResourceId('ewaybill', 'inv_1')).toEqual({ ok: true, id: 'inv_1' });
	});
});

describe('refuses an id that is not one path segment, before any request', () => {
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

	it.each(HOSTILE)(
		'checkResourceId of e-way bill id %j → refused; an event naming it → no refetch',
		(id) => {
			expect(checkResourceId('ewaybill', id).ok).toBe(false);
			expect(eventResourcePath('ewaybill.generated', id)).toBeUndefined();
		},
	);

	it.each(HOSTILE.map((id) => `einv_${id}`).filter((id) => !/^einv_[.%\u2024\uff0e]*$/.test(id)))(
		'checkResourceId of e-invoice id %j → refused',
		(id) => {
			expect(checkResourceId('einvoice', id).ok).toBe(false);
		},
	);

	it('checkResourceId of "a/b" and "einv_a?b" → the message names the id, the forbidden characters and the expected form', () => {
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

describe('shows at most 80 characters of an id in a message', () => {
	it('checkResourceId of an 80-character id → shown whole', () => {
		const id = 'x'.repeat(80);
		expect(checkResourceId('einvoice', id)).toEqual({
			ok: false,
			message: `E-invoice ID "${id}" is not valid: ${EINVOICE_EXPECTED}`,
		});
	});

	it('checkResourceId of an 81-character id → its first 80 and an ellipsis', () => {
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

describe('builds the API path of a resource and reads it back', () => {
	it('resourcePath of an id with a space → percent-encoded in one segment', () => {
		expect(resourcePath('einvoice', 'einv_a b')).toBe('/v1/einvoices/einv_a%20b');
	});

	it('describePath of each collection → its resource and id', () => {
		expect(describePath('/v1/einvoices/einv_1')).toEqual({ resource: 'einvoice', id: 'einv_1' });
		expect(describePath('/v1/ewaybills/ewb_1')).toEqual({ resource: 'ewaybill', id: 'ewb_1' });
	});

	it('describePath with a query or a further segment → the id up to it', () => {
		expect(describePath('/v1/einvoices/einv_1?x=1')).toEqual({
			resource: 'einvoice',
			id: 'einv_1',
		});
		expect(describePath('/v1/ewaybills/ewb_1/cancel')).toEqual({
			resource: 'ewaybill',
			id: 'ewb_1',
		});
	});

	it('describePath of a path not starting /v1/<collection>/<id> → undefined', () => {
		expect(describePath('/x/v1/einvoices/a')).toBeUndefined();
		expect(describePath('v1/einvoices/a')).toBeUndefined();
		expect(describePath('/v1/einvoices/')).toBeUndefined();
		expect(describePath('/v1/other/a')).toBeUndefined();
		expect(describePath('/v1/other')).toBeUndefined();
	});

	it('describePath of a percent-encoded id → decoded', () => {
		expect(describePath('/v1/einvoices/einv_a%20b%2Fc')).toEqual({
			resource: 'einvoice',
			id: 'einv_a b/c',
		});
	});

	it('describePath of an id that is not valid percent-encoding → the raw segment', () => {
		expect(describePath('/v1/ewaybills/ewb_%E0%A4')).toEqual({
			resource: 'ewaybill',
			id: 'ewb_%E0%A4',
		});
	});
});

describe('names the plan capability a service rejection names', () => {
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
	])('capabilityName(%j) → %j', (named, human) => {
		expect(capabilityName(named, 'fallback')).toBe(human);
	});

	it('capabilityName of a name that only ends with a resource name → the name as sent', () => {
		expect(capabilityName('bulk_ewaybill', 'fallback')).toBe('bulk_ewaybill');
	});

	it('capabilityName of an unknown name → as the service sent it, without surrounding spaces', () => {
		expect(capabilityName('  bulk_export ', 'fallback')).toBe('bulk_export');
	});

	it.each([undefined, null, 42, '', '   '])('capabilityName(%j) → the fallback', (named) => {
		expect(capabilityName(named, 'e-invoices')).toBe('e-invoices');
	});
});
