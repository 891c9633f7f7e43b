// @ts-nocheck
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { GstCredentialError } from './credentialError';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	ENVIRONMENT_LABEL,
	parseCredentials,
} from './environment';
import { tokenCache } from './tokenCache';

/** The legacy request helper (HTTP Request node, "Predefined credential type") passes `uri`, not `url`. */
type AnyRequestOptions = IHttpRequestOptions & { uri?: string };

const isAbsolute = (url: string): boolean => /^[a-z][a-z\d+.-]*:/i.test(url);

/**
 * The credential's `authenticate`: checks the environment locally, attaches a cached bearer token,
 * points relative URLs at the environment's API host and refuses to send the token anywhere else.
 */
export async function authenticateRequest(
	data: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const credentials = parseCredentials(data);
	assertClientMatchesEnvironment(credentials);
	const base = apiBaseUrl(credentials);
	const options: AnyRequestOptions = { ...requestOptions };
	const target = options.uri ?? options.url ?? '';
	if (isAbsolute(target)) {
		assertSameOrigin(target, base, credentials.environment);
	} else if (options.baseURL) {
		assertSameOrigin(options.baseURL, base, credentials.environment);
	} else {
		options.baseURL = base;
	}
	const token = await tokenCache.getToken(credentials);
	const headers: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (name.toLowerCase() !== 'authorization') headers[name] = value;
	}
	headers.Authorization = `Bearer ${token.accessToken}`;
	options.headers = headers as IHttpRequestOptions['headers'];
	// A redirect to another origin must not carry the token along (n8n's default would).
	options.sendCredentialsOnCrossOriginRedirect = false;
	return options;
}

function assertSameOrigin(
	url: string,
	apiBase: string,
	environment: keyof typeof ENVIRONMENT_LABEL,
): void {
	let origin: string;
	try {
		origin = new URL(url).origin;
	} catch {
		origin = '';
	}
	const expected = new URL(apiBase).origin;
	if (origin === expected) return;
	throw new GstCredentialError(
		'foreignHost',
		`The GST Compliance API credential only sends its token to the ${ENVIRONMENT_LABEL[environment]} API URL (${expected}), not to ${origin || 'the requested URL'}. ` +
			`Use a path such as /v1/einvoices/<id>, or a URL starting with ${expected}, or change the credential's Environment / API URL.`,
	);
}
