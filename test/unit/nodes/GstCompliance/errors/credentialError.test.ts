/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The error the credential's `authenticate` throws: its kind, message and token-endpoint facts; no
 * property n8n reads as a status, so n8n's NodeApiError wrapper keeps our message instead of its
 * generic one for the status; and findCredentialError finding it inside wrappers, at most four deep.
 * (Which code each kind becomes: errors/apiError.test.ts.)
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	findCredentialError,
	GstCredentialError,
} from '@/nodes/GstCompliance/errors/credentialError';

const node: INode = {
	id: 'node-1',
	name: 'HTTP Request',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4,
	position: [0, 0],
	parameters: {},
};
const REJECTED =
	'The token service rejected the client id or secret. The answer was HTTP 401. Check Client ID and Client Secret; after a secret rotation the old secret stops working 24 hours later.';

/** `levels` wrappers around `inner`, each holding the one inside as its `cause`. */
const wrapped = (levels: number, inner: unknown): unknown => {
	let error = inner;
	for (let level = 0; level < levels; level++)
		error = Object.assign(new Error(`wrapper ${level}`), { cause: error });
	return error;
};

describe('GstCredentialError: what it carries', () => {
	it("new GstCredentialError('rateLimited', message, { tokenEndpointStatus: 429, retryAfterMs: 30000 }) → all of them", () => {
		const error = new GstCredentialError('rateLimited', 'slow down', {
			tokenEndpointStatus: 429,
			retryAfterMs: 30_000,
		});
		expect(error).toBeInstanceOf(Error);
		expect({
			name: error.name,
			message: error.message,
			kind: error.kind,
			tokenEndpointStatus: error.tokenEndpointStatus,
			retryAfterMs: error.retryAfterMs,
		}).toEqual({
			name: 'GstCredentialError',
			message: 'slow down',
			kind: 'rateLimited',
			tokenEndpointStatus: 429,
			retryAfterMs: 30_000,
		});
		expect(String(error)).toBe('GstCredentialError: slow down');
	});

	it("new GstCredentialError('configuration', message) → no status, no Retry-After", () => {
		const error = new GstCredentialError('configuration', 'missing: Realm');
		expect({
			kind: error.kind,
			message: error.message,
			tokenEndpointStatus: error.tokenEndpointStatus,
			retryAfterMs: error.retryAfterMs,
		}).toEqual({
			kind: 'configuration',
			message: 'missing: Realm',
			tokenEndpointStatus: undefined,
			retryAfterMs: undefined,
		});
	});
});

describe("n8n's wrapper keeps the message", () => {
	it('new GstCredentialError(…) → none of the properties n8n reads as a status (code, status, statusCode, httpCode, …)', () => {
		const error = new GstCredentialError('rejected', REJECTED, { tokenEndpointStatus: 401 });
		const statusKeys = [
			'code',
			'status',
			'statusCode',
			'status_code',
			'httpCode',
			'errorCode',
			'error_code',
		];
		expect(statusKeys.filter((key) => key in error)).toEqual([]);
	});

	it('new NodeApiError(node, a rejected GstCredentialError with status 401) → our message, not "Authorization failed"', () => {
		const error = new GstCredentialError('rejected', REJECTED, { tokenEndpointStatus: 401 });
		const n8nError = new NodeApiError(node, error as unknown as JsonObject);
		expect({ message: n8nError.message, httpCode: n8nError.httpCode }).toEqual({
			message: REJECTED,
			httpCode: null,
		});
		expect(findCredentialError(n8nError)).toBe(error);
	});
});

describe('findCredentialError: ours, inside up to four wrappers', () => {
	const ours = new GstCredentialError('unreachable', 'no answer');

	it.each([0, 1, 2, 3, 4])('findCredentialError(ours, wrapped %i deep) → ours', (levels) => {
		expect(findCredentialError(wrapped(levels, ours))).toBe(ours);
	});

	it('findCredentialError(ours, wrapped 5 deep) → undefined', () => {
		expect(findCredentialError(wrapped(5, ours))).toBeUndefined();
	});

	it("findCredentialError(n8n's NodeOperationError around ours) → ours", () => {
		expect(findCredentialError(new NodeOperationError(node, ours))).toBe(ours);
	});

	it('findCredentialError(an error that is its own cause) → undefined, the search ends', () => {
		const loop: Error & { cause?: unknown } = new Error('loop');
		loop.cause = loop;
		expect(findCredentialError(loop)).toBeUndefined();
	});

	it.each<[string, unknown]>([
		['undefined', undefined],
		['null', null],
		['a string', 'rejected'],
		['a plain Error', new Error('no answer')],
		['an Error without ours among its causes', wrapped(2, new Error('inner'))],
		[
			'a look-alike with the same name and kind',
			Object.assign(new Error('no answer'), { name: 'GstCredentialError', kind: 'unreachable' }),
		],
	])('findCredentialError(%s) → undefined', (_label, error) => {
		expect(findCredentialError(error)).toBeUndefined();
	});
});
