/**
 * The token client against the emulator's token endpoint over real HTTP: the lifetime it derives
 * (README: "lifetime from `expires_in`, capped by the token's `exp`") and that no answer of the
 * endpoint carries the client secret into a message.
 */
import { parseCredentials } from '../../../../credentials/GstComplianceApi/environment';
import { mintToken } from '../../../../credentials/GstComplianceApi/tokenClient';
import type { ClientInfo, TokenFault } from '../../../emulator';
import { credentialData, useEmulatorForPackage } from '../../helpers/emulatorForPackage';

const jwt = (claims: Record<string, unknown>) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('mintToken', () => {
	// The shipped timeouts: on a loaded machine a 300 ms token timeout would add a retry.
	const emulator = useEmulatorForPackage({}, { tokenRequestTimeoutMs: 10_000 });
	let client: ClientInfo;
	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});
	const credentials = () => parseCredentials(credentialData(emulator(), client));
	const answer = (body: Record<string, unknown>, status = 200): TokenFault => ({
		kind: 'status',
		status,
		body: JSON.stringify(body),
	});
	const failure = async () =>
		await mintToken(credentials()).then(
			() => {
				throw new Error('expected the token request to fail');
			},
			(error: Error) => error,
		);

	it("takes the lifetime from expires_in when the token's exp is later", async () => {
		const iat = 1_700_000_000;
		emulator().control.injectTokenFaults([
			answer({ access_token: jwt({ iat, exp: iat + 3600 }), expires_in: 900 }),
		]);
		await expect(mintToken(credentials())).resolves.toMatchObject({ lifetimeMs: 900_000 });
	});

	it("caps the lifetime by the token's exp when it is earlier than expires_in", async () => {
		const iat = 1_700_000_000;
		emulator().control.injectTokenFaults([
			answer({ access_token: jwt({ iat, exp: iat + 300 }), expires_in: 900 }),
		]);
		await expect(mintToken(credentials())).resolves.toMatchObject({ lifetimeMs: 300_000 });
	});

	it('falls back to 900 s without a usable expires_in, and reads the organization claim', async () => {
		for (const expiresIn of [undefined, 0, -5, 'soon']) {
			emulator().control.injectTokenFaults([
				answer({ access_token: jwt({ organization_id: 'org_1' }), expires_in: expiresIn }),
			]);
			await expect(mintToken(credentials())).resolves.toMatchObject({
				lifetimeMs: 900_000,
				organizationId: 'org_1',
			});
		}
		emulator().control.injectTokenFaults([answer({ access_token: 'opaque', expires_in: '60' })]);
		await expect(mintToken(credentials())).resolves.toMatchObject({
			accessToken: 'opaque',
			lifetimeMs: 60_000,
			organizationId: undefined,
		});
	});

	it('counts the lifetime from when the request was sent', async () => {
		const sentAt = emulator().control.now();
		const token = await mintToken(credentials());
		expect(token.requestedAt).toBeGreaterThanOrEqual(sentAt);
		expect(token.requestedAt).toBeLessThanOrEqual(emulator().control.now());
	});

	describe('keeps the client secret out of every message', () => {
		const secretIn = (text: string) => `${text} ${client.clientSecret}`;
		const expectNoSecret = (error: Error & { description?: string }) => {
			const text = `${error.message} ${error.description ?? ''} ${JSON.stringify(error)}`;
			expect(text).not.toContain(client.clientSecret);
			expect(text).toContain('[redacted]');
		};

		it('401: the endpoint echoes the secret in error_description', async () => {
			emulator().control.injectTokenFaults([
				answer({ error: 'invalid_client', error_description: secretIn('bad secret') }, 401),
			]);
			const error = await failure();
			expect(error.message).toMatch(
				/rejected the client id or secret \(HTTP 401: invalid_client - bad secret \[redacted\]\)/,
			);
			expectNoSecret(error);
		});

		it('404: "Check Auth URL and Realm", with the server text redacted', async () => {
			emulator().control.injectTokenFaults([
				answer({ error: 'not_found', error_description: secretIn('no realm for') }, 404),
			]);
			const error = await failure();
			expect(error.message).toMatch(
				/answered HTTP 404: not_found - no realm for \[redacted\]\. Check Auth URL and Realm in the credential\.$/,
			);
			expectNoSecret(error);
		});

		it('200 without a token: the body excerpt is redacted', async () => {
			const fault = answer({ note: secretIn('echo') });
			emulator().control.injectTokenFaults([fault, fault, fault]);
			const error = await failure();
			expect(error.message).toMatch(/without a usable access token \(body: ".*\[redacted\].*"\)/);
			expectNoSecret(error);
		});

		it('5xx: the server text is redacted', async () => {
			const fault = answer({ error: 'server_error', error_description: secretIn('down') }, 503);
			emulator().control.injectTokenFaults([fault, fault, fault]);
			const error = await failure();
			expect(error.message).toMatch(
				/failed with HTTP 503: server_error - down \[redacted\] \(gave up after 3 attempts\)/,
			);
			expectNoSecret(error);
		});
	});
});

describe('mintToken and a redirecting token endpoint', () => {
	const emulator = useEmulatorForPackage({}, { tokenRequestTimeoutMs: 10_000 });

	it.each([302, 307] as const)(
		'does not follow a %i to another origin: the form with the secret goes nowhere else',
		async (status) => {
			const { control } = emulator();
			const client = control.createClient({ environment: 'sandbox' });
			// Switching the redirect on clears the record of what reached elsewhereUrl.
			control.setRedirect(true);
			control.setRedirect(false);
			control.injectTokenFaults([{ kind: 'redirect', status }]);
			const error = await mintToken(parseCredentials(credentialData(emulator(), client))).then(
				() => undefined,
				(caught: Error) => caught,
			);
			expect(error?.message).toMatch(
				new RegExp(`answered HTTP ${status}\\. Check Auth URL and Realm in the credential\\.$`),
			);
			expect(control.elsewhereRequests()).toEqual([]);
			expect(control.counters().tokenRequests[client.clientId]).toBe(1);
		},
	);
});
