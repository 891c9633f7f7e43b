/**
 * The built-in store's leases: which delivery holds each claimed id, and until when. Kept in
 * memory only (a process that dies drops them, and the service's retry starts the event), and
 * swept of lapsed ones when they outnumber LEASE_SWEEP_AT (abandoned claims are rare).
 */
const LEASE_SWEEP_AT = 1_000;

export class Leases {
	/** digest → the delivery holding it and until when. */
	private readonly held = new Map<string, { token: string; untilMs: number }>();
	private sweepAt = LEASE_SWEEP_AT;

	/** Whether a delivery holds a live lease on `digest` (any delivery but `token`, when given). */
	isLive(digest: string, nowMs: number, exceptToken?: string): boolean {
		const lease = this.held.get(digest);
		return !!lease && lease.token !== exceptToken && lease.untilMs > nowMs;
	}

	/** Whether any lease has not lapsed (the store must stay). */
	anyLive(nowMs: number): boolean {
		for (const lease of this.held.values()) if (lease.untilMs > nowMs) return true;
		return false;
	}

	/** A new lease, after sweeping lapsed ones if they have piled up. */
	take(digest: string, token: string, nowMs: number, leaseMs: number): void {
		if (this.held.size >= this.sweepAt) this.sweep(nowMs);
		this.extend(digest, token, nowMs, leaseMs);
	}

	extend(digest: string, token: string, nowMs: number, leaseMs: number): void {
		this.held.set(digest, { token, untilMs: nowMs + leaseMs });
	}

	/** Gives the lease back, if `token` still holds it. */
	drop(digest: string, token: string): void {
		if (this.held.get(digest)?.token === token) this.held.delete(digest);
	}

	/** Drops lapsed leases; the next sweep waits until the live ones have doubled (amortized O(1)). */
	private sweep(nowMs: number): void {
		for (const [digest, lease] of this.held) if (lease.untilMs <= nowMs) this.held.delete(digest);
		this.sweepAt = Math.max(LEASE_SWEEP_AT, 2 * this.held.size);
	}
}
