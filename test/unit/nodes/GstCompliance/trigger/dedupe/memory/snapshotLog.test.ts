/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The built-in store's persisted-records buffer on its own: records appended in order, records
 * dropped from the front, the text a snapshot keeps, when `append` and `dropFirst` ask the owner to
 * fold (a tail of a sixteenth of the records, at least 1024; the first record of the tail gone),
 * what `fold` and `reset` leave and how many records they count as copied. memoryStore.test.ts
 * covers the buffer through the store's snapshots.
 */
import { SnapshotLog } from '@/nodes/GstCompliance/trigger/dedupe/memory/snapshotLog';
import { RECORD_CHARS } from '@/nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat';

/** A record of RECORD_CHARS characters that names its number: `r0000000007AAA`. */
const record = (n: number): string => `r${String(n).padStart(RECORD_CHARS - 4, '0')}AAA`;
/** Records `from` to `to` (inclusive), as the buffer's text holds them. */
const records = (from: number, to: number): string =>
	Array.from({ length: to - from + 1 }, (_, i) => record(from + i)).join('');

/** Appends records `from`..`to`, each with the given total; the answers of `append`. */
function appendAll(buffer: SnapshotLog, from: number, to: number, total: number): boolean[] {
	const answers: boolean[] = [];
	for (let n = from; n <= to; n++) answers.push(buffer.append(record(n), total));
	return answers;
}

/** A buffer holding records 1..n folded into `persisted`, nothing in the tail. */
function folded(n: number): SnapshotLog {
	const buffer = new SnapshotLog();
	appendAll(buffer, 1, n, n);
	buffer.fold();
	return buffer;
}

describe('the records in order of arrival', () => {
	it('new SnapshotLog() → text() "", copied 0', () => {
		const buffer = new SnapshotLog();
		expect(buffer.text()).toBe('');
		expect(buffer.copied).toBe(0);
	});

	it('append(r1), append(r2), append(r3) → text() r1r2r3, no fold asked, nothing copied', () => {
		const buffer = new SnapshotLog();
		expect(record(7)).toBe('r0000000007AAA');
		expect(appendAll(buffer, 1, 3, 3)).toEqual([false, false, false]);
		expect(buffer.text()).toBe(records(1, 3));
		expect(buffer.copied).toBe(0);
	});

	it('append(r3) after fold() of r1 r2 → text() r1r2r3: the folded records, then the tail', () => {
		const buffer = folded(2);
		buffer.append(record(3), 3);
		expect(buffer.text()).toBe(records(1, 3));
	});
});

describe('append asks for a fold once the tail is a sixteenth of the records, at least 1024', () => {
	it('append of the 1st to 1024th record with totals up to 1024 → false, then true at the 1024th', () => {
		const buffer = new SnapshotLog();
		const answers: boolean[] = [];
		for (let n = 1; n <= 1024; n++) answers.push(buffer.append(record(n), n));
		expect(answers.indexOf(true)).toBe(1023);
		expect(answers.slice(1023)).toEqual([true]);
	});

	it('append with a total of 32,768 → false up to the 2047th record, true at the 2048th', () => {
		const answers = appendAll(new SnapshotLog(), 1, 2048, 32_768);
		expect(answers.indexOf(true)).toBe(2047);
	});

	it('append with a total of 16,392 (a sixteenth is 1024.5) → false at the 1024th record, true at the 1025th', () => {
		const answers = appendAll(new SnapshotLog(), 1, 1025, 16_392);
		expect(answers.indexOf(true)).toBe(1024);
	});

	it('append past the threshold without a fold → true again: the tail still wants folding', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 1024, 0);
		expect(buffer.append(record(1025), 0)).toBe(true);
	});

	it('append after fold() → counts the tail from zero again: true only at the 1024th new record', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 1024, 0);
		buffer.fold();
		const answers = appendAll(buffer, 1025, 2048, 0);
		expect(answers.indexOf(true)).toBe(1023);
		expect(buffer.text()).toBe(records(1, 2048));
	});

	it('append after reset() → counts the tail from zero again: true only at the 1024th new record', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 1000, 0);
		buffer.reset(records(1, 2), 2);
		const answers = appendAll(buffer, 3, 1026, 0);
		expect(answers.indexOf(true)).toBe(1023);
	});
});

