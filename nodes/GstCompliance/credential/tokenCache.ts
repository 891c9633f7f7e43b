import { createHash } from 'crypto';

import { GstCredentialError } from '../errors/credentialError';
import type { GstCredentials } from './environment';
import { tokenUrl } from './environment';
import type { IssuedToken, TokenPost } from './tokenClient';
import { mintToken } from './tokenClient';
import * as messages from '../errors/messages';
import { settings } from '../settings';

export interface CachedToken {
	accessToken: string;
	expiresAt: number;
	lifetimeMs: number;
	/**
	 * Process-wide mint counter at the time this token was stored; orders tokens for invalidation.
	 */
	serial: number;
	organizationId?: string;
}

interface Entry {
	token?: CachedToken;
	/** The mint in progress; concurrent callers await this one promise (single flight). */
	flight?: Promise<CachedToken>;
	/**
	 * After a 429 whose Retry-After was not waited out: fail fast without calling the endpoint for
	 * `forMs` (at most settings.maxTokenPauseMs) from `at`. Kept as a start and a length, so a clock
	 * step back ends the pause instead of stretching it.
	 */
	paused?: { at: number; forMs: number };
}

/**
 * Why not n8n's own mechanisms: `preAuthentication` + an `expirable` field refreshes only after a
 * 401 (no early refresh), has no single flight, and writes each token into the credential record in
 * the database; the generic OAuth2 credential mints one token per parallel request on first use and
 * some builds send an empty `scope`, which the token endpoint refuses (docs/service-api.md, "Token
 * endpoint"). So the token lives here, in memory.
 */
export class TokenCache {
	private readonly entries = new Map<string, Entry>();

	private serialCounter = 0;

	constructor(
		private readonly mint: (credentials: GstCredentials, post?: TokenPost) => Promise<IssuedToken>,
	) {}

	/** Serial of the newest token minted in this process (0 before the first). */
	get lastSerial(): number {
		return this.serialCounter;
	}

	get size(): number {
		return this.entries.size;
	}

	/**
	 * A token with more than the refresh margin left, minted at most once for any number of
	 * concurrent callers. `fresh` skips a cached token (the credential test proves the secret works
	 * now). `post` sends the token request (n8n's request helper when the caller has one); callers
	 * that join a mint in flight share its request, however it is sent.
	 */
	async getToken(
		credentials: GstCredentials,
		options: { fresh?: boolean; post?: TokenPost } = {},
	): Promise<CachedToken> {
		const entry = this.touch(cacheKey(credentials));
		if (!options.fresh && entry.token && this.isFresh(entry.token)) return entry.token;
		if (entry.flight) return await entry.flight;
		const remainingMs = pauseRemainingMs(entry, settings.now());
		if (remainingMs > 0) {
			throw new GstCredentialError(
				'rateLimited',
				messages.rateLimited({ party: 'token endpoint', pausedForMs: remainingMs }),
				{ tokenEndpointStatus: 429, retryAfterMs: remainingMs },
			);
		}
		const flight = this.mintInto(entry, credentials, options.post);
		entry.flight = flight;
		try {
			return await flight;
		} finally {
			if (entry.flight === flight) entry.flight = undefined;
		}
	}

	/**
	 * Drops the cached token after the API answered 401, but only if it was minted at or before
	 * `serialAtRequestStart`: in a storm of 401s the first caller drops the token and the others,
	 * finding a newer one, keep it, so the storm re-mints once.
	 */
	invalidate(credentials: GstCredentials, serialAtRequestStart: number): boolean {
		const entry = this.entries.get(cacheKey(credentials));
		if (!entry?.token || entry.token.serial > serialAtRequestStart) return false;
		entry.token = undefined;
		return true;
	}

	/** The cached token without minting (may be stale); for messages and tests. */
	peek(credentials: GstCredentials): CachedToken | undefined {
		return this.entries.get(cacheKey(credentials))?.token;
	}

	clear(): void {
		this.entries.clear();
	}

	private isFresh(token: CachedToken): boolean {
		// Tokens shorter-lived than twice the margin (test setups) would otherwise never be reused.
		const margin = Math.min(settings.refreshMarginMs, token.lifetimeMs / 2);
		return token.expiresAt - settings.now() > margin;
	}

	private async mintInto(
		entry: Entry,
		credentials: GstCredentials,
		post?: TokenPost,
	): Promise<CachedToken> {
		// No node here to wrap errors with (authenticate runs outside one); the transport wraps them.
		const issued = await this.mint(credentials, post).catch((error: unknown) => {
			if (error instanceof GstCredentialError && error.kind === 'rateLimited') {
				const forMs = Math.min(error.retryAfterMs ?? 0, settings.maxTokenPauseMs);
				entry.paused = forMs > 0 ? { at: settings.now(), forMs } : undefined;
			}
			throw error;
		});
		entry.paused = undefined;
		entry.token = {
			accessToken: issued.accessToken,
			expiresAt: issued.requestedAt + issued.lifetimeMs,
			lifetimeMs: issued.lifetimeMs,
			serial: ++this.serialCounter,
			organizationId: issued.organizationId,
		};
		return entry.token;
	}

	/**
	 * Gets or creates the entry and marks it most recently used; past the bound, evicts an idle entry
	 * other than this one: a stale token first (its next use mints anyway), else the least recently
	 * used. An entry with a mint in flight or a 429 pause running is never evicted: its callers share
	 * that mint and the pause keeps the endpoint unasked. When every other entry is in use the cache
	 * stays over its bound until one is idle again.
	 */
	private touch(key: string): Entry {
		const entry = this.entries.get(key) ?? {};
		this.entries.delete(key);
		this.entries.set(key, entry);
		while (this.entries.size > settings.tokenCacheSize) {
			const victim = this.evictable(key);
			if (victim === undefined) break;
			this.entries.delete(victim);
		}
		return entry;
	}

	/** The key to evict (see touch), least recently used first; undefined when all are in use. */
	private evictable(keep: string): string | undefined {
		const now = settings.now();
		let leastRecentlyUsed: string | undefined;
		for (const [key, entry] of this.entries) {
			if (key === keep || entry.flight || pauseRemainingMs(entry, now) > 0) continue;
			if (!entry.token || !this.isFresh(entry.token)) return key;
			leastRecentlyUsed ??= key;
		}
		return leastRecentlyUsed;
	}
}

/**
 * How long token requests stay paused; 0 once the pause is over or the clock went back before it.
 */
function pauseRemainingMs(entry: Entry, now: number): number {
	if (!entry.paused) return 0;
	const elapsed = now - entry.paused.at;
	if (!(elapsed >= 0 && elapsed < entry.paused.forMs)) {
		entry.paused = undefined;
		return 0;
	}
	return entry.paused.forMs - elapsed;
}

/**
 * sha256 of token URL, client id and secret: a rotated secret is a new key; no plaintext secret is
 * kept as a key.
 */
export function cacheKey(credentials: GstCredentials): string {
	return createHash('sha256')
		.update(JSON.stringify([tokenUrl(credentials), credentials.clientId, credentials.clientSecret]))
		.digest('hex');
}

/**
 * Process-wide: the credential's `authenticate` receives only the credential data and the request,
 * so a cache the action node, the trigger's refetch and the HTTP Request node all reuse can live
 * nowhere else (n8n `require`s credential and node files from the same dist, so they share it).
 */
export const tokenCache = new TokenCache(mintToken);
