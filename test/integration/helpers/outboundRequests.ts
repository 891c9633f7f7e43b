/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Watches the requests n8n's request helpers send, from inside the real stack: n8n-core's
 * `httpRequest` goes through @n8n/backend-network to axios, and these are axios interceptors on
 * that same instance. Nothing is changed, only counted: each request's method, URL, headers and
 * status (or error code), and how many were in flight at once.
 */
import type { AxiosError, AxiosResponse, InternalAxiosRequestConfig } from 'axios';

export interface OutboundRequest {
	method: string;
	url: string;
	/** Header names in lower case, as axios sends them. */
	headers: Record<string, string>;
	/** Whether the request carries an abort signal (the execution's cancel signal). */
	cancellable: boolean;
	status?: number;
	error?: string;
}

export interface OutboundRecorder {
	requests: OutboundRequest[];
	inFlight: number;
	maxInFlight: number;
}

type Axios = typeof import('axios').default;

/** The axios n8n-core sends with (resolved from @n8n/backend-network, not this package). */
function n8nAxios(): Axios {
	const network = require.resolve('@n8n/backend-network', {
		paths: [require.resolve('n8n-core')],
	});
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- n8n-core's own axios instance, resolved by path
	return (require(require.resolve('axios', { paths: [network] })) as { default: Axios }).default;
}

const ENTRY = Symbol('outbound request');
type Tagged = InternalAxiosRequestConfig & { [ENTRY]?: OutboundRequest };

/** Records every request for the current test file; `reset()` before each test. */
export function recordOutboundRequests(): OutboundRecorder & { reset(): void } {
	const axios = n8nAxios();
	const recorder = {
		requests: [] as OutboundRequest[],
		inFlight: 0,
		maxInFlight: 0,
		reset() {
			recorder.requests = [];
			recorder.inFlight = 0;
			recorder.maxInFlight = 0;
		},
	};
	const done = (config: Tagged | undefined, outcome: Partial<OutboundRequest>) => {
		const entry = config?.[ENTRY];
		if (!entry) return;
		Object.assign(entry, outcome);
		recorder.inFlight--;
	};
	let requestId: number;
	let responseId: number;
	beforeAll(() => {
		requestId = axios.interceptors.request.use((config: Tagged) => {
			const url = axios.getUri(config);
			const headers = Object.fromEntries(
				Object.entries(config.headers?.toJSON() ?? {}).map(([name, value]) => [
					name.toLowerCase(),
					String(value),
				]),
			);
			const entry: OutboundRequest = {
				method: (config.method ?? 'get').toUpperCase(),
				url,
				headers,
				cancellable: config.signal !== undefined,
			};
			config[ENTRY] = entry;
			recorder.requests.push(entry);
			recorder.maxInFlight = Math.max(recorder.maxInFlight, ++recorder.inFlight);
			return config;
		});
		responseId = axios.interceptors.response.use(
			(response: AxiosResponse) => {
				done(response.config, { status: response.status });
				return response;
			},
			(error: AxiosError) => {
				done(error.config, { status: error.response?.status, error: error.code ?? error.message });
				throw error;
			},
		);
	});
	afterAll(() => {
		axios.interceptors.request.eject(requestId);
		axios.interceptors.response.eject(responseId);
	});
	return recorder;
}
