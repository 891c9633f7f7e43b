/**
 * Property: the token cache, with the real token client behind it, under arbitrary concurrent
 * callers (interleaved by fast-check's scheduler), 401s, 429s (any Retry-After), 5xx, bodies that
 * echo the request, network errors and refusals, clock moves and invalidations:
 * - never more than one token request in flight per credential;
 * - never a token handed out at or past its expiry;
 * - the secret never in any error text, in any encoding it was sent in.
 */
import fc from 'fast-check';

import { parseCredentials } from '../../../credentials/GstComplianceApi/environment';
import { TokenCache } from '../../../credentials/GstComplianceApi/tokenCache';
import {
	mintToken,
	type TokenHttpRequest,
	type TokenHttpResponse,
} from '../../../credentials/GstComplianceApi/tokenClient';
import { configureSettings, resetSettings } from '../../../transport/settings';
import { fcParameters, timeoutFor } from './fcConfig';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const CLIENTS = ['svc_test_alpha', 'svc_test_bravo'];

type Answer =
	| { kind: 'token'; expiresIn: unknown }
	| { kind: 'status'; status: 400 | 401 | 404 | 500 | 503; echo: boolean }
	| { kind: 'rateLimited'; retryAfter: string }
	| { kind: 'notJson' }
	| { kind: 'network' }
	| { kind: 'refused' };

const answer: fc.Arbitrary<Answer> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('token' as const),
			expiresIn: fc.oneof(
				fc.constant(900),
				fc.integer({ min: 60, max: 86_400 }),
				fc.constantFrom(true, 0.001, 1e308, '600', -5, null),
			),
		}),
	},
	fc.record({
		kind: fc.constant('status' as const),
		status: fc.constantFrom(400 as const, 401 as const, 404 as const, 500 as const, 503 as const),
		echo: fc.boolean(),
	}),
	fc.record({
		kind: fc.constant('rateLimited' as const),
		retryAfter: fc.constantFrom('1', '20', '86400', '99999999999999999999', 'garbage', '-1'),
	}),
	fc.constant({ kind: 'notJson' as const }),
	fc.constant({ kind: 'network' as const }),
	fc.constant({ kind: 'refused' as const }),
);

type Step =
	| { kind: 'callers'; client: number; count: number; fresh: boolean }
	| { kind: 'clock'; deltaMs: number }
	| { kind: 'apiRejected'; client: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant('callers' as const),
			client: fc.nat(1),
			count: fc.integer({ min: 1, max: 6 }),
			fresh: fc.boolean(),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('clock' as const),
			deltaMs: fc.integer({ min: 0, max: 20 * 60_000 }),
		}),
	},
	fc.record({ kind: fc.constant('apiRejected' as const), client: fc.nat(1) }),
);

const secretChars = fc.constantFrom(
	...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=%&"\\<>~!*() é€😀'.match(
		/./gu,
	)!,
);
const secret = fc.string({ unit: secretChars, minLength: 12, maxLength: 40 });

const jwt = (claims: Record<string, unknown>) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

/** Every encoding the secret travels in: what must never appear in an error. */
function encodings(clientId: string, value: string): string[] {
	const form = new URLSearchParams({ s: value }).toString().slice(2);
	return [
		value,
		form,
		encodeURIComponent(value),
		Buffer.from(`${clientId}:${value}`).toString('base64'),
	];
}

describe('property: token cache', () => {
	it(
		'single flight per credential, no expired token, no secret in errors',
		async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.scheduler(),
					secret,
					fc.array(answer, { maxLength: 30 }),
					fc.array(step, { minLength: 1, maxLength: 25 }),
					async (scheduler, clientSecret, answers, steps) => {
						let now = T0;
						const restore = configureSettings({
							now: () => now,
							sleep: async () => {},
							random: () => 0.5,
						});
						try {
							const inFlight = new Map<string, number>();
							let maxInFlight = 0;
							let next = 0;
							const post = async (request: TokenHttpRequest): Promise<TokenHttpResponse> => {
								const clientId = new URLSearchParams(request.body).get('client_id') ?? '';
								inFlight.set(clientId, (inFlight.get(clientId) ?? 0) + 1);
								maxInFlight = Math.max(maxInFlight, inFlight.get(clientId)!);
								try {
									await scheduler.schedule(Promise.resolve(), `post ${clientId}`);
									const echo = `${request.body} ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
									const a = answers[next++] ?? { kind: 'token', expiresIn: 900 };
									switch (a.kind) {
										case 'token':
											return {
												status: 200,
												body: JSON.stringify({
													access_token: jwt({ n: next }),
													token_type: 'Bearer',
													expires_in: a.expiresIn,
												}),
											};
										case 'status':
											return {
												status: a.status,
												body: a.echo
													? JSON.stringify({ error: 'invalid_client', error_description: echo })
													: '',
											};
										case 'rateLimited':
											return { status: 429, retryAfter: a.retryAfter, body: echo };
										case 'notJson':
											return { status: 200, body: `<html>${echo}</html>` };
										case 'network':
											throw Object.assign(new Error(`socket hang up ${echo}`), {
												code: 'ECONNRESET',
											});
										case 'refused':
											throw new Error(`blocked by policy: ${echo}`);
									}
								} finally {
									inFlight.set(clientId, inFlight.get(clientId)! - 1);
								}
							};
							const cache = new TokenCache(async (c) => await mintToken(c, post));
							const credentials = CLIENTS.map((clientId) =>
								parseCredentials({
									environment: 'sandbox',
									clientId,
									clientSecret,
									authUrl: 'https://auth.example.com',
									realm: 'gst',
									sandboxApiUrl: 'https://sandbox.example.com',
								}),
							);
							for (const s of steps) {
								if (s.kind === 'clock') {
									now += s.deltaMs;
									continue;
								}
								if (s.kind === 'apiRejected') {
									cache.invalidate(credentials[s.client], cache.lastSerial);
									continue;
								}
								const calls = Array.from({ length: s.count }, async () =>
									cache.getToken(credentials[s.client], { fresh: s.fresh }),
								);
								const settled = await scheduler.waitFor(Promise.allSettled(calls));
								for (const result of settled) {
									if (result.status === 'fulfilled') {
										if (!(result.value.expiresAt > now)) return false;
									} else {
										const error = result.reason as Error;
										const text = `${error.message} ${JSON.stringify(error)}`;
										for (const encoded of encodings(CLIENTS[s.client], clientSecret)) {
											if (text.includes(encoded)) return false;
										}
									}
								}
							}
							return maxInFlight <= 1;
						} finally {
							restore();
						}
					},
				),
				fcParameters(60),
			);
			resetSettings();
		},
		timeoutFor(60, 500),
	);
});
