/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import {
	duplicateStartMessage,
	overdueMessage,
} from '@/nodes/GstCompliance/trigger/dedupe/lifecycle';

const AT = Date.UTC(2026, 10, 26, 9, 15, 0);

describe('what the trigger says of an event accepted and never started', () => {
	it('overdueMessage → the id, when it was accepted, the deadline in minutes, and to replay it', () => {
		expect(overdueMessage({ eventId: 'evt_1', acceptedMs: AT }, 30 * 60_000)).toBe(
			'Event "evt_1" was accepted at 2026-11-26T09:15:00.000Z and has not started within 30 min: n8n did not create or run its execution (a restart or a database failure while it waited). Replay it from the Developer hub: the replay starts it once.',
		);
	});

	it('overdueMessage of an event the trigger delivered to itself again → that the delivery starts it, no replay', () => {
		expect(
			overdueMessage({ eventId: 'evt_1', acceptedMs: AT, redelivered: { ok: true } }, 30 * 60_000),
		).toBe(
			'Event "evt_1" was accepted at 2026-11-26T09:15:00.000Z and had not started within 30 min: n8n did not create or run its execution (a restart or a database failure while it waited). The trigger delivered it to its own Production URL again: that delivery starts it once.',
		);
	});

	it('overdueMessage of an event the trigger could not deliver to itself again → why, to replay it, and WEBHOOK_URL', () => {
		expect(
			overdueMessage(
				{
					eventId: 'evt_1',
					acceptedMs: AT,
					redelivered: { ok: false, why: 'http://n8n:5678/webhook/x answered 404' },
				},
				60_000,
			),
		).toBe(
			'Event "evt_1" was accepted at 2026-11-26T09:15:00.000Z and has not started within 1 min: n8n did not create or run its execution (a restart or a database failure while it waited), and the trigger could not deliver it to its own Production URL again (http://n8n:5678/webhook/x answered 404). Replay it from the Developer hub: the replay starts it once; set WEBHOOK_URL to an address this n8n reaches, so the trigger can do it itself.',
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
