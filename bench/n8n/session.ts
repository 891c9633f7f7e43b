/**
 * One real n8n (the e2e harness) and one emulator for items 5–6, with an API client, its
 * credential and a webhook signing credential; everything stops together.
 */
import { startEmulator, type ClientInfo, type RunningEmulator } from '../../test/emulator';
import { apiCredentialData, CRED } from '../../test/e2e/lib/gst';
import { startN8n, type N8n } from '../../test/e2e/lib/n8n';

export interface BenchSession {
	emulator: RunningEmulator;
	n8n: N8n;
	client: ClientInfo;
	apiCredential: { id: string; name: string };
	webhookCredential: { id: string; name: string };
	signingSecret: string;
	stop(): Promise<void>;
}

export async function startSession(): Promise<BenchSession> {
	// The API rate limit is lifted so both sides of item 5 measure speed, not the emulator's budget.
	const emulator = await startEmulator({ seed: false, apiRateLimitPerMinute: 1_000_000 });
	let n8n: N8n | undefined;
	try {
		n8n = await startN8n({ name: 'bench', env: { N8N_LOG_LEVEL: 'warn' } });
		const client = emulator.control.createClient({ environment: 'sandbox' });
		const signingSecret = `whsec_bench_${client.clientId.slice(-12)}`;
		const apiCredential = await n8n.createCredential('GST API (bench)', CRED.api, apiCredentialData(emulator, client));
		const webhookCredential = await n8n.createCredential('GST webhook (bench)', CRED.webhook, {
			signingSecret,
			previousSigningSecret: '',
		});
		const running = n8n;
		return {
			emulator,
			n8n: running,
			client,
			apiCredential,
			webhookCredential,
			signingSecret,
			stop: async () => {
				await running.stop();
				await emulator.stop();
			},
		};
	} catch (error) {
		await n8n?.stop();
		await emulator.stop();
		throw error;
	}
}
