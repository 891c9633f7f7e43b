/**
 * The rule behind every "at most every N ms" in the package (warnings, looks, sweeps, reads): due
 * when it never happened, when `everyMs` passed since it last did, or when the clock now reads
 * earlier than that (stepped back), so a step back of an hour never keeps it quiet for the hour.
 */
/**
 * How often one warning repeats in n8n's log while its cause lasts (another process saving the
 * trigger's ids, a store to give way to Redis): often enough to be seen, rare enough not to flood.
 */
export const WARN_EVERY_MS = 10 * 60_000;

export function isDue(lastMs: number | undefined, nowMs: number, everyMs: number): boolean {
	return lastMs === undefined || nowMs - lastMs >= everyMs || nowMs < lastMs;
}
