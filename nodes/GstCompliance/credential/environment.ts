import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { GstCredentialError } from '../errors/credentialError';
import * as messages from '../errors/messages';

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

/**
 * Each client id prefix belongs to one environment (docs/service-api.md, "Environments and client
 * ids").
 */
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

/** An API URL as pasted with its version path (`…/v1`): the package adds /v1 to every path. */
const apiBase = (url: string): string => withoutTrailingSlash(url).replace(/\/v1$/i, '');

/** `<base>/realms/<realm>[/protocol/openid-connect/token]`: a token URL pasted whole. */
const TOKEN_URL = /^(.*?)\/realms\/([^/]+)(?:\/protocol\/openid-connect\/token)?$/;

/**
 * The Auth URL's base and the realm, from the two fields or from a token URL pasted whole into
 * Auth URL (Realm then empty or the same).
 */
function authBaseAndRealm(
	authUrlField: string,
	realmField: string,
): { authUrl: string; realm: string } {
	const authUrl = withoutTrailingSlash(authUrlField);
	const realm = realmField.replace(/^\/+|\/+$/g, '');
	const pasted = TOKEN_URL.exec(authUrl);
	if (!pasted) return { authUrl, realm };
	const named = decodeURIComponent(pasted[2]);
	if (realm && realm !== named)
		throw new GstCredentialError('configuration', messages.realmConflict(named, realm));
	return { authUrl: pasted[1], realm: named };
}

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
		...authBaseAndRealm(text(data, 'authUrl'), text(data, 'realm')),
		productionApiUrl: apiBase(text(data, 'productionApiUrl')),
		sandboxApiUrl: apiBase(text(data, 'sandboxApiUrl')),
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
			messages.credentialFieldsMissing(missing.map((key) => FIELD_LABEL[key])),
		);
	}
	for (const key of ['authUrl', apiUrlField(environment)] as const) {
		assertUsableUrl(key, credentials[key]);
	}
	return credentials;
}

/** What travels to each URL, for the clear-text refusal. */
const SENT_TO: Record<'authUrl' | 'productionApiUrl' | 'sandboxApiUrl', string> = {
	authUrl: 'client secret',
	productionApiUrl: 'access token',
	sandboxApiUrl: 'access token',
};

/**
 * An http(s) URL without user info; http:// only for a loopback host, where nothing leaves the
 * machine (the emulator and local tests). Anything else would carry the secret or the token in
 * clear text.
 */
function assertUsableUrl(key: keyof typeof SENT_TO, value: string): void {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		url = new URL('invalid:');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new GstCredentialError('configuration', messages.notHttpUrl(FIELD_LABEL[key]));
	}
	if (url.username !== '' || url.password !== '') {
		throw new GstCredentialError('configuration', messages.urlWithUserInfo(FIELD_LABEL[key]));
	}
	if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
		throw new GstCredentialError(
			'configuration',
			messages.cleartextUrl(FIELD_LABEL[key], SENT_TO[key]),
		);
	}
}

/**
 * `localhost`, 127.0.0.0/8 or ::1, as the WHATWG parser normalizes them (127.1 reads as 127.0.0.1).
 */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host === 'localhost' || host === '[::1]') return true;
	const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return (
		octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255) && octets[1] === '127'
	);
}

function apiUrlField(environment: GstEnvironment): 'productionApiUrl' | 'sandboxApiUrl' {
	return environment === 'production' ? 'productionApiUrl' : 'sandboxApiUrl';
}

/** The API host decides which environment a token acts on. */
export function apiBaseUrl(credentials: GstCredentials): string {
	return credentials[apiUrlField(credentials.environment)];
}

export function tokenUrl(credentials: GstCredentials): string {
	const realm = encodeURIComponent(credentials.realm);
	return `${credentials.authUrl}/realms/${realm}/protocol/openid-connect/token`;
}

/**
 * Fails before any network call when the client id belongs to the other environment (or to none).
 */
export function assertClientMatchesEnvironment(credentials: GstCredentials): void {
	const { clientId, environment } = credentials;
	const expected = CLIENT_ID_PREFIX[environment];
	if (clientId.startsWith(expected)) return;
	const other: GstEnvironment = environment === 'production' ? 'sandbox' : 'production';
	const label = ENVIRONMENT_LABEL[environment];
	const tab = label === 'Production' ? 'Live' : 'Sandbox';
	if (clientId.startsWith(CLIENT_ID_PREFIX[other])) {
		throw new GstCredentialError(
			'environmentMismatch',
			messages.clientOfOtherEnvironment({
				clientPrefix: CLIENT_ID_PREFIX[other],
				clientEnvironment: ENVIRONMENT_LABEL[other],
				environment: label,
				expectedPrefix: expected,
				tab,
			}),
		);
	}
	throw new GstCredentialError(
		'environmentMismatch',
		messages.notAClientId(clientId.slice(0, 9), label, expected),
	);
}
