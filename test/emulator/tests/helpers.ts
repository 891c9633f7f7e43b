/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
import { startEmulator, type ClientInfo, type EmulatorOptions, type RunningEmulator } from '..';

export interface TokenResponse {
	status: number;
	headers: Headers;
	body: Record<string, unknown>;
}

/** Starts a manual-clock emulator without seed data for one test file and stops it afterwards. */
export function useManualClockEmulator(options: EmulatorOptions = {}): () => RunningEmulator {
	let emulator: RunningEmulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator({ clock: 'manual', seed: false, ...options });
	});
	afterAll(async () => {
		await emulator?.stop();
	});
	return () => {
		if (!emulator) throw new Error('emulator not started');
		return emulator;
	};
}

export async function requestToken(
	emu: RunningEmulator,
	form: Record<string, string>,
	contentType = 'application/x-www-form-urlencoded',
): Promise<TokenResponse> {
	const body =
		contentType === 'application/json'
			? JSON.stringify(form)
			: new URLSearchParams(form).toString();
	const res = await fetch(emu.tokenUrl, {
		method: 'POST',
		headers: { 'Content-Type': contentType },
		body,
	});
	const text = await res.text();
	return {
		status: res.status,
		headers: res.headers,
		body: text ? (JSON.parse(text) as ApiBody) : {},
	};
}

export function credentials(
	client: ClientInfo,
	secret = client.clientSecret,
): Record<string, string> {
	return { grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret };
}

export async function tokenFor(emu: RunningEmulator, client: ClientInfo): Promise<string> {
	const res = await requestToken(emu, credentials(client));
	if (res.status !== 200)
		throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
	return String(res.body.access_token);
}

export function hostOf(emu: RunningEmulator, client: ClientInfo): string {
	return client.environment === 'production' ? emu.productionUrl : emu.sandboxUrl;
}

/** A JSON body from the emulator: a resource, a token response or an error object. */
export interface ApiBody {
	error?: { code: string; message?: string };
	[field: string]: unknown;
}

export async function apiGet(
	baseUrl: string,
	path: string,
	token?: string,
): Promise<{ status: number; headers: Headers; body: ApiBody }> {
	const res = await fetch(baseUrl + path, {
		headers: token ? { Authorization: `Bearer ${token}` } : {},
	});
	const text = await res.text();
	return {
		status: res.status,
		headers: res.headers,
		body: text ? (JSON.parse(text) as ApiBody) : {},
	};
}

export function decodeJwt(token: string): {
	header: Record<string, unknown>;
	claims: Record<string, unknown>;
} {
	const [header, claims] = token
		.split('.')
		.slice(0, 2)
		.map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
	return { header, claims };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
