/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** What the trigger says in n8n's log: settings notes once, refusals at once and then counted. */
import {
	logLine,
	logOnce,
	sayRefused,
	type LoggedTrigger,
} from '@/nodes/GstCompliance/trigger/triggerLog';

function trigger(nodeId: string): LoggedTrigger & { lines: string[] } {
	const lines: string[] = [];
	return { workflowId: 'wf', nodeId, nodeName: 'On e-invoice', lines, warn: (m) => lines.push(m) };
}

describe('logLine: the one voice of the trigger in the log', () => {
	it('logLine(a trigger, a message) → the node named in quotes, then its workflow, then the message', () => {
		expect(logLine({ nodeName: 'On e-invoice', workflowId: 'wf7' }, 'a note')).toBe(
			'GST Compliance Trigger "On e-invoice" (workflow wf7): a note',
		);
	});
});

describe('logOnce', () => {
	it('logOnce(a note) twice → said once, naming the node; another trigger says it too', () => {
		const a = trigger('log-once-a');
		logOnce(a, ['Timestamp Tolerance raised to 60 s']);
		logOnce(a, ['Timestamp Tolerance raised to 60 s']);
		expect(a.lines).toEqual(['Timestamp Tolerance raised to 60 s']);
		const b = trigger('log-once-b');
		logOnce(b, ['Timestamp Tolerance raised to 60 s']);
		expect(b.lines).toHaveLength(1);
	});
});

describe('sayRefused', () => {
	afterEach(() => jest.restoreAllMocks());

	it('the first refusal → said at once; the next within a minute → counted, said with the count after it', () => {
		let now = Date.UTC(2026, 10, 26, 8, 0, 0);
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		const t = trigger('say-refused');
		sayRefused(t, 401, 'mismatch', 'check the secret');
		expect(t.lines).toEqual(['a delivery was refused (401): check the secret']);
		now += 10_000;
		sayRefused(t, 401, 'mismatch', 'check the secret');
		expect(t.lines).toHaveLength(1);
		now += 60_000;
		sayRefused(t, 401, 'mismatch', 'check the secret');
		expect(t.lines).toHaveLength(2);
		expect(t.lines[1]).toMatch(
			/^2 deliveries were refused \(401\) since 08:00:00 UTC: check the secret$/,
		);
	});
});
