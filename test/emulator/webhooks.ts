/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the service emulator is a Node server for tests, never loaded by n8n */
import { createHmac, randomBytes } from 'crypto';
import { request as httpRequest, type ClientRequest } from 'http';
import { request as httpsRequest } from 'https';
import type { Scheduler } from './clock';
import { randomHex } from './fixtures';
import { DAY_MS, type EmulatorState } from './state';
import type {
	DeliveryFaults,
	DeliveryRecord,
	Environment,
	EventEnvelope,
	SubscriptionInfo,
} from './types';

/** Consecutive failed attempts that deactivate a subscription (spec: "50 or more"). */
export const DEACTIVATE_AFTER = 50;
/** Backoff doubles from retryBaseMs up to this cap (an assumption: the spec shows no schedule). */
export const MAX_RETRY_DELAY_MS = 3_600_000;
const RESPONSE_BODY_LIMIT = 4096;

interface Subscription {
	id: string;
	clientId: string;
	url: string;
	events: string[];
	signingSecret: string;
	/** The secret before the last rotation: still signs (second v1) until `until`. */
	previous: { secret: string; until: number } | null;
	active: boolean;
	consecutiveFailures: number;
	/** The most failed attempts in a row so far (what comes nearest to deactivation). */
	longestFailureRun: number;
}

interface Delivery extends DeliveryRecord {
	body: string;
	/** End of the 24 h retry window, counted from the event's first scheduling. */
	deadline: number;
	cancel: (() => void) | null;
}

type Outcome = { status: number; body: string } | { error: string };

