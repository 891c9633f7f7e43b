/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The wording's own logic, each part at its edges: the rate-limit sentence put together from what
 * is known (who, where, how long, how often, what to do), waits in whole seconds rounded up and a
 * day or more at the Retry-After ceiling, "1 attempt" / "n attempts", the server's words after the
 * status only when it said some, the fallbacks for a missing URL or detail, the credential Test's
 * tab per environment; and, word for word, the messages other tests match only in part. (The messages as
 * the token client, cache and API request produce them: their integration tests.)
 */
import * as messages from '@/nodes/GstCompliance/errors/messages';
import { messageParts } from '@/nodes/GstCompliance/errors/messageParts';
import { RETRY_AFTER_CEILING_MS } from '@/nodes/GstCompliance/http/retry';

const TOKEN_ADVICE =
	'Tokens are cached per n8n process, so this usually means other n8n processes or tools request tokens with the same client. Try again later.';
const API_ADVICE =
	"Try again later, or send fewer requests at once with this client (the GST Compliance node's Concurrency option, fewer workflows using the same client).";

describe('rateLimited: the sentence from what is known', () => {
	it("rateLimited({ party: 'token endpoint' }) → the bare sentence and the token service's advice", () => {
		expect(messages.rateLimited({ party: 'token endpoint' })).toBe(
			`The token service is rate-limiting this client. The answer was HTTP 429. ${TOKEN_ADVICE}`,
		);
	});

	it("rateLimited({ party: 'API', host }) → the API at its host and the API's advice", () => {
		expect(messages.rateLimited({ party: 'API', host: 'api.example.test' })).toBe(
			`The GST Compliance API at api.example.test is rate-limiting this client. The answer was HTTP 429. ${API_ADVICE}`,
		);
	});

	it('rateLimited(every fact) → wait, too long, attempts, pause and advice, in that order', () => {
		expect(
			messages.rateLimited({
				party: 'token endpoint',
				host: 'auth.example.test',
				retryAfterMs: 120_000,
				waitTooLong: true,
				attempts: 1,
				pausedForMs: 60_000,
				advice: 'Ask the service for a higher limit.',
			}),
		).toBe(
			'The token service at auth.example.test is rate-limiting this client and asks to wait 120 s, longer than this node waits; gave up after 1 attempt; new token requests with this credential are paused for 60 s. The answer was HTTP 429. Ask the service for a higher limit.',
		);
	});

	it("rateLimited({ party: 'API', waitTooLong: true } without a Retry-After) → no wait named", () => {
		expect(messages.rateLimited({ party: 'API', waitTooLong: true, attempts: 5 })).toBe(
			`The GST Compliance API is rate-limiting this client; gave up after 5 attempts. The answer was HTTP 429. ${API_ADVICE}`,
		);
	});

	it.each<[number, string]>([
		[0, '0 s'],
		[1, '1 s'],
		[999, '1 s'],
		[1_000, '1 s'],
		[1_001, '2 s'],
		[RETRY_AFTER_CEILING_MS - 1_000, '86399 s'],
		[RETRY_AFTER_CEILING_MS - 1, '86400 s'],
		[RETRY_AFTER_CEILING_MS, 'a day or more'],
		[RETRY_AFTER_CEILING_MS + 1, 'a day or more'],
	])('rateLimited({ retryAfterMs: %i, pausedForMs: the same }) → %s', (ms, shown) => {
		expect(messages.rateLimited({ party: 'API', retryAfterMs: ms, pausedForMs: ms })).toBe(
			`The GST Compliance API is rate-limiting this client and asks to wait ${shown}; new token requests with this credential are paused for ${shown}. The answer was HTTP 429. ${API_ADVICE}`,
		);
	});

	it.each<[number, string]>([
		[0, '0 attempts'],
		[1, '1 attempt'],
		[2, '2 attempts'],
	])('rateLimited({ attempts: %i }) → gave up after %s', (count, shown) => {
		expect(messages.rateLimited({ party: 'API', attempts: count })).toBe(
			`The GST Compliance API is rate-limiting this client; gave up after ${shown}. The answer was HTTP 429. ${API_ADVICE}`,
		);
	});
});

