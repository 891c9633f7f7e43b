/* eslint-disable @n8n/community-nodes/no-deprecated-workflow-functions -- requestWithAuthentication below stands in for the legacy helper the HTTP Request node calls, which takes IRequestOptions */
/**
 * n8n's request helpers, reimplemented over `fetch` as thinly as possible, so the package's code
 * runs against the emulator over real HTTP the way n8n would run it:
 * - `httpRequest` honours url/baseURL, qs, headers, json body, timeout, returnFullResponse and
 *   ignoreHttpStatusErrors, parses JSON bodies when it can (as axios does) and throws an
 *   axios-like error (`response.status`, `code`) otherwise.
 * - `httpRequestWithAuthentication` / `requestWithAuthentication` call the credential type's real
 *   `authenticate` and wrap every failure in NodeApiError, as n8n-core does.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	IRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export interface HttpLogEntry {
	method: string;
	url: string;
	status?: number;
	error?: string;
}

/** Requests in flight at once through the helpers (the pool bound, independent of socket reuse). */
export interface HttpStats {
	inFlight: number;
	maxInFlight: number;
}

export interface FullResponse {
	body: unknown;
	headers: Record<string, string>;
	statusCode: number;
	statusMessage: string;
}

function joinUrl(baseURL: string | undefined, url: string): string {
	if (/^[a-z][a-z\d+.-]*:/i.test(url) || !baseURL) return url;
	return `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

function parseBody(text: string): unknown {
	if (text === '') return text;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** fetch throws TypeError('fetch failed') with the socket error as cause; axios exposes its code. */
function networkError(error: unknown): Error {
	const cause = (error as { cause?: { code?: string; message?: string } }).cause;
	const isTimeout = (error as { name?: string }).name === 'TimeoutError';
	const code = isTimeout ? 'ECONNABORTED' : (cause?.code ?? 'ECONNRESET');
	const message = isTimeout ? 'timeout exceeded' : (cause?.message ?? (error as Error).message);
	return Object.assign(new Error(message), { name: 'AxiosError', code, isAxiosError: true });
}

export async function httpRequest(
	options: IHttpRequestOptions,
	log?: HttpLogEntry[],
	stats?: HttpStats,
): Promise<unknown> {
	const url = new URL(joinUrl(options.baseURL, options.url));
	for (const [key, value] of Object.entries(options.qs ?? {})) {
		if (value !== undefined) url.searchParams.append(key, String(value));
	}
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(options.headers ?? {})) headers[key] = String(value);
	let body: string | undefined;
	if (options.body instanceof URLSearchParams) {
		body = options.body.toString();
		headers['content-type'] ??= 'application/x-www-form-urlencoded';
	} else if (
		options.body !== undefined &&
		options.body !== null &&
		(options.json || typeof options.body === 'object')
	) {
		body = JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	} else if (typeof options.body === 'string') {
		body = options.body;
	}
	if (options.json) headers.accept ??= 'application/json';
	const method = options.method ?? 'GET';
	const entry: HttpLogEntry = { method, url: url.toString() };
	log?.push(entry);

	let response: Response;
	let text: string;
	if (stats) stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
	try {
		response = await fetch(url, {
			method,
			headers,
			body,
			signal: options.timeout ? AbortSignal.timeout(options.timeout) : undefined,
		});
		text = await response.text();
	} catch (error) {
		const converted = networkError(error);
		entry.error = converted.message;
		throw converted;
	} finally {
		if (stats) stats.inFlight--;
	}
	entry.status = response.status;
	const full: FullResponse = {
		body: parseBody(text),
		headers: Object.fromEntries(response.headers.entries()),
		statusCode: response.status,
		statusMessage: response.statusText,
	};
	if (response.status >= 400 && !options.ignoreHttpStatusErrors) {
		throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
			name: 'AxiosError',
			isAxiosError: true,
			response: { status: response.status, data: full.body, headers: full.headers },
		});
	}
	return options.returnFullResponse ? full : full.body;
}

export interface AuthenticatedHelpersOptions {
	node: INode;
	credentialTypes: Record<string, ICredentialType>;
	getCredentials: (type: string) => Promise<ICredentialDataDecryptedObject>;
	log?: HttpLogEntry[];
	stats?: HttpStats;
}

async function authenticate(
	options: AuthenticatedHelpersOptions,
	type: string,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const credentialType = options.credentialTypes[type];
	if (!credentialType) throw new Error(`Unknown credential type ${type}`);
	const data = await options.getCredentials(type);
	const { authenticate: auth } = credentialType;
	if (typeof auth === 'function') return await auth(data, request);
	if (auth) throw new Error('Generic (declarative) authenticate is not supported by this fake');
	return request;
}

export function authenticatedHelpers(options: AuthenticatedHelpersOptions) {
	return {
		/** n8n-core's `httpRequestWithAuthentication` for credentials with a function `authenticate`. */
		async httpRequestWithAuthentication(
			type: string,
			request: IHttpRequestOptions,
		): Promise<unknown> {
			try {
				return await httpRequest(
					await authenticate(options, type, request),
					options.log,
					options.stats,
				);
			} catch (error) {
				throw new NodeApiError(options.node, error as JsonObject);
			}
		},

		/**
		 * The legacy helper the HTTP Request node uses with "Predefined credential type": options
		 * carry an absolute `uri`; the credential's `authenticate` receives them as they are.
		 */
		async requestWithAuthentication(type: string, request: IRequestOptions): Promise<unknown> {
			try {
				const authed = (await authenticate(
					options,
					type,
					request as unknown as IHttpRequestOptions,
				)) as unknown as IRequestOptions & { baseURL?: string };
				const full = (await httpRequest(
					{
						method: authed.method,
						url: authed.uri ?? authed.url ?? '',
						baseURL: authed.baseURL,
						qs: authed.qs as IDataObject,
						headers: authed.headers as IDataObject,
						body: authed.body as IDataObject,
						json: authed.json,
						ignoreHttpStatusErrors: authed.simple === false,
						returnFullResponse: true,
					},
					options.log,
					options.stats,
				)) as FullResponse;
				return authed.resolveWithFullResponse ? full : full.body;
			} catch (error) {
				throw new NodeApiError(options.node, error as JsonObject);
			}
		},
	};
}
