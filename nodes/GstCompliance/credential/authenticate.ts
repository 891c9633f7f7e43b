import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { GstCredentialError } from '../errors/credentialError';
import type { GstEnvironment } from './environment';
import {
	apiBaseUrl,
	assertClientMatchesEnvironment,
	ENVIRONMENT_LABEL,
	parseCredentials,
} from './environment';
import { hasControlCharacter } from '../controlCharacters';
import * as messages from '../errors/messages';
import { combineUrls } from '../http/redirects';
import { tokenCache } from './tokenCache';
import type { TokenPost } from './tokenClient';

/**
 * The legacy request helper (HTTP Request node, "Predefined credential type") passes `uri`, not
 * `url`.
 */
type AnyRequestOptions = IHttpRequestOptions & {
	uri?: unknown;
	/** Legacy request options (the HTTP Request node's "Ignore SSL Issues" sets it to false). */
	rejectUnauthorized?: unknown;
	strictSSL?: unknown;
	proxy?: unknown;
};

/**
 * The credential's `authenticate`: checks the environment locally, attaches a cached bearer token,
 * points relative URLs at the environment's API host and refuses to send the token anywhere else.
 * n8n calls `authenticate` with no request helpers (the HTTP Request node), so a token minted
 * here goes out through the global `fetch` (docs/security.md).
 */
export async function authenticateRequest(
	data: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return await authenticateWith(data, requestOptions);
}

/** `authenticateRequest` with the token request sent through `post` (the package's own nodes). */
export async function authenticateWith(
	data: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	post?: TokenPost,
): Promise<IHttpRequestOptions> {
	const credentials = parseCredentials(data);
	assertClientMatchesEnvironment(credentials);
	const options: AnyRequestOptions = { ...requestOptions };
	assertTargetsApiOrigin(options, apiBaseUrl(credentials), credentials.environment);
	assertVerifiedChannel(options, apiBaseUrl(credentials), credentials.environment);
	const token = await tokenCache.getToken(credentials, { post });
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

/**
 * Besides control characters: text on which URL parsers disagree (WHATWG strips or rewrites it,
 * axios keeps it).
 */
const AMBIGUOUS_URL_TEXT = /\\|^\s|\s$/;

/** axios: absolute when it starts with `<scheme>://` or `//` (its isAbsoluteURL). */
const AXIOS_ABSOLUTE = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/** axios rejects `http:` / `https:` without `//`; WHATWG reads them as absolute. */
const MALFORMED_HTTP_SCHEME = /^https?:(?!\/\/)/i;

/**
 * Every URL field n8n's request layers read is checked, resolved both ways the final URL is
 * computed in n8n 2.41 (n8n-core / @n8n/backend-network): WHATWG `new URL(url, baseURL)` (n8n's
 * SSRF and domain checks, the legacy helper's `url ?? uri`) and axios's own join (what is sent).
 * Sets `baseURL` to the API URL when the request has none. Throws `foreignHost` unless every
 * resolution lands on the environment's API origin.
 */
export function assertTargetsApiOrigin(
	options: AnyRequestOptions,
	apiBase: string,
	environment: GstEnvironment,
): void {
	const expected = new URL(apiBase).origin;
	const refuse = (got?: string): never => {
		throw new GstCredentialError(
			'foreignHost',
			messages.foreignHost(ENVIRONMENT_LABEL[environment], expected, got),
		);
	};
	const field = (value: unknown): string | undefined => {
		if (value === undefined || value === null) return undefined;
		const text = value instanceof URL ? value.href : typeof value === 'string' ? value : refuse();
		if (
			hasControlCharacter(text) ||
			AMBIGUOUS_URL_TEXT.test(text) ||
			MALFORMED_HTTP_SCHEME.test(text)
		)
			refuse();
		return text;
	};
	const originOf = (url: string, base?: string): string => {
		try {
			return new URL(url, base).origin;
		} catch {
			return refuse();
		}
	};

	const baseURL = field(options.baseURL);
	if (baseURL !== undefined && originOf(baseURL) !== expected) refuse(originOf(baseURL));
	const effectiveBase = baseURL ?? apiBase;
	for (const target of [field(options.url), field(options.uri)]) {
		if (target === undefined) continue;
		const checked = originOf(target, effectiveBase);
		const sent = AXIOS_ABSOLUTE.test(target)
			? originOf(target)
			: originOf(combineUrls(effectiveBase, target));
		if (checked !== expected) refuse(checked);
		if (sent !== expected) refuse(sent);
	}
	if (baseURL === undefined) options.baseURL = apiBase;
}

/**
 * The token reaches only a peer that is verified to be the API host: refuses a request with
 * certificate verification switched off (a proxy or anyone on the path could then present its own
 * certificate), a proxy of the request's own when the API URL is http:// (the proxy would read the
 * request, token included; an https:// API URL through a proxy is a CONNECT tunnel the proxy cannot
 * read), and a `Host` header naming another host. n8n's environment proxy is not the request's:
 * it is left to n8n.
 */
export function assertVerifiedChannel(
	options: AnyRequestOptions,
	apiBase: string,
	environment: GstEnvironment,
): void {
	const api = new URL(apiBase);
	const refuse = (why: string): never => {
		throw new GstCredentialError(
			'foreignHost',
			messages.unverifiedChannel(ENVIRONMENT_LABEL[environment], api.origin, why),
		);
	};
	if (
		options.skipSslCertificateValidation === true ||
		options.rejectUnauthorized === false ||
		options.strictSSL === false
	)
		refuse('switches certificate verification off ("Ignore SSL Issues")');
	if (hasOwnProxy(options.proxy) && api.protocol === 'http:')
		refuse('goes through a proxy, which would see it in clear text over http://');
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (name.toLowerCase() !== 'host') continue;
		if (typeof value !== 'string' || !sameHost(value, api))
			refuse('sets a Host header naming another host');
	}
}

/** A proxy set on the request itself: a URL string, or axios's `{ host, port }` object. */
function hasOwnProxy(proxy: unknown): boolean {
	if (proxy === undefined || proxy === null || proxy === false || proxy === '') return false;
	return true;
}

/** `Host: api.example.com` or `api.example.com:443` for https://api.example.com. */
function sameHost(header: string, api: URL): boolean {
	const value = header.trim().toLowerCase();
	const port = api.port || (api.protocol === 'https:' ? '443' : '80');
	return value === api.host.toLowerCase() || value === `${api.hostname.toLowerCase()}:${port}`;
}
