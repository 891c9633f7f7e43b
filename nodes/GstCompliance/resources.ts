import { firstHiddenCharacter, hasControlCharacter } from './controlCharacters';
import {
	idNumberBeyondSafeRange,
	idNumberForPrefixedId,
	idNumberNotWhole,
} from './errors/messages';

/** What the package knows about the API's resources (docs/service-api.md, "Resource endpoints"). */
export type GstResource = 'einvoice' | 'ewaybill';

interface ResourceInfo {
	/** Sentence-case name for messages. */
	label: string;
	collection: string;
	/** Required id prefix; docs/service-api.md gives one for e-invoices only. */
	idPrefix?: string;
	/** Plural for "Your plan does not include …". */
	capability: string;
}

export const RESOURCES: Record<GstResource, ResourceInfo> = {
	einvoice: {
		label: 'E-invoice',
		collection: 'einvoices',
		idPrefix: 'einv_',
		capability: 'e-invoices',
	},
	ewaybill: { label: 'E-way bill', collection: 'ewaybills', capability: 'e-way bills' },
};

export function resourcePath(resource: GstResource, id: string): string {
	return `/v1/${RESOURCES[resource].collection}/${encodeURIComponent(id)}`;
}

/** The resource and id a request path addresses, for messages; undefined for other paths. */
export function describePath(path: string): { resource: GstResource; id: string } | undefined {
	const match = /^\/v1\/(einvoices|ewaybills)\/([^/?#]+)/.exec(path);
	if (!match) return undefined;
	const resource: GstResource = match[1] === 'einvoices' ? 'einvoice' : 'ewaybill';
	let id = match[2];
	try {
		id = decodeURIComponent(id);
	} catch {
		// keep the raw segment
	}
	return { resource, id };
}

/**
 * Human name of a capability the service names in an entitlement rejection (`ewaybill` → `e-way
 * bills`).
 */
export function capabilityName(named: unknown, fallback: string): string {
	if (typeof named !== 'string' || named.trim() === '') return fallback;
	// Dropping every non-letter also drops surrounding whitespace.
	const key = named.toLowerCase().replace(/[^a-z]/g, '');
	const known = (Object.keys(RESOURCES) as GstResource[]).find((resource) =>
		key.startsWith(resource),
	);
	return known ? RESOURCES[known].capability : named.trim();
}

export type IdCheck = { ok: true; id: string } | { ok: false; message: string };

/**
 * Trims and checks an id before any network call; the message says what was received and what is
 * expected. A number (an expression over a JSON number) counts only as a safe non-negative
 * integer: NaN, negatives and fractions are no id, and past 2^53 the number is already rounded, so
 * its digits may be another resource's id, which the token would fetch.
 */
export function checkResourceId(resource: GstResource, raw: unknown): IdCheck {
	const { label, idPrefix } = RESOURCES[resource];
	const expected = idPrefix
		? `an id starting with "${idPrefix}", for example ${idPrefix}123`
		: 'an id';
	// An id with a prefix is never a number: the number mapped is another field (an invoice number).
	if (typeof raw === 'number' && idPrefix)
		return { ok: false, message: idNumberForPrefixedId(label, String(raw), expected) };
	if (typeof raw === 'number' && !(Number.isSafeInteger(raw) && raw >= 0)) {
		const describe = Number.isInteger(raw) && raw > 0 ? idNumberBeyondSafeRange : idNumberNotWhole;
		return { ok: false, message: describe(label, String(raw), expected) };
	}
	const id = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
	if (id === '') {
		const received =
			raw === undefined || raw === null || raw === '' ? 'nothing' : `${JSON.stringify(raw)}`;
		return {
			ok: false,
			message: `${label} ID is empty: received ${received}, expected ${expected}`,
		};
	}
	if (idPrefix && !id.startsWith(idPrefix)) {
		return {
			ok: false,
			message: `${label} ID "${shorten(id)}" is not valid: expected ${expected}`,
		};
	}
	const hidden = firstHiddenCharacter(id);
	if (hidden) {
		return {
			ok: false,
			message: `${label} ID ${shorten(JSON.stringify(id))} is not a valid id: it contains ${hidden}, an invisible character (such as a zero-width space or a soft hyphen) or an unpaired UTF-16 surrogate, so it is not the id it looks like. Expected ${expected}`,
		};
	}
	if (!isSinglePathSegment(id)) {
		return {
			ok: false,
			message: `${label} ID "${shorten(id)}" is not a valid id: it contains a slash, backslash, "?", "#", "%", ";", whitespace or a control character, or is only dots. Expected ${expected}`,
		};
	}
	return { ok: true, id };
}

/**
 * Besides control characters: characters that end, escape or re-encode a path segment somewhere
 * between n8n and the service (`%` for a second decoding by a proxy, `;` for path parameters, as in
 * `..;`).
 */
const NOT_IN_SEGMENT = /[/\\?#%;\s]/;

/**
 * Whether the id stays one path segment however a server reads it: none of NOT_IN_SEGMENT, and not
 * only dots (`.`, `..` would address the collection or the API root with the token). Checked on
 * the NFKC form too, which some servers apply (full-width `．` and `／` become `.` and `/`).
 */
export function isSinglePathSegment(id: string): boolean {
	for (const form of [id, id.normalize('NFKC')]) {
		if (hasControlCharacter(form) || NOT_IN_SEGMENT.test(form) || /^\.+$/.test(form)) return false;
	}
	return true;
}

const shorten = (text: string): string => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
