/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The built-in store's acceptances not yet shown to be in the database, and the deliveries waiting
 * on them (trigger/dedupe/memory/unsavedAcceptances.ts): released when a request's snapshot lists
 * them or their execution starts, probing meanwhile; false once the bound passes.
 */
import {
	UnsavedAcceptances,
	type SaveProof,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/unsavedAcceptances';

/** Timers the test fires by hand, and the probes made. */
function manualProof(probe?: () => Promise<void>) {
	const timers: Array<{ ms: number; fire: () => void }> = [];
	const proof: SaveProof = {
		withinMs: 1_000,
		probeAfterMs: 200,
		wait: async (ms) => await new Promise<void>((fire) => timers.push({ ms, fire })),
		probe,
	};
	/** Fires the pending timers of `ms` (all: any), and lets what they release run. */
	const fire = async (ms?: number) => {
		for (const timer of timers.filter((t) => ms === undefined || t.ms === ms)) {
			timers.splice(timers.indexOf(timer), 1);
			timer.fire();
		}
		await flush();
	};
	return { proof, timers, fire };
}

const flush = async () => {
	for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** What `promise` resolved to once the microtasks ran; 'pending' if it has not. */
async function outcome(promise: true | Promise<boolean>): Promise<boolean | 'pending'> {
	if (promise === true) return true;
	let result: boolean | 'pending' = 'pending';
	void promise.then((value) => (result = value));
	await flush();
	return result;
}

describe('whenSaved', () => {
	it('whenSaved(an id never added) → true at once: nothing to wait for, no timer', () => {
		const unsaved = new UnsavedAcceptances();
		const { proof, timers } = manualProof();
		expect(unsaved.whenSaved('evt_1', proof)).toBe(true);
		expect(timers).toEqual([]);
	});

	it('whenSaved(an added id) → waits, bounded by withinMs; seen([it]) → true, and the next whenSaved is true at once', async () => {
		const unsaved = new UnsavedAcceptances();
		const { proof, timers } = manualProof();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', proof);
		expect(timers.map(({ ms }) => ms)).toEqual([1_000]);
		expect(await outcome(waiting)).toBe('pending');
		unsaved.seen(['evt_other', 'evt_1']);
		expect(await outcome(waiting)).toBe(true);
		expect(unsaved.size).toBe(0);
		expect(unsaved.whenSaved('evt_1', proof)).toBe(true);
	});

	it('has(id) → true while a delivery of it would wait', () => {
		const unsaved = new UnsavedAcceptances();
		expect(unsaved.has('evt_1')).toBe(false);
		unsaved.add('evt_1');
		expect(unsaved.has('evt_1')).toBe(true);
		unsaved.started('evt_1');
		expect(unsaved.has('evt_1')).toBe(false);
	});

	it('started(an added id) → true: its execution has its row', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', manualProof().proof);
		unsaved.started('evt_1');
		expect(await outcome(waiting)).toBe(true);
	});

	it('seen(ids without it) or started(another) → still waiting', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', manualProof().proof);
		unsaved.seen(['evt_2']);
		unsaved.started('evt_3');
		expect(await outcome(waiting)).toBe('pending');
		expect(unsaved.size).toBe(1);
	});

	it('the bound passes first → false, and the id still waits: a copy of it is not answered before it is shown saved', async () => {
		const unsaved = new UnsavedAcceptances();
		const { proof, fire } = manualProof();
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', proof);
		await fire(1_000);
		expect(await outcome(waiting)).toBe(false);
		expect(unsaved.size).toBe(1);
		const copy = unsaved.whenSaved('evt_1', proof);
		unsaved.seen(['evt_1']);
		expect(await outcome(copy)).toBe(true);
	});

	it('two deliveries of one id (the delivery and a copy) → one wait, both released together', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_1');
		unsaved.add('evt_1');
		const first = unsaved.whenSaved('evt_1', manualProof().proof);
		const copy = unsaved.whenSaved('evt_1', manualProof().proof);
		expect(unsaved.size).toBe(1);
		unsaved.seen(['evt_1']);
		expect([await outcome(first), await outcome(copy)]).toEqual([true, true]);
	});
});

describe('probing while deliveries wait', () => {
	it('nothing shows it within probeAfterMs → one probe; one that shows it releases the wait, and probing stops', async () => {
		const unsaved = new UnsavedAcceptances();
		const probe = jest.fn(async () => unsaved.seen(['evt_1']));
		const { proof, fire, timers } = manualProof(probe);
		unsaved.add('evt_1');
		const waiting = unsaved.whenSaved('evt_1', proof);
		expect(probe).not.toHaveBeenCalled();
		await fire(200);
		expect(probe).toHaveBeenCalledTimes(1);
		expect(await outcome(waiting)).toBe(true);
		await fire(200);
		expect(probe).toHaveBeenCalledTimes(1);
		expect(timers.filter(({ ms }) => ms === 200)).toEqual([]);
	});

	it('probes that show nothing (or fail) → one every probeAfterMs for all waiting deliveries, at most withinMs worth', async () => {
		const unsaved = new UnsavedAcceptances();
		const probe = jest.fn(async () => {
			if (probe.mock.calls.length === 2) throw new Error('ECONNREFUSED');
		});
		const { proof, fire } = manualProof(probe);
		unsaved.add('evt_1');
		unsaved.add('evt_2');
		void unsaved.whenSaved('evt_1', proof);
		void unsaved.whenSaved('evt_2', proof);
		for (let i = 0; i < 10; i++) await fire(200);
		expect(probe).toHaveBeenCalledTimes(5);
	});

	it('without a way to probe (no Production URL) → waits for a request or the execution alone', async () => {
		const unsaved = new UnsavedAcceptances();
		const { proof, timers } = manualProof(undefined);
		unsaved.add('evt_1');
		void unsaved.whenSaved('evt_1', proof);
		await flush();
		expect(timers.map(({ ms }) => ms)).toEqual([1_000]);
	});
});

describe('the bound on waiting acceptances', () => {
	it('add() beyond 10,000 waiting → the oldest is released (its delivery answered), the newest waits', async () => {
		const unsaved = new UnsavedAcceptances();
		unsaved.add('evt_0');
		const oldest = unsaved.whenSaved('evt_0', manualProof().proof);
		for (let i = 1; i <= 10_000; i++) unsaved.add(`evt_${i}`);
		expect(unsaved.size).toBe(10_000);
		expect(await outcome(oldest)).toBe(true);
		expect(unsaved.whenSaved('evt_10000', manualProof().proof)).not.toBe(true);
	});
});
