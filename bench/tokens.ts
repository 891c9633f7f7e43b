/**
 * Items 1–2: the credential's token cache against the emulator, in process, over real HTTP.
 * Requests go through the credential's own `authenticate` (shared/authenticate.ts) and `fetch`,
 * so every API 401 is visible (the action node's transport would hide it by re-minting).
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { authenticateRequest } from '../nodes/GstCompliance/credential/authenticate';
import { parseCredentials } from '../nodes/GstCompliance/credential/environment';
import { configureSettings } from '../test/integration/helpers/settings';
import { tokenCache } from '../nodes/GstCompliance/credential/tokenCache';
import { mintToken } from '../nodes/GstCompliance/credential/tokenClient';
import { startEmulator, type ClientInfo, type RunningEmulator } from '../test/emulator';
import { apiCredentialData } from '../test/harness';
import { ratios, type Section } from './result';
import { seededRandom } from './stats';

const SIMULATED_HOURS = 6;
/** Token lifetime 900 s minus the 60 s refresh margin of the spec. */
const USEFUL_TOKEN_SECONDS = 840;
const PARALLEL = 100;

interface Target {
	emulator: RunningEmulator;
	client: ClientInfo;
	data: ICredentialDataDecryptedObject;
	einvoiceId: string;
}

async function callApi(target: Target): Promise<number> {
	const request: IHttpRequestOptions = { method: 'GET', url: `/v1/einvoices/${target.einvoiceId}` };
	const authed = await authenticateRequest(target.data, request);
	const response = await fetch(`${authed.baseURL}${authed.url}`, {
		headers: authed.headers as Record<string, string>,
	});
	await response.arrayBuffer();
	return response.status;
}

const mints = (target: Target): number =>
	target.emulator.control.counters().tokenMints[target.client.clientId] ?? 0;

/**
 * Steady calls 1–20 s apart (seeded) over the simulated period; the clock only moves by `advance`.
 */
async function steadyRun(
	target: Target,
	seed: number,
): Promise<{ mints: number; expired: number; calls: number }> {
	const { control } = target.emulator;
	tokenCache.clear();
	control.resetCounters();
	const random = seededRandom(seed);
	const end = control.now() + SIMULATED_HOURS * 3_600_000;
	let expired = 0;
	let calls = 0;
	while (control.now() < end) {
		const status = await callApi(target);
		calls++;
		if (status === 401) expired++;
		else if (status !== 200) throw new Error(`steady call answered HTTP ${status}`);
		await control.advance(1_000 + Math.floor(random() * 19_000));
	}
	return { mints: mints(target), expired, calls };
}

/** 100 requests at once on an empty cache: ours (single flight) and a mint per request. */
async function coldRun(target: Target): Promise<{ ours: number; naive: number }> {
	const { control } = target.emulator;
	// A fresh rate-limit window, so the baseline is counted in mints, not in 429s.
	await control.advance(60_000);
	tokenCache.clear();
	control.resetCounters();
	const statuses = await Promise.all(
		Array.from({ length: PARALLEL }, async () => await callApi(target)),
	);
	if (statuses.some((status) => status !== 200))
		throw new Error(`cold-cache calls answered ${statuses.join(',')}`);
	const ours = mints(target);

	await control.advance(60_000);
	control.resetCounters();
	const credentials = parseCredentials(target.data);
	await Promise.all(Array.from({ length: PARALLEL }, async () => await mintToken(credentials)));
	return { ours, naive: mints(target) };
}

export async function tokenBench(runs: number): Promise<Section> {
	// Manual clock: hours pass in seconds; the token cache reads the same clock.
	const emulator = await startEmulator({
		seed: false,
		clock: 'manual',
		tokenRateLimitPerMinute: 10_000,
	});
	const restore = configureSettings({ now: () => emulator.control.now() });
	try {
		const client = emulator.control.createClient({ environment: 'sandbox' });
		const einvoice = emulator.control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const target: Target = {
			emulator,
			client,
			data: apiCredentialData(emulator, client) as ICredentialDataDecryptedObject,
			einvoiceId: einvoice.id,
		};

		const steady = [];
		const cold = [];
		for (let run = 0; run < runs; run++) {
			steady.push(await steadyRun(target, 1_000 + run));
			cold.push(await coldRun(target));
		}
		const ideal = Math.ceil((SIMULATED_HOURS * 3600) / USEFUL_TOKEN_SECONDS);
		const steadyMints = steady.map((run) => run.mints);
		const calls = steady.map((run) => run.calls);
		return {
			title: 'Token cache (in process, emulator with manual clock)',
			rows: [
				{
					item: '1',
					what: `Token mints over ${SIMULATED_HOURS} h of steady calls (${Math.min(...calls)}–${Math.max(...calls)} calls, 1–20 s apart)`,
					unit: 'mints',
					ours: steadyMints,
					baseline: { label: `ideal ceil(T/840 s)`, values: steadyMints.map(() => ideal) },
					ratio: ratios(
						steadyMints,
						steadyMints.map(() => ideal),
					),
					goal: 'ratio 1.0 (= ideal)',
					met: (ratio) => ratio.max <= 1,
				},
				{
					item: '1',
					what: 'Requests that failed with an expired token (API 401) in the same runs',
					unit: 'requests',
					ours: steady.map((run) => run.expired),
					ratio: steady.map((run) => run.expired),
					goal: '0',
					met: (value) => value.max === 0,
				},
				{
					item: '2',
					what: `Cold cache, ${PARALLEL} parallel requests → token mints`,
					unit: 'mints',
					ours: cold.map((run) => run.ours),
					baseline: {
						label: 'a mint per request (no shared in-flight mint)',
						values: cold.map((run) => run.naive),
					},
					ratio: cold.map((run) => run.ours),
					goal: '1 mint',
					met: (value) => value.max === 1,
					note: 'Ratio column: our mints (the goal is absolute); the baseline shows what a cache without single flight costs.',
				},
			],
		};
	} finally {
		restore();
		tokenCache.clear();
		await emulator.stop();
	}
}