describe('attempts counted in words', () => {
	it.each<[number, string]>([
		[1, 'Could not reach it (gave up after 1 attempt)'],
		[3, 'Could not reach it (gave up after 3 attempts)'],
	])('gaveUpAfter(message, %i) → %s', (count, text) => {
		expect(messages.gaveUpAfter('Could not reach it', count)).toBe(text);
	});

	it.each<[number, string]>([
		[
			1,
			'The GST Compliance API at api.example.test has a problem on its side: each of 1 attempt failed. The answer was HTTP 503. Try again later.',
		],
		[
			5,
			'The GST Compliance API at api.example.test has a problem on its side: each of 5 attempts failed. The answer was HTTP 503. Try again later.',
		],
	])('apiServerError(host, 503, %i) → %s', (count, text) => {
		expect(messages.apiServerError('api.example.test', 503, count)).toBe(text);
	});

	it('apiServerError(host, undefined, 3) → "a server error", never "HTTP undefined"', () => {
		expect(messages.apiServerError('api.example.test', undefined, 3)).toBe(
			'The GST Compliance API at api.example.test has a problem on its side: each of 3 attempts failed. Try again later.',
		);
	});
});

describe("the server's words after the status, only when it said some", () => {
	it.each<[string, string, string]>([
		[
			'tokenRejected(401, "")',
			messages.tokenRejected(401, ''),
			'The token service rejected the client id or secret. The answer was HTTP 401. Check Client ID and Client Secret; after a secret rotation the old secret stops working 24 hours later.',
		],
		[
			'tokenRejected(400, "invalid_client - bad secret")',
			messages.tokenRejected(400, 'invalid_client - bad secret'),
			'The token service rejected the client id or secret. The answer was HTTP 400: invalid_client - bad secret. Check Client ID and Client Secret; after a secret rotation the old secret stops working 24 hours later.',
		],
		[
			'tokenServerError(host, 502, "")',
			messages.tokenServerError('auth.example.test', 502, ''),
			"The token service at auth.example.test has a problem on its side. The answer was HTTP 502. Try again in a few minutes, and if it persists, ask the service's support.",
		],
		[
			'tokenServerError(host, 503, "maintenance")',
			messages.tokenServerError('auth.example.test', 503, 'maintenance'),
			"The token service at auth.example.test has a problem on its side. The answer was HTTP 503: maintenance. Try again in a few minutes, and if it persists, ask the service's support.",
		],
		[
			'tokenUrlWrong(url, 404, "")',
			messages.tokenUrlWrong('https://auth.example.test/realms/gst/x', 404, ''),
			'The token URL https://auth.example.test/realms/gst/x did not give a token. The answer was HTTP 404. Check Auth URL and Realm in the credential.',
		],
		[
			'tokenUrlWrong(url, 404, "Realm does not exist")',
			messages.tokenUrlWrong('https://auth.example.test/realms/gst/x', 404, 'Realm does not exist'),
			'The token URL https://auth.example.test/realms/gst/x did not give a token. The answer was HTTP 404: Realm does not exist. Check Auth URL and Realm in the credential.',
		],
		[
			'apiRefused(host, 409, "")',
			messages.apiRefused('api.example.test', 409, ''),
			'The GST Compliance API at api.example.test refused the request. The answer was HTTP 409. Check the ID and the request against what the service says, then try again.',
		],
		[
			'apiRefused(host, 422, "bad gstin")',
			messages.apiRefused('api.example.test', 422, 'bad gstin'),
			'The GST Compliance API at api.example.test refused the request: bad gstin. The answer was HTTP 422. Check the ID and the request against what the service says, then try again.',
		],
	])('%s → the exact sentence', (_call, text, expected) => {
		expect(text).toBe(expected);
	});
});

