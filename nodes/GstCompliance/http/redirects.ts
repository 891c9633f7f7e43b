/**
 * The API's redirects, followed by the package rather than by n8n. n8n before 1.123.50 (1.x) and
 * 2.6 (2.x) does not know `sendCredentialsOnCrossOriginRedirect` and re-sends the token to any
 * origin it is redirected to (README, Compatibility); following here keeps the token on the API
 * origin on every n8n version that loads the package.
 */
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/** What curl and browsers allow; n8n's own follow allows 21. */
export const MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One request of a redirect chain. */
export interface Hop {
	/** Absolute URL. */
	url: string;
	method: IHttpRequestMethods;
	body?: IDataObject;
	/** Whether the hop carries the token: on the API origin, and only until a hop has left it. */
	authenticated: boolean;
}

/**
 * The hop a redirect answer leads to, or undefined when the answer is not one to follow (not a
 * redirect status, or no usable http(s) `Location`: the caller then reports the status as is).
 * 303, and 301/302 after a POST, continue as a GET without a body, as browsers and n8n do.
 */
export function nextHop(
	status: number,
	location: unknown,
	from: Hop,
	apiOrigin: string,
): Hop | undefined {
	if (!REDIRECT_STATUSES.has(status)) return undefined;
	const text = Array.isArray(location) ? location[0] : location;
	if (typeof text !== 'string' || text.trim() === '') return undefined;
	let url: URL;
	try {
		url = new URL(text, from.url);
	} catch {
		return undefined;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
	const asGet =
		(status === 303 && from.method !== 'HEAD') ||
		((status === 301 || status === 302) && from.method === 'POST');
	return {
		url: url.href,
		method: asGet ? 'GET' : from.method,
		body: asGet ? undefined : from.body,
		authenticated: from.authenticated && url.origin === apiOrigin,
	};
}

/** Where a request and the redirects it led to ended. */
export interface FollowedRedirects<Answer> {
	/** The hop that got `answer`. */
	hop: Hop;
	answer: Answer;
	/** The chain went on past MAX_REDIRECTS; `answer` is the last redirect. */
	redirectedTooOften: boolean;
}

/**
 * Sends `first` and then each hop its redirect answers lead to (`nextHop`), at most MAX_REDIRECTS
 * of them. `send` is told how many redirects were followed before the hop (0 for `first`).
 */
export async function followRedirects<Answer extends RedirectAnswer>(
	first: Hop,
	apiOrigin: string,
	send: (hop: Hop, followed: number) => Promise<Answer>,
): Promise<FollowedRedirects<Answer>> {
	let hop = first;
	let answer = await send(hop, 0);
	for (let followed = 0; ; followed++) {
		const next = nextHop(answer.statusCode, answer.headers?.location, hop, apiOrigin);
		if (!next) return { hop, answer, redirectedTooOften: false };
		if (followed === MAX_REDIRECTS) return { hop, answer, redirectedTooOften: true };
		hop = next;
		answer = await send(hop, followed + 1);
	}
}

/** What `followRedirects` reads of an answer. */
export interface RedirectAnswer {
	statusCode: number;
	headers?: { location?: unknown };
}

/** axios's combineURLs: how a request's URL is joined to its base URL. */
export function combineUrls(base: string, relative: string): string {
	return relative ? `${base.replace(/\/?\/$/, '')}/${relative.replace(/^\/+/, '')}` : base;
}

/** The absolute URL of a request to `path` with query `qs` on `apiBase`, as axios sends it. */
export function requestUrl(apiBase: string, path: string, qs?: IDataObject): string {
	const url = new URL(combineUrls(apiBase, path));
	for (const [name, value] of Object.entries(qs ?? {})) {
		if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
	}
	return url.href;
}
