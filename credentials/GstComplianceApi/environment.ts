import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { GstCredentialError } from './credentialError';

export type GstEnvironment = 'production' | 'sandbox';

/** The credential `gstComplianceApi` as the package uses it: trimmed, defaults applied. */
export interface GstCredentials {
	environment: GstEnvironment;
	clientId: string;
	clientSecret: string;
	authUrl: string;
	realm: string;
	productionApiUrl: string;
	sandboxApiUrl: string;
}

export const ENVIRONMENT_LABEL: Record<GstEnvironment, string> = {
	production: 'Production',
	sandbox: 'Sandbox',
};

/** Each client id prefix belongs to one environment (docs/service-api.md, "Environments and client ids"). */
export const CLIENT_ID_PREFIX: Record<GstEnvironment, string> = {
	production: 'svc_live_',
	sandbox: 'svc_test_',
};

const FIELD_LABEL: Record<Exclude<keyof GstCredentials, 'environment'>, string> = {
	clientId: 'Client ID',
	clientSecret: 'Client Secret',
	authUrl: 'Auth URL',
	realm: 'Realm',
	productionApiUrl: 'Production API URL',
	sandboxApiUrl: 'Sandbox API URL',
};

function text(data: ICredentialDataDecryptedObject, key: string): string {
	const value = data[key];
	return typeof value === 'string' ? value.trim() : '';
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * Reads and validates the credential data. Only the fields the chosen environment needs are
 * required, so a sandbox-only user may leave the Production API URL empty.
 */
export function parseCredentials(data: ICredentialDataDecryptedObject): GstCredentials {
	const environment: GstEnvironment = data.environment === 'production' ? 'production' : 'sandbox';
	const credentials: GstCredentials = {
		environment,
		clientId: text(data, 'clientId'),
		clientSecret: typeof data.clientSecret === 'string' ? data.clientSecret : '',
		authUrl: withoutTrailingSlash(text(data, 'authUrl')),
		realm: text(data, 'realm').replace(/^\/+|\/+$/g, ''),
		productionApiUrl: withoutTrailingSlash(text(data, 'productionApiUrl')),
		sandboxApiUrl: withoutTrailingSlash(text(data, 'sandboxApiUrl')),
	};
	const required: Array<keyof typeof FIELD_LABEL> = [
		'clientId',
		'clientSecret',
		'authUrl',
		'realm',
		environment === 'production' ? 'productionApiUrl' : 'sandboxApiUrl',
	];
	const missing = required.filter((key) => credentials[key] === '');
	if (missing.length > 0) {
		throw new GstCredentialError(
			'configuration',
			`The GST Compliance API credential is missing: ${missing.map((key) => FIELD_LABEL[key]).join(', ')}`,
		);
	}
	for (const key of ['authUrl', apiUrlField(environment)] as const) {
		if (!isHttpUrl(credentials[key])) {
			throw new GstCredentialError(
				'configuration',
				`${FIELD_LABEL[key]} in the GST Compliance API credential must be an http(s) URL, for example https://auth.example.com`,
			);
		}
	}
	return credentials;
}

function apiUrlField(environment: GstEnvironment): 'productionApiUrl' | 'sandboxApiUrl' {
	return environment === 'production' ? 'productionApiUrl' : 'sandboxApiUrl';
}

function isHttpUrl(value: string): boolean {
	try {
		const { protocol } = new URL(value);
		return protocol === 'https:' || protocol === 'http:';
	} catch {
		return false;
	}
}

/** The API host decides which environment a token acts on. */
export function apiBaseUrl(credentials: GstCredentials): string {
	return credentials[apiUrlField(credentials.environment)];
}

export function tokenUrl(credentials: GstCredentials): string {
	return `${credentials.authUrl}/realms/${encodeURIComponent(credentials.realm)}/protocol/openid-connect/token`;
}

/** Fails before any network call when the client id belongs to the other environment (or to none). */
export function assertClientMatchesEnvironment(credentials: GstCredentials): void {
	const { clientId, environment } = credentials;
	const expected = CLIENT_ID_PREFIX[environment];
	if (clientId.startsWith(expected)) return;
	const other: GstEnvironment = environment === 'production' ? 'sandbox' : 'production';
	const label = ENVIRONMENT_LABEL[environment];
	if (clientId.startsWith(CLIENT_ID_PREFIX[other])) {
		throw new GstCredentialError(
			'environmentMismatch',
			`Client ID starts with "${CLIENT_ID_PREFIX[other]}", which is a ${ENVIRONMENT_LABEL[other]} client, but the credential's Environment is ${label}. ` +
				`Set Environment to ${ENVIRONMENT_LABEL[other]}, or use a ${label} client (Client ID starting with "${expected}") from the ${label === 'Production' ? 'Live' : 'Sandbox'} tab of the Developer hub.`,
		);
	}
	throw new GstCredentialError(
		'environmentMismatch',
		`Client ID prefix "${clientId.slice(0, 9)}" is not a GST Compliance client id: ${label} clients start with "${expected}" (Production: "svc_live_", Sandbox: "svc_test_"). ` +
			'Copy the Client ID from the Developer hub again.',
	);
}
