/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import {
	newAcceptanceMark,
	renewThisProcess,
	thisProcess,
} from '@/nodes/GstCompliance/trigger/dedupe/thisProcess';

describe('this process as its acceptances name it', () => {
	it('thisProcess → an id of 8 hex characters', () => {
		expect(thisProcess.id).toMatch(/^[0-9a-f]{8}$/);
	});

	it('renewThisProcess → another id, and no first delivery yet', () => {
		thisProcess.startedMs = 1;
		const before = thisProcess.id;
		renewThisProcess();
		expect(thisProcess.id).toMatch(/^[0-9a-f]{8}$/);
		expect(thisProcess.id).not.toBe(before);
		expect(thisProcess.startedMs).toBeUndefined();
	});
});

describe('an acceptance this process makes', () => {
	it('newAcceptanceMark(t) → this process, accepted at t, with a token of its own each time', () => {
		const first = newAcceptanceMark(42);
		const second = newAcceptanceMark(42);
		expect(first).toEqual({ token: expect.any(String), process: thisProcess.id, acceptedMs: 42 });
		expect(first.token).toMatch(/^[0-9a-f-]{36}$/);
		expect(second.token).not.toBe(first.token);
	});
});
