/** The "Test" button: a token is issued AND the environment's API host accepts it. */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialTestFunction } from 'n8n-workflow';

import { GstCompliance } from '../../../../nodes/GstCompliance/GstCompliance.node';
import type { ClientInfo } from '../../../emulator';
import {
	closedPortUrl,
	credentialData,
	useEmulatorForPackage,
} from '../../helpers/emulatorForPackage';

describe('credential test (testedBy)', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;

	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});

	const node = new GstCompliance();
	const run = async (overrides: ICredentialDataDecryptedObject = {}) => {
		const credential = node.description.credentials?.find((c) => c.name === 'gstComplianceApi');
		const tests: Record<string, ICredentialTestFunction> = node.methods.credentialTest;
		const test = tests[credential?.testedBy as string];
		return await test.call(new CredentialTestContext(), {
			id: 'cred-1',
			name: 'GST',
			type: 'gstComplianceApi',
			data: credentialData(emulator(), client, overrides),
		});
	};

	it('succeeds with organization and environment, after the API host accepted the token', async () => {
		const result = await run();
		expect(result).toEqual({
			status: 'OK',
			message: `Connected to Sandbox (${new URL(emulator().sandboxUrl).host}) as organization ${client.organizationId}`,
		});
		const counters = emulator().control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1);
	});

	it('works for production', async () => {
		client = emulator().control.createClient({ environment: 'production' });
		const result = await run();
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^Connected to Production .* as organization /);
	});

	it('wrong secret', async () => {
		const result = await run({ clientSecret: 'nope-nope' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the client id or secret/);
		expect(result.message).not.toContain('nope-nope');
	});

	it('wrong environment for the client id (no network)', async () => {
		const result = await run({ environment: 'production' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/"svc_test_", which is a Sandbox client, but the credential's Environment is Production/,
		);
		expect(emulator().control.counters().tokenRequestsTotal).toBe(0);
	});

	it('API URL of the other environment: token issued but the host rejects it', async () => {
		const result = await run({ sandboxApiUrl: emulator().productionUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/token was issued for organization .* rejected it \(HTTP 401\)/);
	});

	it('unreachable token host', async () => {
		const result = await run({ authUrl: await closedPortUrl() });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/Could not reach the token endpoint .*the connection was refused/,
		);
	});

	it('unreachable API host', async () => {
		const result = await run({ sandboxApiUrl: await closedPortUrl() });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/token was issued, but the Sandbox API host .* could not be reached: the connection was refused/,
		);
	});

	it('mints a fresh token even when one is cached, so a revoked secret is noticed', async () => {
		await run();
		await run();
		expect(emulator().control.counters().tokenMints[client.clientId]).toBe(2);
	});
});
