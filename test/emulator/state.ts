import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import type { Scheduler } from './clock';
import { makeEinvoice, makeEwaybill, randomHex } from './fixtures';
import { MinuteLimiter } from './rateLimit';
import type {
	ApiFault,
	ClientInfo,
	Counters,
	Einvoice,
	EinvoiceStatus,
	ElsewhereRequest,
	EmulatorOptions,
	Environment,
	Ewaybill,
	EwaybillStatus,
	EventEnvelope,
	Plan,
	TokenFault,
} from './types';

export const DAY_MS = 24 * 3_600_000;
export const CLIENT_PREFIX: Record<Environment, string> = {
	production: 'svc_live_',
	sandbox: 'svc_test_',
};
const DEFAULT_PLAN: Plan = 'einvoice+ewaybill';

export type Resolved = Required<Omit<EmulatorOptions, 'ports' | 'clock' | 'manualClockStart'>> & {
	ports: { auth: number; production: number; sandbox: number; control: number; elsewhere: number };
};

interface Secret {
	hash: Buffer;
	/** Clock time after which the secret stops working; null while it is the current one. */
	revokeAt: number | null;
}

export interface ClientRecord {
	clientId: string;
	environment: Environment;
	organizationId: string;
	secrets: Secret[];
}

type Resource = { environment: Environment; organizationId: string; body: Einvoice | Ewaybill };
export type ResourceKind = 'einvoice' | 'ewaybill';

const EVENT_OF: Record<string, string> = {
	'einvoice:generated': 'einvoice.generated',
	'einvoice:cancelled': 'einvoice.cancelled',
	'einvoice:failed_terminal': 'einvoice.failed',
	'ewaybill:generated': 'ewaybill.generated',
	'ewaybill:cancelled': 'ewaybill.cancelled',
	'ewaybill:expired': 'ewaybill.expired',
	'ewaybill:rejected': 'ewaybill.rejected',
};

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export function emptyCounters(): Counters {
	return {
		tokenMints: {},
		tokenRequests: {},
		tokenRequestsTotal: 0,
		apiCalls: {},
		apiRequestsTotal: 0,
		maxConcurrentApiSockets: 0,
		deliveryAttempts: 0,
		deliveriesSucceeded: 0,
		deliveriesFailed: 0,
		deadLettered: 0,
	};
}

export function bump(map: Record<string, number>, key: string): void {
	map[key] = (map[key] ?? 0) + 1;
}

/** Everything the "dashboard" manages: clients, plans, resources, counters and injected faults. */
export class EmulatorState {
	readonly signingKey = randomBytes(32);
	readonly clients = new Map<string, ClientRecord>();
	private readonly plans = new Map<string, Plan>();
	private readonly resources = new Map<string, Resource>();
	counters = emptyCounters();
	openApiSockets = 0;
	readonly tokenFaults: TokenFault[] = [];
	readonly apiFaults: ApiFault[] = [];
	/** While true, the API hosts redirect every request to `elsewhereUrl` (see `setRedirect`). */
	redirect = false;
	readonly elsewhereRequests: ElsewhereRequest[] = [];
	readonly tokenLimiter: MinuteLimiter;
	readonly apiLimiter: MinuteLimiter;
	/** Set by the webhook dispatcher; receives every emitted event with the emitting client scope. */
	onEvent: (
		scope: { organizationId: string; environment: Environment },
		event: EventEnvelope,
	) => void = () => undefined;

	constructor(
		readonly options: Resolved,
		readonly clock: Scheduler,
	) {
		this.tokenLimiter = new MinuteLimiter(options.tokenRateLimitPerMinute, clock);
		this.apiLimiter = new MinuteLimiter(options.apiRateLimitPerMinute, clock);
	}

	createClient(input: {
		environment: Environment;
		organizationId?: string;
		plan?: Plan;
		clientId?: string;
		clientSecret?: string;
	}): ClientInfo {
		const prefix = CLIENT_PREFIX[input.environment];
		if (!prefix) throw new Error(`unknown environment ${String(input.environment)}`);
		const clientId = input.clientId ?? `${prefix}${randomHex(12)}`;
		if (!clientId.startsWith(prefix))
			throw new Error(`a ${input.environment} client id starts with ${prefix}`);
		if (this.clients.has(clientId)) throw new Error(`client ${clientId} exists`);
		const clientSecret = input.clientSecret ?? randomBytes(32).toString('base64url');
		const organizationId = input.organizationId ?? `org_${randomHex(8)}`;
		if (input.plan) this.setPlan(organizationId, input.plan);
		else if (!this.plans.has(organizationId)) this.plans.set(organizationId, DEFAULT_PLAN);
		this.clients.set(clientId, {
			clientId,
			environment: input.environment,
			organizationId,
			secrets: [{ hash: hashSecret(clientSecret), revokeAt: null }],
		});
		return { clientId, clientSecret, environment: input.environment, organizationId };
	}