export function sign(secret: string, timestamp: number, body: string): string {
	return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The "dashboard" side of webhooks: subscriptions, signed at-least-once delivery, log and replay.
 */
export class Webhooks {
	private readonly subs = new Map<string, Subscription>();
	private readonly log = new Map<string, Delivery>();
	private faults: DeliveryFaults = {};
	private held: Delivery[] = [];
	private readonly requests = new Set<ClientRequest>();

	constructor(
		private readonly state: EmulatorState,
		private readonly clock: Scheduler,
		private readonly retryBaseMs: number,
		private readonly timeoutMs: number,
	) {
		state.onEvent = (scope, event) => this.dispatch(scope, event);
	}

	createSubscription(input: { clientId: string; url: string; events: string[] }): SubscriptionInfo {
		this.state.client(input.clientId);
		const url = new URL(input.url);
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			throw new Error('target URL must be http(s)');
		if (!Array.isArray(input.events) || input.events.some((e) => typeof e !== 'string')) {
			throw new Error('events must be an array of event types');
		}
		const sub: Subscription = {
			id: `whsub_${randomHex(10)}`,
			clientId: input.clientId,
			url: url.toString(),
			events: [...input.events],
			signingSecret: newSigningSecret(),
			previous: null,
			active: true,
			consecutiveFailures: 0,
			longestFailureRun: 0,
		};
		this.subs.set(sub.id, sub);
		return info(sub);
	}

	rotateSigningSecret(subscriptionId: string): { signingSecret: string } {
		const sub = this.sub(subscriptionId);
		sub.previous = { secret: sub.signingSecret, until: this.clock.now() + DAY_MS };
		sub.signingSecret = newSigningSecret();
		return { signingSecret: sub.signingSecret };
	}

	setSubscriptionActive(subscriptionId: string, active: boolean): void {
		const sub = this.sub(subscriptionId);
		sub.active = Boolean(active);
		if (sub.active) sub.consecutiveFailures = 0;
	}

	subscriptions(): SubscriptionInfo[] {
		return [...this.subs.values()].map(info);
	}

	deliveries(filter: { subscriptionId?: string; eventId?: string } = {}): DeliveryRecord[] {
		return [...this.log.values()]
			.filter((d) => !filter.subscriptionId || d.subscriptionId === filter.subscriptionId)
			.filter((d) => !filter.eventId || d.eventId === filter.eventId)
			.map(record);
	}

	setDeliveryFaults(faults: DeliveryFaults): void {
		this.flushHeld();
		this.faults = { ...faults };
	}

	/** Replay sends now, even to an inactive subscription (that is how an operator tests a fix). */
	async replay(deliveryId: string): Promise<DeliveryRecord> {
		const delivery = this.log.get(deliveryId);
		if (!delivery) throw new Error(`unknown delivery ${deliveryId}`);
		delivery.cancel?.();
		await this.clock.track(this.attempt(delivery, true));
		return record(delivery);
	}

	/** Aborts POSTs in flight (to a hung receiver, say) so stop() leaves nothing open. */
	stop(): void {
		for (const req of this.requests) req.destroy(new Error('emulator stopped'));
	}

	/** Sends deliveries held back for reordering, so settle() never waits on a half-full batch. */
	flushHeld(): void {
		const batch = this.held;
		this.held = [];
		if (batch.length === 0) return;
		const shuffled = shuffle(batch);
		const at = this.clock.now() + (this.faults.delayMs ?? 0);
		for (const d of shuffled) d.nextAttemptAt = at;
		// One timer sends the batch sequentially, so the receiver sees exactly the shuffled order.
		this.clock.schedule(at, async () => {
			for (const d of shuffled) await this.attempt(d, false);
		});
	}

	private dispatch(
		scope: { organizationId: string; environment: Environment },
		event: EventEnvelope,
	): void {
		const body = JSON.stringify(event);
		for (const sub of this.subs.values()) {
			const client = this.state.clients.get(sub.clientId);
			if (!sub.active || !sub.events.includes(event.type) || !client) continue;
			if (
				client.organizationId !== scope.organizationId ||
				client.environment !== scope.environment
			)
				continue;
			const delivery: Delivery = {
				id: `whdel_${randomHex(10)}`,
				subscriptionId: sub.id,
				eventId: event.id,
				eventType: event.type,
				state: 'pending',
				attempts: 0,
				lastStatusCode: null,
				lastResponseBody: null,
				lastError: null,
				nextAttemptAt: null,
				acknowledgedAfterMs: null,
				acknowledgedAt: null,
				body,
				deadline: this.clock.now() + DAY_MS,
				cancel: null,
			};
			this.log.set(delivery.id, delivery);
			const window = this.faults.reorderWindow ?? 0;
			if (window > 1) {
				this.held.push(delivery);
				if (this.held.length >= window) this.flushHeld();
			} else this.scheduleAttempt(delivery, this.clock.now());
		}
	}

	private scheduleAttempt(delivery: Delivery, at: number): void {
		delivery.nextAttemptAt = at + (this.faults.delayMs ?? 0);
		delivery.cancel = this.clock.schedule(delivery.nextAttemptAt, () =>
			this.attempt(delivery, false),
		);
	}

	private async attempt(delivery: Delivery, manual: boolean): Promise<void> {
		delivery.cancel = null;
		delivery.nextAttemptAt = null;
		const sub = this.sub(delivery.subscriptionId);
		if (!sub.active && !manual) return this.deadLetter(delivery, 'subscription is deactivated');
		const sentAt = performance.now();
		const sends = [this.send(sub, delivery.body)];
		if (Math.random() < (this.faults.duplicateRate ?? 0)) sends.push(this.send(sub, delivery.body));
		const [outcome] = await Promise.all(sends);
		const waitedMs = performance.now() - sentAt;
		delivery.attempts++;
		if ('error' in outcome) {
			delivery.lastStatusCode = null;
			delivery.lastResponseBody = null;
			delivery.lastError = outcome.error;
		} else {
			delivery.lastStatusCode = outcome.status;
			delivery.lastResponseBody = outcome.body;
			delivery.lastError = null;
		}
		if (!('error' in outcome) && outcome.status >= 200 && outcome.status < 300) {
			delivery.state = 'delivered';
			delivery.acknowledgedAfterMs ??= waitedMs;
			delivery.acknowledgedAt ??= Date.now();
			sub.consecutiveFailures = 0;
			return;
		}
		if (++sub.consecutiveFailures >= DEACTIVATE_AFTER) sub.active = false;
		sub.longestFailureRun = Math.max(sub.longestFailureRun, sub.consecutiveFailures);
		// a failed replay of a delivered/dead delivery changes nothing else
		if (delivery.state !== 'pending') return;
		const next = this.clock.now() + this.backoff(delivery.attempts);
		if (next > delivery.deadline) this.deadLetter(delivery, delivery.lastError);
		else this.scheduleAttempt(delivery, next);
	}

	private deadLetter(delivery: Delivery, reason: string | null): void {
		delivery.state = 'dead';
		delivery.nextAttemptAt = null;
		delivery.lastError = reason ?? delivery.lastError;
		this.state.counters.deadLettered++;
	}

	/** retryBaseMs · 2^(attempt-1), capped at 1 h, plus up to 10 % jitter. */
	private backoff(attempts: number): number {
		const base = Math.min(this.retryBaseMs * 2 ** Math.min(attempts - 1, 40), MAX_RETRY_DELAY_MS);
		return Math.round(base * (1 + Math.random() * 0.1));
	}

	/** One signed POST; counts as an attempt and as a success or failure. */
	private async send(sub: Subscription, body: string): Promise<Outcome> {
		const counters = this.state.counters;
		counters.deliveryAttempts++;
		const t = Math.floor(this.clock.now() / 1000);
		let signature = `t=${t},v1=${sign(sub.signingSecret, t, body)}`;
		if (sub.previous && sub.previous.until > this.clock.now())
			signature += `,v1=${sign(sub.previous.secret, t, body)}`;
		const outcome = await post(
			sub.url,
			body,
			{ 'Service-Signature': signature },
			this.timeoutMs,
			this.requests,
		);
		if (!('error' in outcome) && outcome.status >= 200 && outcome.status < 300)
			counters.deliveriesSucceeded++;
		else counters.deliveriesFailed++;
		return outcome;
	}

	private sub(id: string): Subscription {
		const sub = this.subs.get(id);
		if (!sub) throw new Error(`unknown subscription ${id}`);
		return sub;
	}
}

function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64url')}`;
}

