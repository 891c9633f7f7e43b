/**
 * The JWT claim reading at its edges: what counts as claims, and which exp/iat shapes cap the
 * lifetime.
 */
import {
	decodeJwtClaims,
	readExpiresIn,
	tokenLifetimeMs,
} from '../../../../credentials/GstComplianceApi/jwtClaims';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (payload: unknown) => `eyJhbGciOiJIUzI1NiJ9.${segment(payload)}.sig`;

describe('decodeJwtClaims', () => {
	it.each([
		['null', null],
		['a number', 5],
		['a string', 'claims'],
		['an array', [{ exp: 1 }]],
		['true', true],
	])('is undefined for a payload that is %s', (_name, payload) => {
		expect(decodeJwtClaims(token(payload))).toBeUndefined();
	});

	it('is undefined without a payload segment', () => {
		expect(decodeJwtClaims('header')).toBeUndefined();
		expect(decodeJwtClaims('header..sig')).toBeUndefined();
	});

	it('reads base64url (with - and _) as UTF-8', () => {
		const claims = { name: 'ä€?>>~~', organization_id: 'org_ü' };
		const encoded = segment(claims);
		expect(encoded).toMatch(/[-_]/);
		expect(decodeJwtClaims(`h.${encoded}.s`)).toEqual(claims);
	});
});

describe('tokenLifetimeMs', () => {
	it('ignores an exp equal to now (not a positive lifetime)', () => {
		expect(tokenLifetimeMs(900, { exp: 1000 }, 1_000_000)).toBe(900_000);
		expect(tokenLifetimeMs(900, { exp: 1001 }, 1_000_000)).toBe(1_000);
	});

	it('ignores exp - iat when it is not positive', () => {
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1000 }, 0)).toBe(900_000);
		expect(tokenLifetimeMs(900, { iat: 2000, exp: 1000 }, 0)).toBe(900_000);
	});

	it('reads exp against the clock when iat is not a number', () => {
		expect(tokenLifetimeMs(900, { iat: '1000', exp: 1300 }, 1_000_000)).toBe(300_000);
	});

	it('ignores an exp that is not a number', () => {
		expect(tokenLifetimeMs(900, { exp: '1300', iat: 1000 }, 0)).toBe(900_000);
		expect(tokenLifetimeMs(60, { exp: null }, 0)).toBe(60_000);
	});
});

describe('readExpiresIn', () => {
	it.each([
		['the shortest accepted number', 60, 60],
		['the longest accepted number', 86_400, 86_400],
		['a numeric string', '120', 120],
		['a numeric string with spaces around it', ' 120 ', 120],
	])('takes %s', (_name, value, seconds) => {
		expect(readExpiresIn(value)).toBe(seconds);
	});

	it.each([
		['below the range', 59],
		['above the range', 86_401],
		['a fraction', 120.5],
		['a string below the range', '59'],
		['a hexadecimal string', '0x100'],
		['an exponent', '1e3'],
		['a decimal string', '120.5'],
		['text after the digits', '120s'],
		['text before the digits', 'PT120'],
		['ten digits', '1234567890'],
		['an empty string', ''],
		['spaces only', '   '],
		['a boolean', true],
		['an array holding a number', [120]],
		['missing', undefined],
		['null', null],
	])('is the documented 900 s for %s', (_name, value) => {
		expect(readExpiresIn(value)).toBe(900);
	});
});
