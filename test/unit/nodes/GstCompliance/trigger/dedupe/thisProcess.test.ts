import {
	renewThisProcess,
	thisProcess,
} from '../../../../../../nodes/GstCompliance/trigger/dedupe/thisProcess';

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
