/**
 * Runs `task(0..count-1)` with at most `concurrency` in flight, in index order of start. A task
 * returning `false` stops the pool from starting further tasks (those in flight finish). No timers:
 * each worker takes the next index when its previous task settles.
 */
export async function runPool(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<boolean | void>,
): Promise<void> {
	let next = 0;
	let stopped = false;
	const worker = async (): Promise<void> => {
		while (!stopped && next < count) {
			const index = next++;
			const result = await task(index).catch((error: unknown) => {
				stopped = true;
				throw error;
			});
			if (result === false) stopped = true;
		}
	};
	const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, count));
	await Promise.all(Array.from({ length: workers }, async () => await worker()));
}
