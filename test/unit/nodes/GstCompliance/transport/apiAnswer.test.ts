/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * The API's answers and what the node makes of each: "the API answers X → code, message,
 * retried or not", then the message the user reads once the retries are spent. Read beside
 * docs/service-api.md, "Errors and rate limits".
 */
import type { INode, IN8nHttpFullResponse } from 'n8n-workflow';

import {
	classifyAnswer,
	classifyThrown,
	finalError,
	redirectedTooOften,
	type RequestScope,
} from '@/nodes/GstCompliance/transport/apiAnswer';
import { gstErrorInfo } from '@/nodes/GstCompliance/errors/apiError';
import { GstCredentialError } from '@/nodes/GstCompliance/errors/credentialError';
import type { GstCredentials } from '@/nodes/GstCompliance/credential/environment';
import * as messages from '@/nodes/GstCompliance/errors/messages';
import type { Hop } from '@/nodes/GstCompliance/http/redirects';

const node: INode = {
	id: 'node-1',
	name: 'GST Compliance',
	type: 'n8n-nodes-gst-compliance.gstCompliance',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const SECRET = 'client-secret-0123456789';
const scope = (path = '/v1/einvoices/einv_42'): RequestScope => ({
	node,
	credentials: { clientSecret: SECRET } as GstCredentials,
	environment: 'Sandbox',
	host: 'api.example.test',
	path,
	itemIndex: 3,
});
const hop = (authenticated = true): Hop => ({
	url: authenticated ? 'https://api.example.test/v1/einvoices/einv_42' : 'https://other.test/x',
	method: 'GET',
	authenticated,
});
const answer = (body: unknown, headers: Record<string, string> = {}) =>
	({ body, headers, statusCode: 0, statusMessage: '' }) as unknown as IN8nHttpFullResponse;

/** The outcome as a caller sees it: ok, or retried or not, with the error's code and message. */
function outcome(result: ReturnType<typeof classifyAnswer>) {
	if (result.ok) return { ok: true, value: result.value };
	const error = result.error as Error & {
		context: Record<string, unknown>;
		description?: string | null;
	};
	return {
		retried: result.retryable,
		retryAfterMs: result.retryAfterMs,
		code: error.context.gstCode,
		httpStatus: error.context.httpStatus,
		message: whole(error),
		description: gstErrorInfo(error)?.description,
	};
}

/** The message as one text (errors/apiError.test.ts pins how n8n shows it: title and description). */
const whole = (error: Error) => gstErrorInfo(error)?.message ?? error.message;

describe('classifyAnswer: the API answers X → what the node does', () => {
	it('200 with a JSON object (or its text) → the object', () => {
		const invoice = { id: 'einv_42', status: 'generated' };
		expect(outcome(classifyAnswer(scope(), 200, answer(invoice), hop()))).toEqual({
			ok: true,
			value: invoice,
		});
		expect(outcome(classifyAnswer(scope(), 200, answer(JSON.stringify(invoice)), hop()))).toEqual({
			ok: true,
			value: invoice,
		});
	});

	it.each([
		['an HTML page', '<html>maintenance</html>'],
		['a JSON array', [1, 2]],
		['nothing', ''],
	])('200 with %s → BAD_RESPONSE, not retried', (_label, body) => {
		expect(outcome(classifyAnswer(scope(), 200, answer(body), hop()))).toMatchObject({
			retried: false,
			code: 'BAD_RESPONSE',
			httpStatus: 200,
			message: messages.apiNotJson('api.example.test', 200),
		});
	});

	it('401 to the token it was sent → UNAUTHORIZED (the request re-minted once before), not retried', () => {
		expect(outcome(classifyAnswer(scope(), 401, answer({}), hop()))).toMatchObject({
			retried: false,
			code: 'UNAUTHORIZED',
			message: messages.apiUnauthorized('Sandbox', 'api.example.test'),
		});
	});

	it('401 from another origin a redirect led to (no token went there) → REQUEST_REJECTED naming that host', () => {
		expect(outcome(classifyAnswer(scope(), 401, answer('nope'), hop(false)))).toMatchObject({
			retried: false,
			code: 'REQUEST_REJECTED',
			message: messages.apiRefused('other.test', 401, 'nope'),
		});
	});

	it('403 naming the capability → NOT_ENTITLED in the user’s words; without one → the resource’s', () => {
		const named = answer({ error: { code: 'not_entitled', capability: 'ewaybill' } });
		expect(outcome(classifyAnswer(scope(), 403, named, hop()))).toMatchObject({
			retried: false,
			code: 'NOT_ENTITLED',
			message: messages.notEntitled('e-way bills'),
		});
		expect(outcome(classifyAnswer(scope(), 403, answer({}), hop()))).toMatchObject({
			code: 'NOT_ENTITLED',
			message: messages.notEntitled('e-invoices'),
		});
	});

	it.each<[string, unknown, string]>([
		['at the top of the body', { capability: 'ewaybill' }, 'e-way bills'],
		[
			'beside an error that is text',
			{ error: 'not_entitled', capability: 'ewaybill' },
			'e-way bills',
		],
		['inside the error object only', { error: {}, capability: 'ewaybill' }, 'e-invoices'],
		['nowhere (no body)', null, 'e-invoices'],
		['nowhere (plain text)', 'Forbidden', 'e-invoices'],
	])('403 with the capability %s → NOT_ENTITLED to %s', (_label, body, capability) => {
		expect(outcome(classifyAnswer(scope(), 403, answer(body), hop())).message).toBe(
			messages.notEntitled(capability),
		);
	});

	it('404 → NOT_FOUND naming the document, or the path when it is not one', () => {
		expect(outcome(classifyAnswer(scope(), 404, answer({}), hop()))).toMatchObject({
			retried: false,
			code: 'NOT_FOUND',
			message: messages.notFound('E-invoice einv_42', 'Sandbox'),
		});
		expect(outcome(classifyAnswer(scope('/v1/other'), 404, answer({}), hop()))).toMatchObject({
			code: 'NOT_FOUND',
			message: messages.notFound('Nothing at /v1/other', 'Sandbox'),
		});
	});

	it.each([400, 405, 409, 410, 422])(
		'%i → REQUEST_REJECTED with the server’s words (its secret redacted), not retried',
		(status) => {
			const body = { error: { message: `bad state, secret ${SECRET}` } };
			const result = outcome(classifyAnswer(scope(), status, answer(body), hop()));
			expect(result).toMatchObject({
				retried: false,
				code: 'REQUEST_REJECTED',
				httpStatus: status,
			});
			expect(result.message).toContain(`HTTP ${status}`);
			expect(result.description).toMatch(/^The service said: bad state, secret /);
			expect(JSON.stringify(result)).not.toContain(SECRET);
		},
	);

	it('429 → retried after its Retry-After; without one (or without headers at all), after the backoff', () => {
		expect(
			outcome(classifyAnswer(scope(), 429, answer({}, { 'retry-after': '7' }), hop())),
		).toMatchObject({
			retried: true,
			retryAfterMs: 7_000,
			code: 'RATE_LIMITED',
			message: 'HTTP 429',
		});
		const noHeaders = { body: {}, statusCode: 429 } as unknown as IN8nHttpFullResponse;
		expect(outcome(classifyAnswer(scope(), 429, noHeaders, hop()))).toMatchObject({
			retried: true,
			retryAfterMs: undefined,
			code: 'RATE_LIMITED',
		});
	});

	it.each([500, 502, 503, 504])('%i → SERVER_ERROR, retried', (status) => {
		expect(outcome(classifyAnswer(scope(), status, answer('oops'), hop()))).toMatchObject({
			retried: true,
			code: 'SERVER_ERROR',
			httpStatus: status,
			message: `HTTP ${status}`,
		});
	});

	it('403 on a path that is not a document → NOT_ENTITLED to this capability', () => {
		expect(outcome(classifyAnswer(scope('/v1/other'), 403, answer({}), hop()))).toMatchObject({
			code: 'NOT_ENTITLED',
			message: messages.notEntitled('this capability'),
		});
	});

	it.each<[string, unknown, string | undefined]>([
		['an error object', { error: { message: 'm' } }, 'm'],
		['plain text', 'plain words', 'plain words'],
		['nothing', null, undefined],
	])(
		'the server’s words (errors/serverWords.ts) from %s → the description %p',
		(_label, body, words) => {
			const result = outcome(classifyAnswer(scope(), 400, answer(body), hop()));
			expect(result.description).toBe(
				words === undefined ? undefined : `The service said: ${words}`,
			);
		},
	);
});

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

/** The error a thrown failure classifies to. */
function thrownError(error: unknown) {
	const result = classifyThrown(scope(), error, false);
	if (result.ok) throw new Error('not a failure');
	return result.error;
}

describe('classifyThrown: a request that got no answer', () => {
	it('a connection failure → API_UNREACHABLE in plain words, retried', () => {
		expect(outcome(classifyThrown(scope(), refused, false))).toMatchObject({
			retried: true,
			code: 'API_UNREACHABLE',
			message: messages.apiUnreachable('api.example.test', 'the connection was refused', 'Sandbox'),
		});
	});

	it("the credential's error (thrown by authenticate, inside n8n's wrapper) → its code, not retried", () => {
		const credentialError = new GstCredentialError('rejected', 'rejected words', {
			tokenEndpointStatus: 401,
		});
		const wrapped = Object.assign(new Error('wrapped'), { cause: credentialError });
		expect(outcome(classifyThrown(scope(), wrapped, true))).toMatchObject({
			retried: false,
			code: 'CREDENTIALS_REJECTED',
			message: 'rejected words',
			httpStatus: 401,
		});
	});

	it('the execution stopped by the user → REQUEST_FAILED, not retried, whatever the error', () => {
		expect(outcome(classifyThrown(scope(), refused, true))).toMatchObject({
			retried: false,
			code: 'REQUEST_FAILED',
			message: messages.apiRequestFailed('api.example.test', 'the execution was stopped'),
		});
	});

	it('any other error (n8n refused the request) → REQUEST_FAILED with its words, redacted, not retried', () => {
		const error = new Error(`blocked by policy: client_secret=${SECRET}`);
		const result = outcome(classifyThrown(scope(), error, false));
		expect(result).toMatchObject({ retried: false, code: 'REQUEST_FAILED' });
		expect(result.message).toBe(
			messages.apiRequestFailed('api.example.test', 'blocked by policy: client_secret=[redacted]'),
		);
		expect(outcome(classifyThrown(scope(), 'a string', false)).message).toBe(
			messages.apiRequestFailed('api.example.test', 'a string'),
		);
	});

	it.each<[string, unknown, boolean]>([
		['a connection failure', refused, false],
		['a stopped execution', refused, true],
		['any other error', new Error('x'), false],
	])('%s → an error carrying the item index', (_label, error, stopped) => {
		const result = classifyThrown(scope(), error, stopped);
		if (result.ok) throw new Error('not a failure');
		expect((result.error as unknown as { context: { itemIndex?: number } }).context.itemIndex).toBe(
			3,
		);
	});
});

describe('redirectedTooOften', () => {
	it('→ REQUEST_FAILED naming the limit and the last status, not retried', () => {
		expect(outcome(redirectedTooOften(scope(), 302))).toMatchObject({
			retried: false,
			code: 'REQUEST_FAILED',
			httpStatus: 302,
			message: messages.apiRequestFailed('api.example.test', messages.redirectedTooOften(10)),
		});
	});
});

describe('finalError: what the user reads once the retries are spent', () => {
	const failed = (status: number, headers: Record<string, string> = {}) => {
		const result = classifyAnswer(scope(), status, answer({}, headers), hop());
		if (result.ok) throw new Error('not a failure');
		return result.error;
	};

	it('a fatal answer → its own error, unchanged', () => {
		const error = failed(404);
		expect(finalError(scope(), { error, attempts: 1, reason: 'fatal' })).toBe(error);
	});

	it('5xx on every attempt → SERVER_ERROR naming the host and the attempts', () => {
		const error = finalError(scope(), { error: failed(503), attempts: 4, reason: 'exhausted' });
		expect(whole(error)).toBe(messages.apiServerError('api.example.test', 503, 4));
	});
	it('the final error keeps the code, the status, the item and the server’s words', () => {
		const last = classifyAnswer(scope(), 503, answer({ message: 'down for maintenance' }), hop());
		if (last.ok) throw new Error('not a failure');
		const error = finalError(scope(), {
			error: last.error,
			attempts: 4,
			reason: 'exhausted',
		}) as Error & { context: Record<string, unknown>; description?: string };
		expect(error.context).toMatchObject({ gstCode: 'SERVER_ERROR', httpStatus: 503, itemIndex: 3 });
		expect(gstErrorInfo(error)?.description).toBe('The service said: down for maintenance');
	});

	it('429 on every attempt → RATE_LIMITED counting the attempts, no wait named', () => {
		const error = finalError(scope(), { error: failed(429), attempts: 4, reason: 'exhausted' });
		expect(whole(error)).toBe(
			messages.rateLimited({
				party: 'API',
				retryAfterMs: undefined,
				waitTooLong: false,
				attempts: 4,
			}),
		);
	});

	it('429 on every attempt, the last with a short Retry-After → no wait named (the node waited it)', () => {
		const error = finalError(scope(), {
			error: failed(429),
			attempts: 4,
			reason: 'exhausted',
			retryAfterMs: 1_000,
		});
		expect(whole(error)).toBe(
			messages.rateLimited({ party: 'API', waitTooLong: false, attempts: 4 }),
		);
	});

	it('429 with a Retry-After longer than the node waits → RATE_LIMITED saying how long', () => {
		const error = finalError(scope(), {
			error: failed(429),
			attempts: 1,
			reason: 'retryAfterTooLong',
			retryAfterMs: 120_000,
		});
		expect(whole(error)).toBe(
			messages.rateLimited({
				party: 'API',
				retryAfterMs: 120_000,
				waitTooLong: true,
				attempts: 1,
			}),
		);
	});

	it('the API unreachable on every attempt → API_UNREACHABLE, given up after the attempts', () => {
		const error = finalError(scope(), {
			error: thrownError(refused),
			attempts: 3,
			reason: 'exhausted',
		});
		expect(whole(error)).toBe(
			messages.gaveUpAfter(
				messages.apiUnreachable('api.example.test', 'the connection was refused', 'Sandbox'),
				3,
			),
		);
		expect((error as Error & { context: Record<string, unknown> }).context.gstCode).toBe(
			'API_UNREACHABLE',
		);
	});
});
