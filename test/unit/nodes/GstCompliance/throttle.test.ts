/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The one rule of every "at most every N ms" in the package, clock steps included. */
import { isDue, WARN_EVERY_MS } from '@/nodes/GstCompliance/throttle';

const T = Date.UTC(2026, 10, 28, 9, 0, 0);

describe('isDue: at most every N ms, and at once after a clock step back', () => {
	it('never done → due', () => {
		expect(isDue(undefined, T, 60_000)).toBe(true);
		expect(isDue(-Infinity, T, 60_000)).toBe(true);
	});

	it('done less than N ms ago → not due; N ms ago or more → due', () => {
		expect(isDue(T, T, 60_000)).toBe(false);
		expect(isDue(T, T + 59_999, 60_000)).toBe(false);
		expect(isDue(T, T + 60_000, 60_000)).toBe(true);
	});

	it('the clock now earlier than the last time (stepped back) → due at once, by 1 ms or by a day', () => {
		expect(isDue(T, T - 1, 60_000)).toBe(true);
		expect(isDue(T, T - 86_400_000, 60_000)).toBe(true);
	});
});

describe('WARN_EVERY_MS: how often a lasting warning repeats', () => {
	it('a warning said at T → quiet for 9:59, due again at 10:00', () => {
		expect(isDue(T, T + 10 * 60_000 - 1, WARN_EVERY_MS)).toBe(false);
		expect(isDue(T, T + 10 * 60_000, WARN_EVERY_MS)).toBe(true);
	});
});
