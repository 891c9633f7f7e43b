/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n; imports the package through the @/ alias */
/** The bounded worker pool behind the Concurrency option. */
import { runPool } from '@/nodes/GstCompliance/actions/workerPool';

describe('runPool', () => {
	it('never runs more than the concurrency and visits every index once', async () => {
		let inFlight = 0;
		let max = 0;
		const seen: number[] = [];
		await runPool(50, 4, async (index) => {
			max = Math.max(max, ++inFlight);
			await new Promise((resolve) => setImmediate(resolve));
			seen.push(index);
			inFlight--;
		});
		expect(max).toBe(4);
		expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
	});

	it('stops starting tasks once one returns false', async () => {
		const started: number[] = [];
		await runPool(100, 2, async (index) => {
			started.push(index);
			return index !== 3;
		});
		// Two workers: 0 and 1, then 2 and 3; task 3's false arrives after the other worker took 4.
		expect(started).toEqual([0, 1, 2, 3, 4]);
	});
});
