/**
 * Every message a user reads when a call to the service fails, written once. The token client, the
 * token cache, the API request and the connection check only pick one and fill in the facts; the
 * wording (what happened, then what to change) stays the same wherever the failure surfaces.
 */
import { RETRY_AFTER_CEILING_MS } from '../http/retry';

const attempts = (count: number): string => `${count} attempt${count === 1 ? '' : 's'}`;
/**
 * A wait as the user reads it; parseRetryAfter caps every Retry-After at RETRY_AFTER_CEILING_MS.
 */
const seconds = (ms: number): string =>
	ms >= RETRY_AFTER_CEILING_MS ? 'a day or more' : `${Math.ceil(ms / 1000)} s`;
/** A server's own words (errors/serverWords.ts) after its status; nothing when it said none. */
const saying = (serverSays: string): string => (serverSays ? `: ${serverSays}` : '');
/** `text` closed as a sentence (a server's words may end with their own mark). */
const closed = (text: string): string => (/[.?!]$/.test(text) ? text : `${text}.`);
/**
 * The status a server answered, and its words, after what happened: the title says that in the
 * user's words, and the status is for whoever they ask for help.
 */
const answerWas = (status: number, serverSays = ''): string =>
	closed(`The answer was HTTP ${status}${saying(serverSays)}`);

export type RateLimitedParty = 'token endpoint' | 'API';

export interface RateLimitFacts {
	party: RateLimitedParty;
	host?: string;
	/** The server's last Retry-After. */
	retryAfterMs?: number;
	/** How long the token cache still fails fast without asking the token endpoint. */
	pausedForMs?: number;
	/** How many attempts were made before giving up. */
	attempts?: number;
	/** The Retry-After was longer than the caller waits. */
	waitTooLong?: boolean;
	/** What to do instead of the party's usual advice. */
	advice?: string;
}

const RATE_LIMIT_ADVICE: Record<RateLimitedParty, string> = {
	'token endpoint':
		'Tokens are cached per n8n process, so this usually means other n8n processes or tools request tokens with the same client. Try again later.',
	// Said by the action node and by the trigger's refetch alike: only the former has Concurrency.
	API: "Try again later, or send fewer requests at once with this client (the GST Compliance node's Concurrency option, fewer workflows using the same client).",
};

export function rateLimited(facts: RateLimitFacts): string {
	const who = facts.party === 'API' ? 'The GST Compliance API' : 'The token service';
	const at = facts.host ? ` at ${facts.host}` : '';
	const wait =
		facts.retryAfterMs !== undefined
			? ` and asks to wait ${seconds(facts.retryAfterMs)}${facts.waitTooLong ? ', longer than this node waits' : ''}`
			: '';
	const gaveUp = facts.attempts !== undefined ? `; gave up after ${attempts(facts.attempts)}` : '';
	const paused =
		facts.pausedForMs !== undefined
			? `; new token requests with this credential are paused for ${seconds(facts.pausedForMs)}`
			: '';
	return `${who}${at} is rate-limiting this client${wait}${gaveUp}${paused}. ${answerWas(429)} ${facts.advice ?? RATE_LIMIT_ADVICE[facts.party]}`;
}

/**
 * The message with how often it was tried, at the end of what happened: before the first full stop
 * that starts the advice (a full stop before a capital letter, so hosts such as auth.example.com
 * stay whole).
 */
export const gaveUpAfter = (message: string, count: number): string => {
	const tried = ` (gave up after ${attempts(count)})`;
	const end = /\.\s+(?=[A-Z])/.exec(message);
	return end
		? `${message.slice(0, end.index)}${tried}${message.slice(end.index)}`
		: `${message}${tried}`;
};

export const unreachable = (what: string, host: string, why: string, fix: string): string =>
	`Could not reach the ${what} at ${host}: ${why}. ${fix}`;

export const tokenEndpointUnreachable = (host: string, why: string): string =>
	unreachable('token service', host, why, 'Check the Auth URL and that n8n can reach it.');

/** n8n did not send the token request (its outbound request policy, N8N_SSRF_*, or another refusal). */
export const tokenRequestRefusedByN8n = (host: string, detail: string): string =>
	`n8n did not send the request to the token service at ${host}: ${detail || 'refused'}. If n8n's outbound request policy blocks this host (N8N_SSRF_PROTECTION_ENABLED with its blocked IP ranges and host names), ask the n8n administrator to allow it (N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES), or check the URL in the credential.`;

