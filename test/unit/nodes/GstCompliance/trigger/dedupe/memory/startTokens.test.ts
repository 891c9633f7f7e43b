/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import {
	STARTED_BY_KEPT,
	StartTokens,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/startTokens';

describe('StartTokens: which acceptance made each latest start', () => {
	it('record(A) → startedBy(A) true; B, no token or another event → false', () => {
		const tokens = new StartTokens();
		tokens.record('evt_1', 'A');
		expect(tokens.startedBy('evt_1', 'A')).toBe(true);
		expect(tokens.startedBy('evt_1', 'B')).toBe(false);
		expect(tokens.startedBy('evt_1', undefined)).toBe(false);
		expect(tokens.startedBy('evt_2', 'A')).toBe(false);
	});

	it(`keeps the latest ${STARTED_BY_KEPT}: the oldest goes first`, () => {
		const tokens = new StartTokens();
		for (let i = 0; i <= STARTED_BY_KEPT; i++) tokens.record(`evt_${i}`, `tok_${i}`);
		expect(tokens.startedBy('evt_0', 'tok_0')).toBe(false);
		expect(tokens.startedBy('evt_1', 'tok_1')).toBe(true);
		expect(tokens.startedBy(`evt_${STARTED_BY_KEPT}`, `tok_${STARTED_BY_KEPT}`)).toBe(true);
	});
});
