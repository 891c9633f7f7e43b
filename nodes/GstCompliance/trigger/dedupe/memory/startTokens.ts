/**
 * Which acceptance started each of the built-in store's latest starts (its token, lifecycle.ts
 * `AcceptanceMark`), so the same item started again (a Retry from the executions list) is told
 * `started`, not a duplicate of itself. In memory only, the latest STARTED_BY_KEPT, oldest out
 * first; memoryStore.ts owns it.
 */

import { makeRoom } from '../../../bounded';

/** Starts whose acceptance token is kept. */
export const STARTED_BY_KEPT = 1_024;

export class StartTokens {
	private readonly tokens = new Map<string, string>();

	/** `eventId` was started by the acceptance whose token this is. */
	record(eventId: string, token: string): void {
		makeRoom(this.tokens, STARTED_BY_KEPT);
		this.tokens.set(eventId, token);
	}

	/** Whether `token`'s acceptance started `eventId` (false for no token, or one forgotten). */
	startedBy(eventId: string, token: string | undefined): boolean {
		return token !== undefined && this.tokens.get(eventId) === token;
	}
}
