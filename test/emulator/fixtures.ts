import { createHash, randomBytes, randomInt } from 'crypto';
import type { Einvoice, Ewaybill } from './types';

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');
const digits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');

/**
 * `YYYY-MM-DD HH:mm:ss` in IST, the format of the government portals (an assumption, see README).
 */
export function istDateTime(epochMs: number): string {
	return new Date(epochMs + 5.5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A GSTIN-shaped value: state code, PAN, entity number, 'Z', check character. */
function gstin(): string {
	const letters = (n: number) =>
		Array.from({ length: n }, () => String.fromCharCode(65 + randomInt(26))).join('');
	return `${String(randomInt(1, 38)).padStart(2, '0')}${letters(5)}${digits(4)}${letters(1)}1Z${digits(1)}`;
}

export function makeEinvoice(now: number, overrides: Partial<Einvoice>): Einvoice {
	const invoiceNumber =
		overrides.invoiceNumber ?? `INV/${new Date(now).getUTCFullYear()}/${digits(5)}`;
	return {
		id: `einv_${randomHex(12)}`,
		object: 'einvoice',
		status: 'generated',
		irn: createHash('sha256')
			.update(`${invoiceNumber}${randomHex(8)}`)
			.digest('hex'),
		ackNumber: `1${digits(14)}`,
		ackDate: istDateTime(now),
		sellerGstin: gstin(),
		invoiceNumber,
		totalInvoiceValue: randomInt(1_000, 5_000_000) / 100,
		...overrides,
	};
}

export function makeEwaybill(now: number, overrides: Partial<Ewaybill>): Ewaybill {
	return {
		id: `ewb_${randomHex(12)}`,
		object: 'ewaybill',
		status: 'generated',
		ewbNumber: `${randomInt(1, 10)}${digits(11)}`,
		ewbDate: istDateTime(now),
		validUpto: istDateTime(now + 24 * 3_600_000),
		supplierGstin: gstin(),
		recipientGstin: gstin(),
		documentNumber: `INV/${new Date(now).getUTCFullYear()}/${digits(5)}`,
		vehicleNumber: `KA${digits(2)}AB${digits(4)}`,
		totalValue: randomInt(1_000, 5_000_000) / 100,
		...overrides,
	};
}