function info(sub: Subscription): SubscriptionInfo {
	const { id, clientId, url, events, signingSecret, active, consecutiveFailures } = sub;
	const { longestFailureRun } = sub;
	return {
		id,
		clientId,
		url,
		events: [...events],
		signingSecret,
		active,
		consecutiveFailures,
		longestFailureRun,
	};
}

function record(d: Delivery): DeliveryRecord {
	const {
		id,
		subscriptionId,
		eventId,
		eventType,
		state,
		attempts,
		lastStatusCode,
		lastResponseBody,
		lastError,
		nextAttemptAt,
		acknowledgedAfterMs,
		acknowledgedAt,
	} = d;
	return {
		id,
		subscriptionId,
		eventId,
		eventType,
		state,
		attempts,
		lastStatusCode,
		lastResponseBody,
		lastError,
		nextAttemptAt,
		acknowledgedAfterMs,
		acknowledgedAt,
	};
}

/** Fisher-Yates; a batch that comes out in its original order is reversed so reordering is real. */
function shuffle<T>(items: T[]): T[] {
	const out = [...items];
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out.every((item, i) => item === items[i]) ? out.reverse() : out;
}

function post(
	target: string,
	body: string,
	headers: Record<string, string>,
	timeoutMs: number,
	open: Set<ClientRequest>,
): Promise<Outcome> {
	return new Promise((resolve) => {
		const url = new URL(target);
		const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const req = request(url, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				'Content-Length': Buffer.byteLength(body),
				'User-Agent': 'gst-compliance-emulator-webhooks/1',
				...headers,
			},
			agent: false,
		});
		open.add(req);
		req.on('close', () => open.delete(req));
		req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
		req.on('error', (error) => resolve({ error: error.message }));
		req.on('response', (res) => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => {
				if (text.length < RESPONSE_BODY_LIMIT) text += chunk;
			});
			res.on('end', () =>
				resolve({ status: res.statusCode ?? 0, body: text.slice(0, RESPONSE_BODY_LIMIT) }),
			);
			res.on('error', (error) => resolve({ error: error.message }));
		});
		req.end(body);
	});
}