describe('fallbacks when a fact is missing', () => {
	it.each<[string, string | undefined, string]>([
		['a URL', 'https://other.test/v1/x', 'not to https://other.test/v1/x.'],
		['no URL', undefined, 'not to the requested URL.'],
		['an empty URL', '', 'not to the requested URL.'],
		['the text "null" (a URL n8n could not read)', 'null', 'not to the requested URL.'],
	])(
		'foreignHost(environment, expected, %s) → names it or "the requested URL"',
		(_label, got, named) => {
			expect(messages.foreignHost('Sandbox', 'https://sandbox.example.test', got)).toBe(
				`The GST Compliance API credential only sends its token to the Sandbox API URL (https://sandbox.example.test), ${named} Use a path such as /v1/einvoices/<id>, or a URL starting with https://sandbox.example.test, or change the credential's Environment / API URL.`,
			);
		},
	);

	it.each<[string, string]>([
		['blocked by SSRF protection', 'blocked by SSRF protection'],
		['', 'refused'],
	])('tokenRequestRefusedByN8n(host, %p) → says %p', (detail, said) => {
		expect(messages.tokenRequestRefusedByN8n('auth.example.test', detail)).toBe(
			`n8n did not send the request to the token service at auth.example.test: ${said}. If n8n's outbound request policy blocks this host (N8N_SSRF_PROTECTION_ENABLED with its blocked IP ranges and host names), ask the n8n administrator to allow it (N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES), or check the URL in the credential.`,
		);
	});

	it.each<[string, string]>([
		[
			'',
			'The credential could not be checked. Check each field against the Developer hub and the onboarding material, then test again.',
		],
		[
			'fetch failed',
			'The credential could not be checked: fetch failed. Check each field against the Developer hub and the onboarding material, then test again.',
		],
	])('credentialTest.notChecked(%p) → %s', (detail, text) => {
		expect(messages.credentialTest.notChecked(detail)).toBe(text);
	});
});

describe("the credential Test's outcomes", () => {
	it.each<[string, string]>([
		['Production', 'Live'],
		['Sandbox', 'Sandbox'],
	])(
		'credentialTest.tokenRejected(%s, …) → the %s tab, the environment in lower case',
		(environment, tab) => {
			expect(
				messages.credentialTest.tokenRejected(
					environment,
					'api.example.test',
					'organization org_1',
				),
			).toBe(
				`A token was issued for organization org_1, but the ${environment} API host api.example.test rejected it (HTTP 401). Check that the ${environment} API URL really is the ${environment.toLowerCase()} host and that the client was created in the ${tab} tab.`,
			);
		},
	);

	it('credentialTest.hostUnreachable / unexpectedStatus → the exact sentences', () => {
		expect(
			messages.credentialTest.hostUnreachable(
				'Production',
				'api.example.test',
				'the connection was refused',
			),
		).toBe(
			'A token was issued, but the Production API host api.example.test could not be reached: the connection was refused. Check the Production API URL.',
		);
		expect(messages.credentialTest.unexpectedStatus('Sandbox', 'sandbox.example.test', 500)).toBe(
			'A token was issued, but the Sandbox API host sandbox.example.test answered HTTP 500. Check the Sandbox API URL.',
		);
	});
});

describe('word for word: the messages other tests match only in part, or not at all', () => {
	it.each<[string, string, string]>([
		[
			'apiUnreachable(host, why, environment)',
			messages.apiUnreachable(
				'api.example.test',
				'the host name could not be resolved',
				'Production',
			),
			'Could not reach the GST Compliance API at api.example.test: the host name could not be resolved. Check the Production API URL in the credential and that n8n can reach it',
		],
		[
			'tokenNotUsable(host, status, excerpt)',
			messages.tokenNotUsable('auth.example.test', 200, '<html>'),
			'The token service at auth.example.test gave no usable access token. The answer was HTTP 200 (body: "<html>"). Check the Auth URL and Realm.',
		],
		[
			'apiNotJson(host, status)',
			messages.apiNotJson('api.example.test', 200),
			"The GST Compliance API at api.example.test answered with a body that is not a JSON object. The answer was HTTP 200. Check the API URL in the credential: it must be the API's address, not a web page (the credential's Test tells them apart).",
		],
		[
			'apiUnauthorized(environment, host)',
			messages.apiUnauthorized('Sandbox', 'sandbox.example.test'),
			"The Sandbox API host (sandbox.example.test) rejected the credential's token, and a new one as well. Either the client belongs to the other environment (check Environment and the API URLs in the credential) or its secret was revoked (create or rotate the secret in the Developer hub and update the credential).",
		],
		[
			'notEntitled(capability)',
			messages.notEntitled('e-way bills'),
			'Your plan does not include e-way bills. The credential works, but this capability is switched off for the account; ask the account admin to enable it.',
		],
		[
			'unverifiedChannel(environment, expected, why)',
			messages.unverifiedChannel(
				'Production',
				'https://api.example.test',
				'skips the TLS certificate check',
			),
			"The GST Compliance API credential only sends its token to the Production API URL (https://api.example.test) over a connection that is verified to reach it: this request skips the TLS certificate check. Remove that option from the request (n8n's own proxy settings, HTTP_PROXY / HTTPS_PROXY, keep working).",
		],
		[
			'cleartextUrl(field, what)',
			messages.cleartextUrl('Auth URL', 'client secret'),
			'Auth URL in the GST Compliance API credential starts with http://, over which n8n would send the client secret unencrypted. Change it to https:// (http:// is accepted only for this machine: localhost, 127.0.0.1, ::1, e.g. a local emulator).',
		],
		[
			'urlWithUserInfo(field)',
			messages.urlWithUserInfo('Sandbox API URL'),
			'Sandbox API URL in the GST Compliance API credential contains a user name or password (the part before @). Enter only the scheme, host and optional path, for example https://auth.example.com',
		],
		[
			'credentialFieldsMissing([one])',
			messages.credentialFieldsMissing(['Realm']),
			'The GST Compliance API credential is missing: Realm. Fill it in and save the credential.',
		],
	])('%s → the exact sentence', (_call, text, expected) => {
		expect(text).toBe(expected);
	});
});

