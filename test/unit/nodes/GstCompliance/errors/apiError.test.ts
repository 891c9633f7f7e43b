/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The errors the node throws and what On Error → Continue outputs: a failure a server answered
 * becomes n8n's NodeApiError with our message kept (not n8n's wording for the status), a local one
 * a NodeOperationError; either carries its stable code, the status and the item; each credential
 * failure kind has its own code (docs/credential-and-action.md, "Errors"); errorSummary reads
 * `{ message, code, httpStatus }` from any thrown value. (Which answer gets which code:
 * transport/apiAnswer.test.ts.)
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	errorSummary,
	fromCredentialError,
	gstError,
	gstErrorInfo,
	type GstErrorCode,
} from '@/nodes/GstCompliance/errors/apiError';
import {
	GstCredentialError,
	type GstCredentialErrorKind,
} from '@/nodes/GstCompliance/errors/credentialError';

const node: INode = {
	id: 'node-1',
	name: 'GST Compliance',
	type: 'n8n-nodes-gst-compliance.gstCompliance',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** What a caller (n8n's error output, a workflow branching on the code) reads off an error. */
function seen(error: NodeApiError | NodeOperationError) {
	return {
		type: error.constructor.name,
		message: error.message,
		description: error.description ?? undefined,
		httpCode: (error as NodeApiError).httpCode ?? undefined,
		context: error.context,
		node: error.node,
	};
}

describe('gstError: a server answered → NodeApiError, a local failure → NodeOperationError', () => {
	it.each([401, 403, 404, 429, 500, 503])(
		'gstError(node, { httpStatus: %i, … }) → NodeApiError with our message, not n8n’s for the status',
		(status) => {
			const error = gstError(node, {
				code: 'REQUEST_REJECTED',
				message: 'The GST Compliance API at api.example.test refused the request',
				description: 'The service said: no',
				httpStatus: status,
				itemIndex: 2,
			});
			expect(error).toBeInstanceOf(NodeApiError);
			expect(seen(error)).toEqual({
				type: 'NodeApiError',
				message: 'The GST Compliance API at api.example.test refused the request',
				description: 'The service said: no',
				httpCode: String(status),
				context: { gstCode: 'REQUEST_REJECTED', httpStatus: status, itemIndex: 2 },
				node,
			});
		},
	);

	it('gstError(node, { code, message } without a status) → NodeOperationError, httpStatus undefined', () => {
		const error = gstError(node, {
			code: 'INVALID_ID',
			message: 'E-invoice ID "42" is not valid',
			description: 'Expected an id starting with "einv_"',
			itemIndex: 0,
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(seen(error)).toEqual({
			type: 'NodeOperationError',
			message: 'E-invoice ID "42" is not valid',
			description: 'Expected an id starting with "einv_"',
			httpCode: undefined,
			context: {
				gstCode: 'INVALID_ID',
				httpStatus: undefined,
				itemIndex: 0,
			},
			node,
		});
	});

	it('gstError(node, { code, message, httpStatus } without item or description) → neither set', () => {
		const error = gstError(node, { code: 'SERVER_ERROR', message: 'failed', httpStatus: 502 });
		expect(error.context).toEqual({ gstCode: 'SERVER_ERROR', httpStatus: 502 });
		expect(error.description ?? undefined).toBeUndefined();
	});

	// n8n rewrites a message that contains one of its common error codes (EEXIST, ECONNREFUSED, …)
	// into its own sentence; a server's words quoted in ours can contain one.
	it.each<[string, number | undefined]>([
		['The GST API refused the request (HTTP 409): invoice preexisting', 409],
		['The token endpoint failed (HTTP 502): upstream ECONNREFUSED', 502],
		['Could not reach the GST API at api.example: ETIMEDOUT', undefined],
	])(
		"gstError(node, { message: %p }) → that message, not n8n's sentence for a code in it",
		(message, httpStatus) => {
			const error = gstError(node, { code: 'REQUEST_FAILED', message, httpStatus });
			expect(error.message).toBe(message);
		},
	);
});

describe('gstError: what happened is the title, what to do the description', () => {
	const message =
		"E-invoice einv_1 was not found in Sandbox for this organization. Check the ID and the credential's Environment.";

	it.each([404, undefined])(
		'gstError(node, { message of two sentences, httpStatus: %p }) → the first the message, the second the description',
		(httpStatus) => {
			const error = gstError(node, { code: 'NOT_FOUND', message, httpStatus });
			expect({ message: error.message, description: error.description }).toEqual({
				message: 'E-invoice einv_1 was not found in Sandbox for this organization.',
				description: "Check the ID and the credential's Environment.",
			});
		},
	);

	it('gstError(node, { message of two sentences, description }) → the remedy, then the given description', () => {
		const error = gstError(node, {
			code: 'REQUEST_REJECTED',
			message: 'The API refused the request (HTTP 422). Check the ID.',
			description: 'The service said: bad gstin',
			httpStatus: 422,
		});
		expect({ message: error.message, description: error.description }).toEqual({
			message: 'The API refused the request (HTTP 422).',
			description: 'Check the ID. The service said: bad gstin',
		});
	});

	it('errorSummary(gstError of two sentences) → the whole message, what to do included', () => {
		expect(errorSummary(gstError(node, { code: 'NOT_FOUND', message, httpStatus: 404 }))).toEqual({
			message,
			code: 'NOT_FOUND',
			httpStatus: 404,
		});
	});

	it('gstErrorInfo(a gstError) → what it was made with; of any other error → undefined', () => {
		const info = { code: 'NOT_FOUND' as const, message, description: 'The service said: no' };
		expect(gstErrorInfo(gstError(node, info))).toEqual(info);
		expect(gstErrorInfo(new Error(message))).toBeUndefined();
	});
});

describe('fromCredentialError: each kind of credential failure its own code', () => {
	it.each<[GstCredentialErrorKind, GstErrorCode]>([
		['configuration', 'CREDENTIAL_CONFIG'],
		['environmentMismatch', 'ENVIRONMENT_MISMATCH'],
		['foreignHost', 'FOREIGN_HOST'],
		['rejected', 'CREDENTIALS_REJECTED'],
		['rateLimited', 'TOKEN_RATE_LIMITED'],
		['unreachable', 'TOKEN_ENDPOINT_UNREACHABLE'],
		['badResponse', 'TOKEN_ENDPOINT_BAD_RESPONSE'],
	])(
		'fromCredentialError(node, GstCredentialError(%s), 4) → %s, NodeOperationError with its message',
		(kind, code) => {
			const error = fromCredentialError(node, new GstCredentialError(kind, `words of ${kind}`), 4);
			expect(seen(error)).toEqual({
				type: 'NodeOperationError',
				message: `words of ${kind}`,
				description: undefined,
				httpCode: undefined,
				context: {
					gstCode: code,
					httpStatus: undefined,
					itemIndex: 4,
				},
				node,
			});
		},
	);

	it.each<[GstCredentialErrorKind, number, GstErrorCode]>([
		['rejected', 401, 'CREDENTIALS_REJECTED'],
		['rateLimited', 429, 'TOKEN_RATE_LIMITED'],
		['unreachable', 503, 'TOKEN_ENDPOINT_UNREACHABLE'],
		['configuration', 404, 'CREDENTIAL_CONFIG'],
	])(
		'fromCredentialError(node, GstCredentialError(%s, { tokenEndpointStatus: %i })) → NodeApiError with that status',
		(kind, status, code) => {
			const credentialError = new GstCredentialError(kind, 'the token endpoint said no', {
				tokenEndpointStatus: status,
				retryAfterMs: 1_000,
			});
			const error = fromCredentialError(node, credentialError);
			expect(seen(error)).toEqual({
				type: 'NodeApiError',
				message: 'the token endpoint said no',
				description: undefined,
				httpCode: String(status),
				context: { gstCode: code, httpStatus: status },
				node,
			});
		},
	);
});

describe('errorSummary: the error item of On Error → Continue', () => {
	it('errorSummary(gstError with a status) → { message, code, httpStatus }', () => {
		const error = gstError(node, {
			code: 'NOT_FOUND',
			message: 'E-invoice einv_42 was not found in Sandbox for this organization',
			httpStatus: 404,
			itemIndex: 1,
		});
		expect(errorSummary(error)).toEqual({
			message: 'E-invoice einv_42 was not found in Sandbox for this organization',
			code: 'NOT_FOUND',
			httpStatus: 404,
		});
	});

	it('errorSummary(gstError without a status) → httpStatus null', () => {
		const error = gstError(node, { code: 'API_UNREACHABLE', message: 'Could not reach it' });
		expect(errorSummary(error)).toEqual({
			message: 'Could not reach it',
			code: 'API_UNREACHABLE',
			httpStatus: null,
		});
	});

	it.each<[string, unknown, { message: string; code: string; httpStatus: number | null }]>([
		[
			'an Error of n8n’s own',
			new Error('boom'),
			{ message: 'boom', code: 'UNKNOWN', httpStatus: null },
		],
		[
			"n8n's NodeApiError with a status, not ours",
			new NodeApiError(node, { message: 'x' }, { message: 'upstream', httpCode: '500' }),
			{ message: 'upstream', code: 'UNKNOWN', httpStatus: null },
		],
		[
			'a context whose code is not text and status not a number',
			Object.assign(new Error('odd'), { context: { gstCode: 7, httpStatus: '404' } }),
			{ message: 'odd', code: 'UNKNOWN', httpStatus: null },
		],
		['a string', 'plain words', { message: 'plain words', code: 'UNKNOWN', httpStatus: null }],
		['null', null, { message: 'null', code: 'UNKNOWN', httpStatus: null }],
		['undefined', undefined, { message: 'undefined', code: 'UNKNOWN', httpStatus: null }],
	])('errorSummary(%s) → its words, code UNKNOWN, httpStatus null', (_label, error, summary) => {
		expect(errorSummary(error)).toEqual(summary);
	});
});