describe('dropFirst: the oldest record is gone', () => {
	it('dropFirst() on r1 r2 r3 folded → false each time; text() r2r3, r3, then ""', () => {
		const buffer = folded(3);
		const seen: Array<[boolean, string]> = [];
		for (let i = 0; i < 3; i++) seen.push([buffer.dropFirst(), buffer.text()]);
		expect(seen).toEqual([
			[false, records(2, 3)],
			[false, record(3)],
			[false, ''],
		]);
	});

	it('dropFirst() past the folded records, on the first of the tail → true; after fold() the text is the rest of the tail', () => {
		const buffer = folded(2);
		appendAll(buffer, 3, 4, 4);
		expect([buffer.dropFirst(), buffer.dropFirst()]).toEqual([false, false]);
		expect(buffer.text()).toBe(records(3, 4));
		expect(buffer.dropFirst()).toBe(true);
		buffer.fold();
		expect(buffer.text()).toBe(record(4));
	});

	it('dropFirst() before any fold (every record in the tail) → true; after fold() the text is the rest', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 3, 3);
		expect(buffer.dropFirst()).toBe(true);
		buffer.fold();
		expect(buffer.text()).toBe(records(2, 3));
		expect(buffer.copied).toBe(2);
	});
});

describe('fold: the tail joined to the records, without those gone', () => {
	it('fold() of r1..r3 → text() unchanged, 3 copied; fold() again → 3 more copied (persisted is copied whole)', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 3, 3);
		buffer.fold();
		expect(buffer.text()).toBe(records(1, 3));
		expect(buffer.copied).toBe(3);
		buffer.fold();
		expect(buffer.text()).toBe(records(1, 3));
		expect(buffer.copied).toBe(6);
	});

	it('fold() after r1 dropped and r3, r4 appended → text() r2r3r4, the 3 kept counted as copied; those 3 drop without asking to fold', () => {
		const buffer = folded(2);
		buffer.dropFirst();
		appendAll(buffer, 3, 4, 3);
		buffer.fold();
		expect(buffer.text()).toBe(records(2, 4));
		expect(buffer.copied).toBe(2 + 3);
		const answers = [buffer.dropFirst(), buffer.dropFirst(), buffer.dropFirst()];
		expect(answers).toEqual([false, false, false]);
		expect(buffer.text()).toBe('');
	});
});

describe('reset: every record replaced', () => {
	it('reset(r8 r9, 2) after records dropped and a tail appended → text() r8r9 only; 2 more copied', () => {
		const buffer = folded(3);
		buffer.dropFirst();
		appendAll(buffer, 4, 5, 4);
		const before = buffer.copied;
		buffer.reset(records(8, 9), 2);
		expect(buffer.text()).toBe(records(8, 9));
		expect(buffer.copied).toBe(before + 2);
	});

	it('dropFirst() twice after reset(r8 r9, 2) on a buffer of 1 record → false, false: the count is the new one', () => {
		const buffer = folded(1);
		buffer.reset(records(8, 9), 2);
		expect([buffer.dropFirst(), buffer.text()]).toEqual([false, record(9)]);
		expect([buffer.dropFirst(), buffer.text()]).toEqual([false, '']);
	});

	it('reset("", 0) → text() "", nothing copied; then append(r1) → text() r1', () => {
		const buffer = new SnapshotLog();
		appendAll(buffer, 1, 2, 2);
		buffer.reset('', 0);
		expect(buffer.text()).toBe('');
		expect(buffer.copied).toBe(0);
		buffer.append(record(1), 1);
		expect(buffer.text()).toBe(record(1));
	});
});

describe('used as memoryStore uses it, the text is the records held', () => {
	it('append with the size as total, dropFirst beyond 1,500 records, fold when asked → text() the last 1,500 after every step', () => {
		const buffer = new SnapshotLog();
		let expected = '';
		let size = 0;
		let folds = 0;
		const mismatches: number[] = [];
		for (let n = 1; n <= 4_000; n++) {
			expected += record(n);
			size++;
			if (buffer.append(record(n), size)) {
				buffer.fold();
				folds++;
			}
			if (size > 1_500) {
				expected = expected.slice(RECORD_CHARS);
				size--;
				if (buffer.dropFirst()) {
					buffer.fold();
					folds++;
				}
			}
			if (buffer.text() !== expected) mismatches.push(n);
		}
		expect(mismatches).toEqual([]);
		expect(buffer.text()).toBe(records(2_501, 4_000));
		// Folds happen, but far fewer than one per record: the copying is amortized.
		expect(folds).toBeGreaterThan(1);
		expect(buffer.copied).toBeLessThan(4 * 4_000);
	});
});