describe('every message says what to do next', () => {
	/** A next step: the imperative verbs the messages use. */
	const REMEDY =
		/\b(Check|check|Try|try|Ask|ask|Use|use|Set|Copy|Map|map|Pass|pass|Lower|Remove|Create|create|Clear|clear|Fix|Turn|turn|Point|Fill|fill|enter|Enter|Change|Paste|paste|update|Update|Stay|stay)\b/;
	/** Parts of other messages, or not an error. */
	const NOT_MESSAGES = new Set(['redirectedTooOften', 'gaveUpAfter', 'unreachable', 'connected']);
	const sample = (fn: (...args: never[]) => unknown): string => {
		const args = Array.from({ length: fn.length }, () => 'X');
		if (fn === messages.rateLimited) return messages.rateLimited({ party: 'API' });
		if (fn === messages.clientOfOtherEnvironment)
			return messages.clientOfOtherEnvironment({
				clientPrefix: 'svc_live_',
				clientEnvironment: 'Production',
				environment: 'Sandbox',
				expectedPrefix: 'svc_test_',
				tab: 'Sandbox',
			});
		if (fn === messages.credentialFieldsMissing) return messages.credentialFieldsMissing(['Realm']);
		return String((fn as (...a: string[]) => unknown)(...args));
	};
	const all = [
		...Object.entries(messages),
		...Object.entries(messages.credentialTest).map(([name, fn]) => [`credentialTest.${name}`, fn]),
	].filter(
		([name, fn]) =>
			typeof fn === 'function' && !NOT_MESSAGES.has(String(name).replace('credentialTest.', '')),
	) as Array<[string, (...args: never[]) => unknown]>;

	it.each(all)('%s → names a next step', (_name, fn) => {
		expect(sample(fn)).toMatch(REMEDY);
	});

	// The title is what the user reads first: what happened, in the form's and the service's words.
	it.each(all)(
		'%s → a title without protocol words (endpoint, mint, an HTTP status)',
		(name, fn) => {
			const { title } = messageParts(sample(fn));
			expect(title).not.toMatch(/endpoint|\bmint/i);
			// The credential's Test shows its outcome as one line, not as a title.
			if (!name.startsWith('credentialTest.'))
				expect(title).not.toMatch(/HTTP \d|\b\dxx\b|\b[45]\d\d\b/);
		},
	);

	// n8n shows an error's message in red and its description under it (errors/apiError.ts).
	it.each(all)(
		'%s → splits into what happened (the title, no next step) and what to do',
		(_name, fn) => {
			const { title, remedy } = messageParts(sample(fn));
			expect({ title, titleNamesNextStep: REMEDY.test(title) }).toEqual({
				title,
				titleNamesNextStep: false,
			});
			expect(remedy).toMatch(REMEDY);
		},
	);
});
