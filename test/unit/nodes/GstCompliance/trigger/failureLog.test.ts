/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * FailureLog: the first refusal of a run is said at once, later ones at most once a minute with
 * their count, per trigger and reason.
 */
import { FailureLog, SAY_EVERY_MS } from '@/nodes/GstCompliance/trigger/failureLog';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('FailureLog.record', () => {
	it('the first refusal → said at once, count 1', () => {
		expect(new FailureLog().record('wf:node:mismatch', T0)).toEqual({ count: 1 });
	});

	it('refusals within a minute of a line → silent; the first a minute on → said with all of them counted', () => {
		const log = new FailureLog();
		log.record('k', T0);
		for (let i = 1; i <= 30; i++) expect(log.record('k', T0 + i * 1_000)).toBeUndefined();
		expect(log.record('k', T0 + SAY_EVERY_MS - 1)).toBeUndefined();
		expect(log.record('k', T0 + SAY_EVERY_MS)).toEqual({ count: 32, sinceMs: T0 });
		expect(log.record('k', T0 + SAY_EVERY_MS + 1)).toBeUndefined();
	});

	it('a second refusal in the same millisecond as the line → silent', () => {
		const log = new FailureLog();
		log.record('k', T0);
		expect(log.record('k', T0)).toBeUndefined();
	});

	it('a refusal long after a line with nothing unsaid → a new run, count 1', () => {
		const log = new FailureLog();
		log.record('k', T0);
		expect(log.record('k', T0 + 10 * SAY_EVERY_MS)).toEqual({ count: 1 });
	});

	it('each key (trigger and reason) counts on its own', () => {
		const log = new FailureLog();
		expect(log.record('wf:a:mismatch', T0)).toEqual({ count: 1 });
		expect(log.record('wf:a:stale', T0)).toEqual({ count: 1 });
		expect(log.record('wf:b:mismatch', T0)).toEqual({ count: 1 });
		expect(log.record('wf:a:mismatch', T0 + 1)).toBeUndefined();
	});

	it('a clock stepped back → said at once, not held back until the clock catches up', () => {
		const log = new FailureLog();
		log.record('k', T0);
		log.record('k', T0 + 1_000);
		expect(log.record('k', T0 - 3_600_000)).toEqual({ count: 2, sinceMs: T0 });
	});

	it('more than 1,000 keys → the longest silent is forgotten, the rest still counted', () => {
		const log = new FailureLog();
		for (let i = 0; i <= 1_000; i++) log.record(`k${i}`, T0 + i);
		expect(log.record('k0', T0 + 2_000)).toEqual({ count: 1 });
		expect(log.record('k1000', T0 + 2_001)).toBeUndefined();
	});
});
