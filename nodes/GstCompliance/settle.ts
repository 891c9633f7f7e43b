/**
 * A promise's outcome as a value, for the steps that decide on a failure instead of passing it
 * on (a store command, a module load, a connect): what it gave, or what it threw.
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	return await promise.then(
		(value): Settled<T> => ({ ok: true, value }),
		(error: unknown): Settled<T> => ({ ok: false, error }),
	);
}
