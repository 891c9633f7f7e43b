/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Plain words for connection failures, found on the error or up to three causes deep. */
import { describeNetworkFailure, isNetworkFailure } from '@/nodes/GstCompliance/http/networkError';

const withCode = (code: string) => Object.assign(new Error('x'), { code });
const nested = (depth: number, inner: unknown): unknown => {
	let error = inner;
	for (let i = 0; i < depth; i++) error = Object.assign(new Error(`level ${i}`), { cause: error });
	return error;
};

describe('describeNetworkFailure', () => {
	it.each([
		['ECONNREFUSED', 'the connection was refused'],
		['ECONNRESET', 'the connection was closed before an answer'],
		['UND_ERR_SOCKET', 'the connection was closed before an answer'],
		['EPIPE', 'the connection was closed before an answer'],
		['ENOTFOUND', 'the host name could not be resolved'],
		['EAI_AGAIN', 'the host name could not be resolved'],
		['ETIMEDOUT', 'the connection timed out'],
		['ECONNABORTED', 'no answer within the time limit'],
		['UND_ERR_CONNECT_TIMEOUT', 'the connection timed out'],
		['UND_ERR_HEADERS_TIMEOUT', 'no answer within the time limit'],
		['EHOSTUNREACH', 'the host is unreachable'],
		['ENETUNREACH', 'the network is unreachable'],
	])('%s → %s', (code, words) => {
		expect(describeNetworkFailure(withCode(code))).toBe(words);
		expect(isNetworkFailure(withCode(code))).toBe(true);
	});

	it('reads TimeoutError and AbortError by name as no answer within the time limit', () => {
		for (const name of ['TimeoutError', 'AbortError']) {
			const error = Object.assign(new Error('x'), { name });
			expect(describeNetworkFailure(error)).toBe('no answer within the time limit');
			expect(isNetworkFailure(error)).toBe(true);
		}
	});

	it('reads certificate and TLS codes as a rejected certificate', () => {
		for (const code of [
			'CERT_HAS_EXPIRED',
			'ERR_TLS_CERT_ALTNAME_INVALID',
			'ERR_SSL_WRONG_VERSION_NUMBER',
			'self_signed_cert_in_chain',
		]) {
			expect(describeNetworkFailure(withCode(code))).toBe('the TLS certificate was not accepted');
			expect(isNetworkFailure(withCode(code))).toBe(true);
		}
	});

	it("reads the HTTP parser's codes as an answer that is not HTTP", () => {
		for (const code of ['HPE_INVALID_CONSTANT', 'HPE_INVALID_HEADER_TOKEN']) {
			expect(describeNetworkFailure(withCode(code))).toBe('the answer was not valid HTTP');
			expect(isNetworkFailure(withCode(code))).toBe(true);
		}
		expect(isNetworkFailure(withCode('XHPE_INVALID_CONSTANT'))).toBe(false);
	});

	it("reads zlib's codes as an answer that could not be decompressed", () => {
		for (const code of ['Z_DATA_ERROR', 'Z_BUF_ERROR']) {
			expect(describeNetworkFailure(withCode(code))).toBe('the answer could not be decompressed');
			expect(isNetworkFailure(withCode(code))).toBe(true);
		}
		expect(isNetworkFailure(withCode('XZ_DATA_ERROR'))).toBe(false);
	});

	it('finds the code up to three causes deep, not four', () => {
		expect(describeNetworkFailure(nested(3, withCode('ECONNREFUSED')))).toBe(
			'the connection was refused',
		);
		expect(isNetworkFailure(nested(4, withCode('ECONNREFUSED')))).toBe(false);
		expect(describeNetworkFailure(nested(4, withCode('ECONNREFUSED')))).toBe(
			'a network error occurred',
		);
	});

	it('is not a network failure without a known code', () => {
		for (const error of [
			new Error('bug'),
			withCode('EWHATEVER'),
			withCode(''),
			Object.assign(new Error(), { code: 42 }),
			undefined,
			null,
			'ECONNREFUSED',
		]) {
			expect(isNetworkFailure(error)).toBe(false);
			expect(describeNetworkFailure(error)).toBe('a network error occurred');
		}
	});

	it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
		'a code named like an object property (%s) is not a network failure',
		(code) => {
			const error = Object.assign(new Error('boom'), { code });
			expect(isNetworkFailure(error)).toBe(false);
			expect(describeNetworkFailure(error)).toBe('a network error occurred');
		},
	);

	it('reads codes only off objects, not off a function that carries one', () => {
		const fn = Object.assign(() => undefined, { code: 'ECONNREFUSED' });
		expect(isNetworkFailure(fn)).toBe(false);
		expect(describeNetworkFailure(fn)).toBe('a network error occurred');
	});
});