export const tokenRejected = (status: number, serverSays: string): string =>
	`The token service rejected the client id or secret. ${answerWas(status, serverSays)} Check Client ID and Client Secret; after a secret rotation the old secret stops working 24 hours later.`;

export const tokenNotUsable = (host: string, status: number, bodyExcerpt: string): string =>
	`The token service at ${host} gave no usable access token. The answer was HTTP ${status} (body: "${bodyExcerpt}"). Check the Auth URL and Realm.`;

export const tokenServerError = (host: string, status: number, serverSays: string): string =>
	`The token service at ${host} has a problem on its side. ${answerWas(status, serverSays)} Try again in a few minutes, and if it persists, ask the service's support.`;

export const tokenUrlWrong = (url: string, status: number, serverSays: string): string =>
	`The token URL ${url} did not give a token. ${answerWas(status, serverSays)} Check Auth URL and Realm in the credential.`;

export const apiUnreachable = (host: string, why: string, environment: string): string =>
	unreachable(
		'GST Compliance API',
		host,
		why,
		`Check the ${environment} API URL in the credential and that n8n can reach it`,
	);

export const apiRequestFailed = (host: string, detail: string): string =>
	`${closed(`The request to the GST Compliance API at ${host} failed: ${detail}`)} Check the API URL in the credential and that n8n can reach it, then try again.`;

export const redirectedTooOften = (max: number): string =>
	`it was redirected more than ${max} times`;

export const apiNotJson = (host: string, status: number): string =>
	`The GST Compliance API at ${host} answered with a body that is not a JSON object. ${answerWas(status)} Check the API URL in the credential: it must be the API's address, not a web page (the credential's Test tells them apart).`;

export const apiUnauthorized = (environment: string, host: string): string =>
	`The ${environment} API host (${host}) rejected the credential's token, and a new one as well. Either the client belongs to the other environment (check Environment and the API URLs in the credential) or its secret was revoked (create or rotate the secret in the Developer hub and update the credential).`;

export const notEntitled = (capability: string): string =>
	`Your plan does not include ${capability}. The credential works, but this capability is switched off for the account; ask the account admin to enable it.`;

export const notFound = (what: string, environment: string): string =>
	`${what} was not found in ${environment} for this organization. Check the ID and the credential's Environment (a sandbox ID is not found in Production), or turn on the node's Ignore Not Found option.`;

export const apiRefused = (host: string, status: number, serverSays: string): string =>
	`${closed(`The GST Compliance API at ${host} refused the request${saying(serverSays)}`)} ${answerWas(status)} Check the ID and the request against what the service says, then try again.`;

export const apiServerError = (host: string, status: number | undefined, count: number): string =>
	`The GST Compliance API at ${host} has a problem on its side: each of ${attempts(count)} failed. ${status === undefined ? '' : `${answerWas(status)} `}Try again later.`;

export const foreignHost = (environment: string, expected: string, got?: string): string =>
	`The GST Compliance API credential only sends its token to the ${environment} API URL (${expected}), not to ${got && got !== 'null' ? got : 'the requested URL'}. Use a path such as /v1/einvoices/<id>, or a URL starting with ${expected}, or change the credential's Environment / API URL.`;

/**
 * A request to the right host over a channel another party could read: the token is not sent.
 * `why` completes "…over a connection that is verified to reach it: this request …".
 */
export const unverifiedChannel = (environment: string, expected: string, why: string): string =>
	`The GST Compliance API credential only sends its token to the ${environment} API URL (${expected}) over a connection that is verified to reach it: this request ${why}. Remove that option from the request (n8n's own proxy settings, HTTP_PROXY / HTTPS_PROXY, keep working).`;

/** Why an http:// URL in the credential is refused (`what` travels in clear text over it). */
export const cleartextUrl = (field: string, what: string): string =>
	`${field} in the GST Compliance API credential starts with http://, over which n8n would send the ${what} unencrypted. Change it to https:// (http:// is accepted only for this machine: localhost, 127.0.0.1, ::1, e.g. a local emulator).`;

export const urlWithUserInfo = (field: string): string =>
	`${field} in the GST Compliance API credential contains a user name or password (the part before @). Enter only the scheme, host and optional path, for example https://auth.example.com`;

/**
 * A resource id that arrived as a number but names no resource: `value` is the number as
 * JavaScript prints it, `expected` the form the resource's ids take.
 */
