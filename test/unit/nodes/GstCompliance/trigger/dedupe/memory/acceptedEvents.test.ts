/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The built-in store's accepted events not started yet. */
import { AcceptedEvents } from '@/nodes/GstCompliance/trigger/dedupe/memory/acceptedEvents';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0);
const MINUTE = 60_000;
const WINDOW = 60 * MINUTE;
const WITHIN = 30 * MINUTE;

describe('AcceptedEvents: the accepted events waiting for their execution', () => {
	it('add → acceptedAt gives its time; delete (its start) → gone', () => {
		const events = new AcceptedEvents();
		events.add('evt_1', T0, 10);
		expect(events.acceptedAt('evt_1', T0 + MINUTE, WINDOW)).toBe(T0);
		events.delete('evt_1');
		expect(events.acceptedAt('evt_1', T0 + MINUTE, WINDOW)).toBeUndefined();
		expect(events.size).toBe(0);
	});

	it('add beyond the capacity → the oldest goes; a retake moves an event last', () => {
		const events = new AcceptedEvents();
		events.add('a', T0, 2);
		events.add('b', T0 + 1, 2);
		events.add('a', T0 + 2, 2); // retaken: last now
		events.add('c', T0 + 3, 2);
		expect(events.records()).toEqual([
			['a', T0 + 2],
			['c', T0 + 3],
		]);
	});

	it('overdue → each event accepted at least the deadline ago, once, in order of acceptance', () => {
		const events = new AcceptedEvents();
		events.add('old', T0, 10);
		events.add('young', T0 + 20 * MINUTE, 10);
		expect(events.overdue(T0 + WITHIN - 1, WITHIN, WINDOW)).toEqual([]);
		expect(events.overdue(T0 + WITHIN, WITHIN, WINDOW)).toEqual([
			{ eventId: 'old', acceptedMs: T0 },
		]);
		expect(events.overdue(T0 + WITHIN + 1, WITHIN, WINDOW)).toEqual([]);
		expect(events.size).toBe(2); // named, still waiting: its start may yet come
	});

	it('restored from a snapshot → named uncertain (a start since that save would not be in it)', () => {
		const events = new AcceptedEvents();
		events.restore([['evt_r', T0]], () => false);
		expect(events.overdue(T0 + WITHIN, WITHIN, WINDOW)).toEqual([
			{ eventId: 'evt_r', acceptedMs: T0, uncertain: true },
		]);
	});

	it('restored beside events waiting here → in order of acceptance; one waiting or started here keeps what this process knows', () => {
		const events = new AcceptedEvents();
		events.add('here_late', T0 + 3, 10);
		events.add('here_both', T0 + 5, 10);
		events.restore(
			[
				['read_first', T0 + 1],
				['here_both', T0],
				['started_here', T0 + 2],
				['read_last', T0 + 4],
			],
			(eventId) => eventId === 'started_here',
		);
		expect(events.records()).toEqual([
			['read_first', T0 + 1],
			['here_late', T0 + 3],
			['read_last', T0 + 4],
			['here_both', T0 + 5],
		]);
		expect(events.overdue(T0 + 4 + WITHIN, WITHIN, WINDOW)).toEqual([
			{ eventId: 'read_first', acceptedMs: T0 + 1, uncertain: true },
			{ eventId: 'here_late', acceptedMs: T0 + 3 },
			{ eventId: 'read_last', acceptedMs: T0 + 4, uncertain: true },
		]);
	});

	it('older than the window: forgotten once named overdue; one not named yet stays until it is', () => {
		const events = new AcceptedEvents();
		events.add('named', T0, 10);
		events.add('unnamed', T0 + 1, 10);
		events.overdue(T0 + WITHIN + 1, WITHIN, WINDOW); // names both
		events.add('late', T0 + WINDOW, 10);
		expect(events.acceptedAt('named', T0 + WINDOW + 2, WINDOW)).toBeUndefined();
		expect(events.records().map(([id]) => id)).toEqual(['late']);

		const fresh = new AcceptedEvents();
		fresh.add('never-named', T0, 10);
		expect(fresh.records()).toHaveLength(1);
		fresh.overdue(T0 + WINDOW + 1, WITHIN, WINDOW);
		expect(fresh.records()).toEqual([]); // named by that look, then forgotten
	});

	it('acceptedAt of an event older than the window → undefined, and it is dropped', () => {
		const events = new AcceptedEvents();
		events.add('evt_1', T0, 10);
		expect(events.acceptedAt('evt_1', T0 + WINDOW + 1, WINDOW)).toBeUndefined();
		expect(events.size).toBe(0);
	});
});
