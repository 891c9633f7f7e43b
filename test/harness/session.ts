/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * One real n8n (the e2e harness) and one emulator with an API client, its credential and a webhook
 * signing credential; everything stops together (n8n's data is deleted, its log kept). Shared by
 * the reliability suite and the bench.
 */
import * as fs from 'fs';

import {
	startEmulator,
	type ClientInfo,
	type EmulatorOptions,
	type RunningEmulator,
} from '../emulator';
import { apiCredentialData, CRED } from './gst';
import { startN8n, type N8n, type StartOptions } from './n8n';

export interface Session {
	emulator: RunningEmulator;
	n8n: N8n;
	client: ClientInfo;
	apiCredential: { id: string; name: string };
	webhookCredential: { id: string; name: string };
	signingSecret: string;
	stop(): Promise<void>;
}

export async function startSession(
	emulatorOptions: EmulatorOptions = {},
	n8nOptions: StartOptions = {},
): Promise<Session> {
	const emulator = await startEmulator({ seed: false, ...emulatorOptions });
	let n8n: N8n | undefined;
	try {
		n8n = await startN8n({ name: 'reliability', ...n8nOptions });
		const client = emulator.control.createClient({ environment: 'sandbox' });
		const signingSecret = `whsec_${client.clientSecret.slice(-16)}_signing`;
		const apiCredential = await n8n.createCredential(
			'GST API',
			CRED.api,
			apiCredentialData(emulator, client),
		);
		const webhookCredential = await n8n.createCredential('GST webhook', CRED.webhook, {
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
				await running.dispose();
				await emulator.stop();
			},
		};
	} catch (error) {
		await n8n?.dispose();
		await emulator.stop();
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
		throw error;
	}
}

/**
 * SIGKILL to n8n's process group, with no SIGTERM first (the harness's `stop()` is graceful). The
 * harness does not expose the child's pid, so it is found by the user folder in its environment:
 * only the n8n this session started matches.
 */
export async function killHard(n8n: N8n): Promise<void> {
	const marker = `N8N_USER_FOLDER=${n8n.userFolder}`;
	const pids = fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((pid) => {
			try {
				return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
			} catch {
				return false;
			}
		})
		.map(Number);
	const leaders = pids.filter((pid) =>
		pids.every((other) => other === pid || !isAncestor(other, pid)),
	);
	if (leaders.length === 0) throw new Error('no running n8n found for this user folder');
	for (const pid of leaders) process.kill(-pid, 'SIGKILL');
	// Let the harness see the exit, so `restart()` starts a new process on the same port.
	await n8n.stop(0);
}

function isAncestor(candidate: number, pid: number): boolean {
	for (let current = pid; current > 1; ) {
		const stat = readStat(current);
		if (!stat) return false;
		if (stat.ppid === candidate) return true;
		current = stat.ppid;
	}
	return false;
}

function readStat(pid: number): { ppid: number } | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
	} catch {
		return undefined;
	}
}
