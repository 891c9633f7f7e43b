/**
 * Plain words for a failed connection. Raw codes such as ECONNREFUSED are kept out of messages on
 * purpose: n8n's error classes replace any message containing one with their own generic text.
 */
const PHRASES: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ECONNRESET: 'the connection was closed before an answer',
	UND_ERR_SOCKET: 'the connection was closed before an answer',
	EPIPE: 'the connection was closed before an answer',
	ENOTFOUND: 'the host name could not be resolved',
	EAI_AGAIN: 'the host name could not be resolved',
	ETIMEDOUT: 'the connection timed out',
	ECONNABORTED: 'no answer within the time limit',
	UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
	UND_ERR_HEADERS_TIMEOUT: 'no answer within the time limit',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	// Families, read off the code's form below: certificate and TLS codes vary by Node version,
	// Node's HTTP parser names each way an answer is not HTTP (HPE_INVALID_CONSTANT, …), and zlib
	// each way a compressed body is broken (Z_DATA_ERROR, …).
	TLS: 'the TLS certificate was not accepted',
	HPE: 'the answer was not valid HTTP',
	Z: 'the answer could not be decompressed',
};

/** The key of PHRASES that words `code`, if any. */
function familyOf(code: string): string | undefined {
	if (Object.prototype.hasOwnProperty.call(PHRASES, code)) return code;
	if (/CERT|TLS|SSL/i.test(code)) return 'TLS';
	if (code.startsWith('HPE_')) return 'HPE';
	if (code.startsWith('Z_')) return 'Z';
	return undefined;
}

function codeOf(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { code, name } = current as { code?: unknown; name?: unknown };
		if (name === 'TimeoutError' || name === 'AbortError') return 'ECONNABORTED';
		const family = typeof code === 'string' ? familyOf(code) : undefined;
		if (family) return family;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Whether the error is a connection-level failure worth retrying (as opposed to, say, a bug). */
export function isNetworkFailure(error: unknown): boolean {
	return codeOf(error) !== undefined;
}

export function describeNetworkFailure(error: unknown): string {
	const code = codeOf(error);
	return code ? PHRASES[code] : 'a network error occurred';
}