export const idNumberNotWhole = (label: string, value: string, expected: string): string =>
	`${label} ID ${value} (a number) is not a valid id: a number used as an id must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}. Check the expression that produces it, or pass the id as text. Expected ${expected}`;

/** A number where the resource's ids are text with a prefix (e-invoices: `einv_…`). */
export const idNumberForPrefixedId = (label: string, value: string, expected: string): string =>
	`${label} ID ${value} is a number, and ${label.toLowerCase()} IDs are text. Map the field that holds the ${label.toLowerCase()} ID (data.id after the trigger), not an invoice or document number. Expected ${expected}`;

/**
 * A whole number past 2^53: JSON parsing has already rounded it (12345678901234567 is held as
 * …568), so the digits left may be another resource's id.
 */
export const idNumberBeyondSafeRange = (label: string, value: string, expected: string): string =>
	`${label} ID ${value} (a number) is beyond JavaScript's safe integer range (up to ${Number.MAX_SAFE_INTEGER}), so it has probably been rounded already and may name a different ${label.toLowerCase()}. Pass the id as text: type it into the field, or map a field that holds it as text (in quotes in the JSON); converting the number to text afterwards does not bring the lost digits back. Expected ${expected}`;

/** Credential test outcomes (the "Test" button of the GST Compliance API credential). */
export const credentialTest = {
	connected: (environment: string, host: string, organization: string): string =>
		`Connected to ${environment} (${host}) as ${organization}`,
	hostUnreachable: (environment: string, host: string, why: string): string =>
		`A token was issued, but the ${environment} API host ${host} could not be reached: ${why}. Check the ${environment} API URL.`,
	tokenRejected: (environment: string, host: string, organization: string): string =>
		`A token was issued for ${organization}, but the ${environment} API host ${host} rejected it (HTTP 401). Check that the ${environment} API URL really is the ${environment.toLowerCase()} host and that the client was created in the ${environment === 'Production' ? 'Live' : 'Sandbox'} tab.`,
	unexpectedStatus: (environment: string, host: string, status: number): string =>
		`A token was issued, but the ${environment} API host ${host} answered HTTP ${status}. Check the ${environment} API URL.`,
	notTheApi: (environment: string, host: string, status: number, what: string): string =>
		`A token was issued, but ${host} answered HTTP ${status} with ${what}, not the API's JSON: it is not the GST Compliance API. Check the ${environment} API URL: the API's address from your onboarding material, not a web page such as the Developer hub.`,
	notChecked: (detail: string): string =>
		`The credential could not be checked${detail ? `: ${detail}` : ''}. Check each field against the Developer hub and the onboarding material, then test again.`,
};

/** A token URL pasted into Auth URL whose realm is not the Realm field's. */
export const realmConflict = (named: string, realm: string): string =>
	`The Auth URL names the realm "${named}" but Realm says "${realm}". Clear Realm to use the one in the URL, or give the Auth URL without /realms/….`;

/** Required fields of the GST Compliance API credential left empty. */
export const credentialFieldsMissing = (labels: string[]): string =>
	`The GST Compliance API credential is missing: ${labels.join(', ')}. Fill ${labels.length === 1 ? 'it' : 'them'} in and save the credential.`;

/** A URL field of the GST Compliance API credential that is not an http(s) URL. */
export const notHttpUrl = (label: string): string =>
	`${label} in the GST Compliance API credential is not an http(s) URL. Enter one such as https://auth.example.com`;

/** A Client ID of the other environment than the credential's. */
export const clientOfOtherEnvironment = (facts: {
	clientPrefix: string;
	clientEnvironment: string;
	environment: string;
	expectedPrefix: string;
	tab: string;
}): string =>
	`Client ID starts with "${facts.clientPrefix}", which is a ${facts.clientEnvironment} client, but the credential's Environment is ${facts.environment}. Set Environment to ${facts.clientEnvironment}, or use a ${facts.environment} client (Client ID starting with "${facts.expectedPrefix}") from the ${facts.tab} tab of the Developer hub.`;

/** A Client ID with neither environment's prefix. */
export const notAClientId = (prefix: string, environment: string, expectedPrefix: string): string =>
	`Client ID prefix "${prefix}" is not a GST Compliance client id: ${environment} clients start with "${expectedPrefix}" (Production: "svc_live_", Sandbox: "svc_test_"). Copy the Client ID from the Developer hub again.`;
