/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The emulator as the package's own tests use it: one per test file, an empty token cache and fast
 * retry settings per test, and its clients as `gstComplianceApi` credential data. (The emulator's
 * own tests start theirs with useManualClockEmulator in test/emulator/tests/helpers.ts.)
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { startEmulator } from '../../emulator';
import type { ClientInfo, EmulatorOptions, RunningEmulator } from '../../emulator';
import { tokenCache } from '../../../nodes/GstCompliance/credential/tokenCache';
import type { GstSettings } from '../../../nodes/GstCompliance/settings';
import { executeContext } from './executeNode';
import { configureSettings, resetSettings } from './settings';

export function credentialData(
	emulator: RunningEmulator,
	client: Pick<ClientInfo, 'clientId' | 'clientSecret' | 'environment'>,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	return {
		environment: client.environment,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		authUrl: emulator.authUrl,
		realm: emulator.realm,
		productionApiUrl: emulator.productionUrl,
		sandboxApiUrl: emulator.sandboxUrl,
		...overrides,
	};
}

/** n8n-core's execute context for a node whose GST Compliance API credential is this client's. */
export function apiContext(
	emulator: RunningEmulator,
	client: Pick<ClientInfo, 'clientId' | 'clientSecret' | 'environment'>,
	overrides: ICredentialDataDecryptedObject = {},
) {
	return executeContext({
		parameters: {},
		credentials: { gstComplianceApi: credentialData(emulator, client, overrides) },
	}).context;
}

/**
 * Short backoff bases and timeouts, so failure paths run the real logic in milliseconds. The token
 * timeout is 2 s, not less: on a loaded 2-core machine a cold token request can take longer than a
 * few hundred ms, and a timed-out request that the emulator still answered mints a second token,
 * which the token-count tests would then see.
 */
export const FAST_RETRIES: Partial<GstSettings> = {
	tokenRequestTimeoutMs: 2_000,
	apiRequestTimeoutMs: 2_000,
	tokenRetry: {
		maxAttempts: 3,
		baseDelayMs: 5,
		maxDelayMs: 20,
		maxRetryAfterMs: 2_000,
		maxTotalWaitMs: 5_000,
	},
	apiRetry: {
		maxAttempts: 4,
		baseDelayMs: 5,
		maxDelayMs: 20,
		maxRetryAfterMs: 2_000,
		maxTotalWaitMs: 5_000,
	},
};

/**
 * Starts an emulator for one test file and gives every test an empty token cache and fast retry
 * settings; the emulator's own clock drives token freshness (a manual one walks through hours).
 */
export function useEmulatorForPackage(
	options: EmulatorOptions = {},
	settings: Partial<GstSettings> = {},
): () => RunningEmulator {
	let emulator: RunningEmulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator(options);
	});
	afterAll(async () => {
		await emulator?.stop();
		resetSettings();
	});
	beforeEach(() => {
		tokenCache.clear();
		resetSettings();
		configureSettings({ ...FAST_RETRIES, now: () => emulator!.control.now(), ...settings });
		emulator!.control.resetCounters();
	});
	return () => {
		if (!emulator) throw new Error('emulator not started');
		return emulator;
	};
}

/** n8n's own `sleep`, recording each wait so a test can assert Retry-After was honoured. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
	const waits: number[] = [];
	return {
		waits,
		sleep: async (ms: number) => {
			waits.push(ms);
			await sleep(ms);
		},
	};
}

/** A local port nobody listens on (bound once, then released), for "unreachable host" cases. */
export async function closedPortUrl(): Promise<string> {
	const { createServer } = await import('net');
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}
