/**
 * Property test of the dedupe store against a plain reference model: for seeded random sequences
 * of claims (repeated ids, clock steps forward and back, cap and window changes, snapshot
 * round-trips), every claim answers what the model answers. The seed is printed on failure.
 */
import { MemoryDedupeStore } from '../../../../../nodes/GstComplianceTrigger/dedupe/memoryStore';

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 15, 4, 30, 0);

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** What the store promises, written the obvious way: ids in claim order with their minute. */
class Model {
	private entries: Array<{ id: string; minute: number }> = [];
	constructor(
		private windowMinutes: number,
		private capacity: number,
	) {}
	configure(windowMinutes: number, capacity: number) {
		this.windowMinutes = windowMinutes;
		this.capacity = capacity;
	}
	claim(id: string, nowMs: number): boolean {
		const minute = Math.floor(nowMs / MINUTE);
		// Every id is forgotten once its own minute is more than the window before now, in whatever
		// order the ids came (a clock step back puts a later id before an earlier one).
		this.entries = this.entries.filter((entry) => entry.minute + this.windowMinutes >= minute);
		if (this.entries.some((entry) => entry.id === id)) return false;
		while (this.entries.length >= this.capacity) this.entries.shift();
		this.entries.push({ id, minute });
		return true;
	}
}

describe('MemoryDedupeStore against a reference model', () => {
	it.each(Array.from({ length: 40 }, (_, i) => 1000 + i))('seed %i', (seed) => {
		const random = prng(seed);
		const int = (n: number) => Math.floor(random() * n);
		let windowMinutes = 1 + int(30);
		let capacity = 1 + int(20);
		const options = () => ({ windowMs: windowMinutes * MINUTE - int(MINUTE - 1), capacity });
		let store = new MemoryDedupeStore(options());
		const model = new Model(windowMinutes, capacity);
		let now = T0;
		for (let step = 0; step < 300; step++) {
			const roll = random();
			if (roll < 0.02) {
				windowMinutes = 1 + int(30);
				capacity = 1 + int(20);
				store.configure(options());
				model.configure(windowMinutes, capacity);
				// After a clock step back the store re-checks every id at most once per clock minute,
				// so an edited window takes effect from the next minute: let one pass.
				now += MINUTE;
			} else if (roll < 0.07) {
				store = MemoryDedupeStore.fromSnapshot(
					JSON.parse(JSON.stringify(store.snapshot())),
					options(),
				);
			} else if (roll < 0.09) {
				now -= int(5) * MINUTE; // a clock step back
			} else {
				now += int(4) * int(MINUTE);
			}
			const id = `evt_${int(25)}`;
			expect({ seed, step, id, claimed: store.claimNow(id, now) }).toEqual({
				seed,
				step,
				id,
				claimed: model.claim(id, now),
			});
		}
	});
});
