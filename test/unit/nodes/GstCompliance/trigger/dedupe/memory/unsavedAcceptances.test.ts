/**
 * The built-in store's acceptances not yet shown to be in the database, and the deliveries waiting
 * on them (trigger/dedupe/memory/unsavedAcceptances.ts): released when a later request's snapshot
 * lists them or their execution starts, else after the bound.
 */
import { UnsavedAcceptances } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/memory/unsavedAcceptances';

/** A timer the test fires by hand. */
function manualTimer() {
	const pending: Array<{ ms: number; fire: () => void }> = [];
	return {
		wait: async (ms: number) => await new Promise<void>((fire) => pending.push({ ms, fire })),
		pending,
		fireAll: () => pending.splice(0).forEach((timer) => timer.fire()),
	};
}

/** Whether `promise` has settled once the microtasks ran. */
async function settled(promise: true | Promise<void>): Promise<boolean> {
	if (promise === true) return true;
	let done = false;
	void promise.then(() => (done = true));
	for (let i = 0; i < 10; i++) await Promise.resolve();
	return done;
}

describe('whenSaved', () => {
	it('whenSaved(an id never added) → true at once: nothing to wait for', () => {
		const unsaved = new UnsavedAcceptances();
		expect(unsaved.whenSaved('evt_1', 1_000, manualTimer().wait)).toBe(true);
	});

	it('whenSaved(an added id) → waits, with a timer of the bound; seen([it]) → released, and the next whenSaved is true', async () => {
		const unsaved = new UnsavedAcceptances();
		const timer = manualTimer();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', 1_000, timer.wait);
		expect(timer.pending.map(({ ms }) => ms)).toEqual([1_000]);
		expect(await settled(waiting)).toBe(false);
		unsaved.seen(['evt_other', 'evt_1']);
		expect(await settled(waiting)).toBe(true);
		expect(unsaved.size).toBe(0);
		expect(unsaved.whenSaved('evt_1', 1_000, timer.wait)).toBe(true);
	});

	it('started(an added id) → released: its execution has its row', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', 1_000, manualTimer().wait);
		unsaved.started('evt_1');
		expect(await settled(waiting)).toBe(true);
	});

	it('seen(ids without it) or started(another) → still waiting', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', 1_000, manualTimer().wait);
		unsaved.seen(['evt_2']);
		unsaved.started('evt_3');
		expect(await settled(waiting)).toBe(false);
		expect(unsaved.size).toBe(1);
	});

	it('the bound passes first → released, and the id is forgotten: a copy of it then answers at once', async () => {
		const unsaved = new UnsavedAcceptances();
		const timer = manualTimer();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', 1_000, timer.wait);
		timer.fireAll();
		expect(await settled(waiting)).toBe(true);
		expect(unsaved.size).toBe(0);
		expect(unsaved.whenSaved('evt_1', 1_000, timer.wait)).toBe(true);
	});

	it('two deliveries of one id (the delivery and a copy) → one wait, both released together', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		unsaved.add('evt_1');
		const first = unsaved.whenSaved('evt_1', 1_000, manualTimer().wait);
		const copy = unsaved.whenSaved('evt_1', 1_000, manualTimer().wait);
		expect(unsaved.size).toBe(1);
		unsaved.seen(['evt_1']);
		expect([await settled(first), await settled(copy)]).toEqual([true, true]);
	});

	it('a bound that passes after the id was released and added again → leaves the new wait alone', async () => {
		const unsaved = new UnsavedAcceptances();
		const timer = manualTimer();
		unsaved.add('evt_1');
		void unsaved.whenSaved('evt_1', 1_000, timer.wait);
		unsaved.seen(['evt_1']);
		unsaved.add('evt_1'); // taken again (retaken)
		const again = unsaved.whenSaved('evt_1', 5_000, manualTimer().wait);
		timer.fireAll(); // the first bound
		expect(await settled(again)).toBe(false);
		expect(unsaved.size).toBe(1);
	});
});
