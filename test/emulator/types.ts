/**
 * The emulator's public contract. Tests, the e2e suite, the demo and the benchmarks code against
 * these types only; `startEmulator(options)` in `./index.ts` returns a `RunningEmulator`.
 * Every method of `EmulatorControl` is also reachable over HTTP on `controlUrl`
 * (`POST {controlUrl}/control/<method>` with a JSON array of arguments, answering `{ result }` or
 * `{ error }`), so another process (n8n e2e tests, the demo) can drive the same emulator.
 */

export type Environment = 'production' | 'sandbox';

/** `einvoice` = e-invoicing only; `einvoice+ewaybill` = e-invoicing plus e-way bills. */
export type Plan = 'einvoice' | 'einvoice+ewaybill';

export type EinvoiceStatus = 'generated' | 'cancelled' | 'failed_terminal';
export type EwaybillStatus = 'generated' | 'cancelled' | 'expired' | 'rejected';

export const EVENT_TYPES = [
	'einvoice.generated',
	'einvoice.cancelled',
	'einvoice.failed',
	'ewaybill.generated',
	'ewaybill.cancelled',
	'ewaybill.expired',
	'ewaybill.rejected',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A controllable clock: real time by default; tests use a manual one to walk through hours. */
export interface Clock {
	now(): number; // epoch milliseconds
}

export interface EmulatorOptions {
	/** Interface to bind. Default 127.0.0.1. */
	host?: string;
	/** Fixed ports (0 or absent = ephemeral). */
	ports?: {
		auth?: number;
		production?: number;
		sandbox?: number;
		control?: number;
		elsewhere?: number;
	};
	/** Realm in the token path. Default 'gst'. */
	realm?: string;
	/** `expires_in` of minted tokens, seconds. Default 900. */
	tokenTtlSeconds?: number;
	/** Token requests per client per minute before 429 + Retry-After. Default 30. */
	tokenRateLimitPerMinute?: number;
	/**
	 * API requests per client per minute, across all endpoints, before 429 + Retry-After. Default
	 * 6000.
	 */
	apiRateLimitPerMinute?: number;
	/** Reject a token request that carries `scope` with 400. Default true. */
	rejectScope?: boolean;
	/** Clock used for token expiry, rate-limit windows, signatures and delivery schedules. */
	clock?: 'real' | 'manual' | Clock;
	/**
	 * Start of the manual clock, epoch ms. Default 2025-01-15T04:30:00Z. Pass Date.now() when a
	 * receiver checks the signature timestamp against real time (5-minute tolerance) but retries must
	 * be stepped.
	 */
	manualClockStart?: number;
	/**
	 * Seed demo clients, organizations and resources (printed by `npm run emulator`). Default true.
	 */
	seed?: boolean;
	/**
	 * Base delay of webhook retry backoff, ms (doubles per attempt, capped, jittered). Default 1000.
	 */
	retryBaseMs?: number;
	/**
	 * Real-time limit for one webhook POST before it counts as a failed (timed-out) attempt. Default
	 * 10000.
	 */
	deliveryTimeoutMs?: number;
}

export interface ClientInfo {
	clientId: string;
	clientSecret: string;
	environment: Environment;
	organizationId: string;
}

export interface Einvoice {
	id: string;
	object: 'einvoice';
	status: EinvoiceStatus;
	irn: string;
	ackNumber: string;
	ackDate: string;
	sellerGstin: string;
	invoiceNumber: string;
	totalInvoiceValue: number;
}

/** E-way bill fields are not in the spec: this set is an emulator assumption (see README). */
export interface Ewaybill {
	id: string;
	object: 'ewaybill';
	status: EwaybillStatus;
	ewbNumber: string;
	ewbDate: string;
	validUpto: string;
	supplierGstin: string;
	recipientGstin: string;
	documentNumber: string;
	vehicleNumber: string;
	totalValue: number;
}

export interface EventEnvelope {
	id: string;
	type: EventType | string;
	createdAt: string;
	data: Record<string, unknown>;
}

export interface SubscriptionInfo {
	id: string;
	clientId: string;
	url: string;
	events: string[];
	signingSecret: string;
	active: boolean;
	consecutiveFailures: number;
	/** The most failed attempts in a row the subscription has had. */
	longestFailureRun: number;
}

export interface DeliveryRecord {
	id: string;
	subscriptionId: string;
	eventId: string;
	eventType: string;
	/** 'pending' (retry scheduled), 'delivered', 'dead' (dead-lettered after 24 h). */
	state: 'pending' | 'delivered' | 'dead';
	attempts: number;
	lastStatusCode: number | null;
	lastResponseBody: string | null;
	lastError: string | null;
	nextAttemptAt: number | null;
	/** Real milliseconds the acknowledged attempt waited for its 2xx (null until then). */
	acknowledgedAfterMs: number | null;
	/** When (real clock, epoch ms) the 2xx arrived (null until then). */
	acknowledgedAt: number | null;
}

export interface Counters {
	/** Tokens issued per client id. */
	tokenMints: Record<string, number>;
	/** All token-endpoint requests per client id (including rejected ones), and total. */
	tokenRequests: Record<string, number>;
	tokenRequestsTotal: number;
	/** API requests per client id (after authentication), and total requests on both API hosts. */
	apiCalls: Record<string, number>;
	apiRequestsTotal: number;
	/** Highest number of simultaneously open TCP connections seen on the API hosts. */
	maxConcurrentApiSockets: number;
	/** Webhook delivery attempts and outcomes. */
	deliveryAttempts: number;
	deliveriesSucceeded: number;
	deliveriesFailed: number;
	deadLettered: number;
}

/** One injected fault for the next matching request(s). */
export type TokenFault =
	| { kind: 'status'; status: number; body?: string; retryAfterSeconds?: number }
	| { kind: 'timeout' } // accept the request and never answer
	| { kind: 'garbage' } // 200 with a body that is not JSON
	/** A redirect (default 307, which keeps the POST body) to the same path on `elsewhereUrl`. */
	| { kind: 'redirect'; status?: 301 | 302 | 303 | 307 | 308 };

export type ApiFault =
	| { kind: 'status'; status: number; body?: string; retryAfterSeconds?: number }
	| { kind: 'reset' } // destroy the socket without an answer
	| { kind: 'slow'; ms: number } // answer as usual, this many real milliseconds late
	/**
	 * A redirect (default 302) to the same path and query: on this host by a relative Location, or
	 * on `elsewhereUrl` with `elsewhere: true`; or to `location` as given.
	 */
	| {
			kind: 'redirect';
			status?: 301 | 302 | 303 | 307 | 308;
			elsewhere?: boolean;
			location?: string;
	  };

/** A request that reached `elsewhereUrl` (e.g. by following an API host's redirect). */
export interface ElsewhereRequest {
	method: string;
	/** Path and query as received. */
	path: string;
	/** Whether any `Authorization` header arrived (its value is never kept). */
	authorization: boolean;
}

export interface DeliveryFaults {
	/** Probability 0..1 that an attempt is sent twice. */
	duplicateRate?: number;
	/** Hold deliveries and send them shuffled in batches of this size. */
	reorderWindow?: number;
	/** Extra delay before each attempt, ms (in clock time). */
	delayMs?: number;
}

export interface EmulatorControl {
	createClient(input: {
		environment: Environment;
		organizationId?: string;
		plan?: Plan;
		/** Fixed credentials (e.g. for a demo); must carry the environment's prefix. Default random. */
		clientId?: string;
		clientSecret?: string;
	}): ClientInfo;
	/** New secret; the old one keeps working for 24 h of clock time. */
	rotateClientSecret(clientId: string): { clientSecret: string };
	setPlan(organizationId: string, plan: Plan): void;

	createEinvoice(input: {
		organizationId: string;
		environment: Environment;
		status?: EinvoiceStatus;
		fields?: Partial<Einvoice>;
	}): Einvoice;
	setEinvoiceStatus(id: string, status: EinvoiceStatus): EventEnvelope;
	createEwaybill(input: {
		organizationId: string;
		environment: Environment;
		status?: EwaybillStatus;
		fields?: Partial<Ewaybill>;
	}): Ewaybill;
	setEwaybillStatus(id: string, status: EwaybillStatus): EventEnvelope;
	/** Emits an arbitrary event (e.g. a future event type) to matching subscriptions. */
	emitEvent(input: {
		clientId: string;
		type: string;
		data: Record<string, unknown>;
	}): EventEnvelope;

	createSubscription(input: { clientId: string; url: string; events: string[] }): SubscriptionInfo;
	rotateSigningSecret(subscriptionId: string): { signingSecret: string };
	setSubscriptionActive(subscriptionId: string, active: boolean): void;
	subscriptions(): SubscriptionInfo[];
	deliveries(filter?: { subscriptionId?: string; eventId?: string }): DeliveryRecord[];
	/** Sends the delivery's event again now (the dashboard's replay action). */
	replay(deliveryId: string): Promise<DeliveryRecord>;
	setDeliveryFaults(faults: DeliveryFaults): void;
	/** Resolves when no delivery attempt is in flight or due now. */
	settle(): Promise<void>;

	injectTokenFaults(faults: TokenFault[]): void;
	injectApiFaults(faults: ApiFault[]): void;
	/**
	 * While on, both API hosts answer every request with `302 Found` to the same path and query on
	 * `elsewhereUrl`, another origin; switching it on clears `elsewhereRequests()`.
	 */
	setRedirect(on: boolean): void;
	/**
	 * Requests that reached `elsewhereUrl`, oldest first, and whether each carried `Authorization`.
	 */
	elsewhereRequests(): ElsewhereRequest[];

	counters(): Counters;
	resetCounters(): void;

	/** Current clock time (ms). */
	now(): number;
	/** Manual clock only: move time forward and run whatever became due (token expiry, retries). */
	advance(ms: number): Promise<void>;
}

export interface RunningEmulator {
	/**
	 * Base of the token endpoint host, e.g. http://127.0.0.1:40001 (token:
	 * {authUrl}/realms/{realm}/protocol/openid-connect/token).
	 */
	authUrl: string;
	realm: string;
	tokenUrl: string;
	productionUrl: string;
	sandboxUrl: string;
	controlUrl: string;
	/**
	 * Another origin the emulator controls: the target of `setRedirect`; answers 200 `{ elsewhere:
	 * true, path }` and records each request.
	 */
	elsewhereUrl: string;
	control: EmulatorControl;
	/**
	 * Clients seeded when `seed` is on: one sandbox and one production client, each with its own
	 * organization.
	 */
	seeded: { sandbox: ClientInfo; production: ClientInfo } | null;
	stop(): Promise<void>;
}
