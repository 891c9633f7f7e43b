/**
 * The one reading of an HTTP status used by the token client, the API transport and the
 * credential test. Each caller decides what a class means for it (e.g. the token endpoint's 401 is
 * a wrong secret, the API's 401 a stale token), but no caller re-derives the classes itself.
 */
export type HttpStatusClass =
	| 'success' // 2xx
	| 'badRequest' // 400
	| 'unauthorized' // 401
	| 'forbidden' // 403
	| 'notFound' // 404
	| 'rateLimited' // 429
	| 'serverError' // 5xx: worth retrying
	| 'otherClientError'; // any other status: retrying would not help

export function classifyStatus(status: number): HttpStatusClass {
	if (status >= 200 && status < 300) return 'success';
	if (status >= 500) return 'serverError';
	switch (status) {
		case 400:
			return 'badRequest';
		case 401:
			return 'unauthorized';
		case 403:
			return 'forbidden';
		case 404:
			return 'notFound';
		case 429:
			return 'rateLimited';
		default:
			return 'otherClientError';
	}
}