	client(clientId: string): ClientRecord {
		const client = this.clients.get(clientId);
		if (!client) throw new Error(`unknown client ${clientId}`);
		return client;
	}

	/** The current secret starts a 24 h countdown; earlier ones keep their own deadline. */
	rotateClientSecret(clientId: string): { clientSecret: string } {
		const client = this.client(clientId);
		const now = this.clock.now();
		for (const secret of client.secrets) secret.revokeAt ??= now + DAY_MS;
		const clientSecret = randomBytes(32).toString('base64url');
		client.secrets.push({ hash: hashSecret(clientSecret), revokeAt: null });
		return { clientSecret };
	}

	/** The client when the secret is one of its live secrets, else null. */
	authenticateClient(clientId: string, secret: string): ClientRecord | null {
		const client = this.clients.get(clientId);
		if (!client) return null;
		const now = this.clock.now();
		const given = hashSecret(secret);
		client.secrets = client.secrets.filter((s) => s.revokeAt === null || s.revokeAt > now);
		return client.secrets.some((s) => timingSafeEqual(s.hash, given)) ? client : null;
	}

	setPlan(organizationId: string, plan: Plan): void {
		if (plan !== 'einvoice' && plan !== 'einvoice+ewaybill')
			throw new Error(`unknown plan ${String(plan)}`);
		this.plans.set(organizationId, plan);
	}

	planOf(organizationId: string): Plan {
		return this.plans.get(organizationId) ?? DEFAULT_PLAN;
	}

	createEinvoice(input: {
		organizationId: string;
		environment: Environment;
		status?: EinvoiceStatus;
		fields?: Partial<Einvoice>;
	}): Einvoice {
		const body = makeEinvoice(this.clock.now(), {
			...input.fields,
			...(input.status && { status: input.status }),
		});
		return this.addResource(input, body);
	}

	createEwaybill(input: {
		organizationId: string;
		environment: Environment;
		status?: EwaybillStatus;
		fields?: Partial<Ewaybill>;
	}): Ewaybill {
		const body = makeEwaybill(this.clock.now(), {
			...input.fields,
			...(input.status && { status: input.status }),
		});
		return this.addResource(input, body);
	}

	setStatus(kind: ResourceKind, id: string, status: string): EventEnvelope {
		const resource = this.resources.get(id);
		if (!resource || resource.body.object !== kind) throw new Error(`unknown ${kind} ${id}`);
		if (!EVENT_OF[`${kind}:${status}`]) throw new Error(`unknown ${kind} status ${status}`);
		resource.body = { ...resource.body, status } as Einvoice | Ewaybill;
		return this.emitResourceEvent(resource);
	}

	/**
	 * What GET returns for this tenant, or null: other tenants' ids look exactly like missing ones.
	 */
	find(
		kind: ResourceKind,
		id: string,
		organizationId: string,
		environment: Environment,
	): Einvoice | Ewaybill | null {
		const resource = this.resources.get(id);
		if (!resource || resource.body.object !== kind) return null;
		if (resource.organizationId !== organizationId || resource.environment !== environment)
			return null;
		return { ...resource.body };
	}

	emit(
		scope: { organizationId: string; environment: Environment },
		type: string,
		data: Record<string, unknown>,
	): EventEnvelope {
		const event: EventEnvelope = {
			id: `evt_${randomHex(12)}`,
			type,
			createdAt: new Date(this.clock.now()).toISOString(),
			data: { ...data },
		};
		this.onEvent(scope, event);
		return event;
	}

	private addResource<T extends Einvoice | Ewaybill>(
		input: { organizationId: string; environment: Environment },
		body: T,
	): T {
		if (!CLIENT_PREFIX[input.environment])
			throw new Error(`unknown environment ${String(input.environment)}`);
		if (this.resources.has(body.id)) throw new Error(`resource ${body.id} exists`);
		if (!EVENT_OF[`${body.object}:${body.status}`])
			throw new Error(`unknown ${body.object} status ${body.status}`);
		const resource: Resource = {
			organizationId: input.organizationId,
			environment: input.environment,
			body,
		};
		this.resources.set(body.id, resource);
		// Creating a resource in a state is entering that state, so it emits that state's event.
		this.emitResourceEvent(resource);
		return { ...body };
	}

	private emitResourceEvent(resource: Resource): EventEnvelope {
		const type = EVENT_OF[`${resource.body.object}:${resource.body.status}`];
		return this.emit(resource, type, { ...resource.body });
	}
}
