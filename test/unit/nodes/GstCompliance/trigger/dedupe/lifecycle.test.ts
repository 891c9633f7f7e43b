import {
	duplicateStartMessage,
	overdueMessage,
} from '../../../../../../nodes/GstCompliance/trigger/dedupe/lifecycle';

const AT = Date.UTC(2026, 10, 26, 9, 15, 0);

describe('what the trigger says of an event accepted and never started', () => {
	it('overdueMessage → the id, when it was accepted, the deadline in minutes, and to replay it', () => {
		expect(overdueMessage({ eventId: 'evt_1', acceptedMs: AT }, 30 * 60_000)).toBe(
			'Event "evt_1" was accepted at 2026-11-26T09:15:00.000Z and has not started within 30 min: n8n did not create or run its execution (a restart or a database failure while it waited). Replay it from the Developer hub: the replay starts it once.',
		);
	});

	it('overdueMessage of an uncertain event → to look in the executions list before replaying', () => {
		expect(overdueMessage({ eventId: 'evt_1', acceptedMs: AT, uncertain: true }, 60_000)).toBe(
			'Event "evt_1" was accepted at 2026-11-26T09:15:00.000Z, before n8n restarted, and the built-in dedupe store cannot tell whether its execution started (it saves starts with the next accepted event). Look for it in the executions list; if it has no execution, replay it from the Developer hub: the replay starts it.',
		);
	});

	it('duplicateStartMessage → the id and why this execution ends without items', () => {
		expect(duplicateStartMessage('evt_"x"')).toBe(
			'Event "evt_\\"x\\"" was already started by another execution of this workflow; this one ends here without items (a copy n8n created while the first waited, or ran again after a restart)',
		);
	});
});
