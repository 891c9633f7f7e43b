/**
 * `expires_in` is read strictly: an integer number of seconds (a JSON number or a numeric string)
 * within 60..86400; anything else is the documented 900 s. The JWT's `exp` still caps it.
 */
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import { mintToken } from '../../../../credentials/GstComplianceApi/tokenClient';
import { configureSettings, resetSettings } from '../../../../transport/settings';
import { fakeJwt, startScriptedServer, type ScriptedServer } from '../../helpers/scriptedServer';

describe('expires_in is read strictly', () => {
	let server: ScriptedServer;
	const now = Date.UTC(2026, 0, 15, 12, 0, 0);
	beforeEach(async () => {
		configureSettings({ now: () => now, sleep: async () => {}, random: () => 0 });
		server = await startScriptedServer(() => ({ status: 500 }));
	});
	afterEach(async () => {
		resetSettings();
		await server.close();
	});

	/** `rawExpiresIn` is JSON text; undefined leaves the field out. */
	const lifetimeFor = async (
		rawExpiresIn: string | undefined,
		claims: Record<string, unknown> = {},
	) => {
		const expiresIn = rawExpiresIn === undefined ? '' : `,"expires_in":${rawExpiresIn}`;
		server.answer(() => ({
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: `{"access_token":"${fakeJwt(claims)}","token_type":"Bearer"${expiresIn}}`,
		}));
		const token = await mintToken(
			parseCredentials({
				environment: 'sandbox',
				clientId: 'svc_test_expiry',
				clientSecret: 'expiry-secret-value',
				authUrl: server.origin,
				realm: 'gst',
				sandboxApiUrl: server.origin,
			}),
		);
		return token.lifetimeMs;
	};

	it.each([
		['true', 'true'],
		['false', 'false'],
		['1 second', '1'],
		['a millisecond', '0.001'],
		['0', '0'],
		['negative', '-900'],
		['1e308', '1e308'],
		['"1e308" as text', '"1e308"'],
		['a fraction', '900.5'],
		['59 s (below the range)', '59'],
		['86401 s (above the range)', '86401'],
		['a day in ms', '86400000'],
		['null', 'null'],
		['an object', '{"seconds":900}'],
		['an array', '[900]'],
		['a numeric string with garbage', '"900s"'],
		['a hex string', '"0x384"'],
		['an empty string', '""'],
		['"Infinity"', '"Infinity"'],
		['a numeric string with a fraction', '"0.5"'],
	])('%s falls back to 900 s', async (_name, raw) => {
		expect(await lifetimeFor(raw)).toBe(900_000);
	});

	it.each([
		['60', 60_000],
		['600', 600_000],
		['"600"', 600_000],
		['" 600 "', 600_000],
		['3600', 3_600_000],
		['86400', 86_400_000],
		['900.0', 900_000],
	])('%s is used', async (raw, expected) => {
		expect(await lifetimeFor(raw)).toBe(expected);
	});

	it('a missing expires_in is 900 s', async () => {
		expect(await lifetimeFor(undefined)).toBe(900_000);
	});

	it("the JWT's exp still caps the lifetime, also after a fallback", async () => {
		expect(await lifetimeFor('3600', { iat: 1000, exp: 1300 })).toBe(300_000);
		expect(await lifetimeFor('true', { iat: 1000, exp: 1300 })).toBe(300_000);
		expect(await lifetimeFor('1e308', { exp: now / 1000 + 120 })).toBe(120_000);
	});
});
