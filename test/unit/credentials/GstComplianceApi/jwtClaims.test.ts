/** Reading a token's lifetime from expires_in and its unverified JWT claims. */
import {
	decodeJwtClaims,
	tokenLifetimeMs,
} from '../../../../credentials/GstComplianceApi/jwtClaims';

const jwt = (claims: Record<string, unknown>) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('token lifetime', () => {
	it('uses expires_in, capped by exp - iat', () => {
		expect(tokenLifetimeMs(900, undefined, 0)).toBe(900_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 1600 }, 0)).toBe(600_000);
		expect(tokenLifetimeMs(900, { iat: 1000, exp: 5000 }, 0)).toBe(900_000);
	});

	it('reads exp without iat against our clock, and ignores an exp that looks already past (clock skew)', () => {
		expect(tokenLifetimeMs(900, { exp: 1300 }, 1_000_000)).toBe(300_000);
		expect(tokenLifetimeMs(900, { exp: 10 }, 1_000_000)).toBe(900_000);
	});

	it('decodes claims without verifying and tolerates garbage', () => {
		expect(decodeJwtClaims(jwt({ organization_id: 'org_1' }))).toEqual({
			organization_id: 'org_1',
		});
		expect(decodeJwtClaims('not-a-jwt')).toBeUndefined();
		expect(decodeJwtClaims('a.!!!.c')).toBeUndefined();
	});
});
