/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * A token's lifetime from `expires_in` and its unverified JWT claims: what counts as claims, which
 * `expires_in` values are taken as given, and which exp/iat shapes cap the lifetime.
 */
import {
	decodeJwtClaims,
	readExpiresIn,
	tokenLifetimeMs,
} from '@/nodes/GstCompliance/credential/jwtClaims';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (payload: unknown) => `eyJhbGciOiJIUzI1NiJ9.${segment(payload)}.sig`;

describe('decodes the claims of a JWT without verifying it', () => {
	it('decodeJwtClaims of a token → its payload object', () => {
		expect(decodeJwtClaims(token({ organization_id: 'org_1' }))).toEqual({
			organization_id: 'org_1',
		});
	});

	it('decodeJwtClaims of a payload in base64url (with - and _) → read as UTF-8', () => {
		const claims = { name: 'ä€?>>~~', organization_id: 'org_ü' };
		const encoded = segment(claims);
		expect(encoded).toMatch(/[-_]/);
		expect(decodeJwtClaims(`h.${encoded}.s`)).toEqual(claims);
	});

	it('decodeJwtClaims without a payload segment, or of one that is not base64 JSON → undefined', () => {
		expect(decodeJwtClaims('not-a-jwt')).toBeUndefined();
		expect(decodeJwtClaims('header..sig')).toBeUndefined();
		expect(decodeJwtClaims('a.!!!.c')).toBeUndefined();
	});

	it.each([
		['null', null],
		['a number', 5],
		['a string', 'claims'],
		['an array', [{ exp: 1 }]],
		['true', true],
	])('decodeJwtClaims of a payload that is %s → undefined', (_name, payload) => {
		expect(decodeJwtClaims(token(payload))).toBeUndefined();
	});
});

describe('reads expires_in as whole seconds within 60..86400, else the documented 900 s', () => {
	it.each([
		['the shortest accepted number', 60, 60],
		['the longest accepted number', 86_400, 86_400],
		['a numeric string', '120', 120],
		['a numeric string with spaces around it', ' 120 ', 120],
	])('readExpiresIn of %s → it', (_name, value, seconds) => {
		expect(readExpiresIn(value)).toBe(seconds);
	});

	it.each([
		['0', 0],
		['a negative number', -900],
		['below the range', 59],
		['above the range', 86_401],
		['1e308', 1e308],
		['a fraction', 120.5],
		['a string below the range', '59'],
		['a hexadecimal string', '0x100'],
		['an exponent', '1e3'],
		['a decimal string', '120.5'],
		['"Infinity"', 'Infinity'],
		['text after the digits', '120s'],
		['text before the digits', 'PT120'],
		['ten digits', '1234567890'],
		['an empty string', ''],
		['spaces only', '   '],
		['a boolean', true],
		['an array holding a number', [120]],
		['an object', { seconds: 900 }],
		['missing', undefined],
		['null', null],
	])('readExpiresIn of %s → 900', (_name, value) => {
		expect(readExpiresIn(value)).toBe(900);
	});
});

describe('caps the lifetime by exp - iat when both are there', () => {
	it('tokenLifetimeMs without claims → expires_in', () => {
		expect(tokenLifetimeMs(900, undefined, 0)).toBe(900_000);
	});

	it('tokenLifetimeMs with exp - iat shorter than expires_in → exp - iat; longer → expires_in', () => {
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1600 }, 0)).toBe(600_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 5000 }, 0)).toBe(900_000);
	});

	it('tokenLifetimeMs with exp - iat zero or negative → expires_in', () => {
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1000 }, 0)).toBe(900_000);
		expect(tokenLifetimeMs(900, { iat: 2000, exp: 1000 }, 0)).toBe(900_000);
	});

	it('tokenLifetimeMs with exp - iat below the 60 s refresh margin → exp - iat, however short (it is skew-free)', () => {
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1003 }, 0)).toBe(3_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1059 }, 0)).toBe(59_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1060 }, 0)).toBe(60_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1000.5 }, 0)).toBe(500);
	});

	it('tokenLifetimeMs with an exp that is not a number → expires_in', () => {
		expect(tokenLifetimeMs(900, { exp: '1300', iat: 1000 }, 0)).toBe(900_000);
		expect(tokenLifetimeMs(60, { exp: null }, 0)).toBe(60_000);
	});
});

describe('reads exp alone against our clock, ignoring one that leaves less than the refresh margin (clock skew)', () => {
	it('tokenLifetimeMs with exp and no iat → exp - now', () => {
		expect(tokenLifetimeMs(900, { exp: 1300 }, 1_000_000)).toBe(300_000);
	});

	it('tokenLifetimeMs with an iat that is not a number → exp - now', () => {
		expect(tokenLifetimeMs(900, { iat: '1000', exp: 1300 }, 1_000_000)).toBe(300_000);
	});

	it('tokenLifetimeMs with exp at now or before → expires_in', () => {
		expect(tokenLifetimeMs(900, { exp: 10 }, 1_000_000)).toBe(900_000);
		expect(tokenLifetimeMs(900, { exp: 1000 }, 1_000_000)).toBe(900_000);
	});

	it('tokenLifetimeMs with exp 3 s after now (the token server 14 min 57 s behind) → expires_in, not 3 s', () => {
		expect(tokenLifetimeMs(900, { exp: 1003 }, 1_000_000)).toBe(900_000);
	});

	it('tokenLifetimeMs with exp 59.999 s after now → expires_in; 60 s after → 60 s', () => {
		expect(tokenLifetimeMs(900, { exp: 1060 }, 1_000_001)).toBe(900_000);
		expect(tokenLifetimeMs(900, { exp: 1060 }, 1_000_000)).toBe(60_000);
	});
});
