/**
 * The snapshot's log of started-id records, in order of arrival (snapshotFormat.ts has their
 * encoding): `persisted` (flat after its first slice) and `tail` (appended since); the first `skip`
 * records of `persisted` are gone. A snapshot slices those off and adds the tail: O(1) until the
 * tail is folded in, amortized O(1). memoryStore.ts owns it and decides when to fold.
 */
import { flat, RECORD_CHARS } from './snapshotFormat';

export class SnapshotLog {
	private persisted = '';
	private count = 0;
	private skip = 0;
	private tail = '';
	private tailCount = 0;
	/** Records copied by folds and rewrites; for tests and the bench (the amortized cost). */
	copied = 0;

	/** Appends one record; true when the tail is a sixteenth of the `total` records: fold it. */
	append(record: string, total: number): boolean {
		this.tail += record;
		this.tailCount++;
		return this.tailCount >= Math.max(1024, total / 16);
	}

	/**
	 * The first record is gone; true when it was the tail's (every record of `persisted` had gone
	 * before it): `text()` still holds it until `fold()`, so fold before the next `text()`.
	 */
	dropFirst(): boolean {
		this.skip++;
		return this.skip > this.count;
	}

	/** The records, as a snapshot keeps them. */
	text(): string {
		return this.persisted.slice(this.skip * RECORD_CHARS) + this.tail;
	}

	/** Folds the tail into `persisted`, without the records gone. */
	fold(): void {
		this.persisted = flat((this.persisted + this.tail).slice(this.skip * RECORD_CHARS));
		this.count = this.count + this.tailCount - this.skip;
		this.skip = 0;
		this.tail = '';
		this.tailCount = 0;
		this.copied += this.count;
	}

	/** Replaces every record (a rewrite against a new base). */
	reset(records: string, count: number): void {
		this.persisted = flat(records);
		this.count = count;
		this.skip = 0;
		this.tail = '';
		this.tailCount = 0;
		this.copied += count;
	}
}
