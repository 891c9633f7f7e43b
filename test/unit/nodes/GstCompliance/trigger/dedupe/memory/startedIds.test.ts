/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * The built-in store's started ids on their own: digests by minute, expiry by each id's own minute,
 * eviction oldest first, merge, and the persisted records. What a start means, and the whole store
 * against a reference model, is in memoryStore.test.ts.
 */
import { createHash } from 'crypto';

import {
	digestEventId,
	MINUTE_MS,
	StartedIds,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/startedIds';
import { startedRecords } from '@/nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat';

const M0 = Math.floor(Date.UTC(2025, 0, 15, 4, 30, 0) / MINUTE_MS);
const TEN_MINUTES = 10 * MINUTE_MS;
const d = digestEventId;
const ids = (set: StartedIds, names: string[]) => names.filter((name) => set.has(d(name)));
/** The started records a snapshot of `set` holds, digest → minute. */
const records = (set: StartedIds) => [...startedRecords({ v: 1, ...set.persisted() })];

describe('event id digest', () => {
	it('digestEventId → 11 base64url characters, the same for the same id, another for another id', () => {
		expect(digestEventId('evt_1')).toMatch(/^[A-Za-z0-9_-]{11}$/);
		expect(digestEventId('evt_1')).toBe(digestEventId('evt_1'));
		expect(digestEventId('evt_2')).not.toBe(digestEventId('evt_1'));
	});

	it.each(['evt_1', 'evt_é', 'evt_\u{1F600}'])(
		'digestEventId(%j) of a well-formed id → its UTF-8 SHA-256, as before',
		(id) => {
			expect(digestEventId(id)).toBe(
				createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 11),
			);
		},
	);

	it('digestEventId of ids with a lone surrogate → digests distinct from each other and from U+FFFD', () => {
		const digests = ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd'].map(digestEventId);
		expect(new Set(digests).size).toBe(3);
	});
});

describe('StartedIds: expiry by each id’s own minute', () => {
	it('expire(minute, window) → ids older than the window in whole minutes, rounded up, forgotten; the rest kept', () => {
		const set = new StartedIds();
		set.add(d('old'), M0, 100);
		set.add(d('mid'), M0 + 5, 100);
		set.expire(M0 + 11, 90_000 + 9 * MINUTE_MS); // 10.5 minutes round up to 11
		expect(ids(set, ['old', 'mid'])).toEqual(['old', 'mid']);
		set.expire(M0 + 12, 90_000 + 9 * MINUTE_MS);
		expect(ids(set, ['old', 'mid'])).toEqual(['mid']);
		expect(set.size).toBe(1);
	});

	it('expire after a clock step back → a later-arrived older id goes by its own minute, the one before it stays', () => {
		const set = new StartedIds();
		set.add(d('late'), M0 + 120, 100);
		set.add(d('early'), M0, 100); // the clock stepped back two hours
		set.expire(M0 + 11, TEN_MINUTES);
		expect(ids(set, ['late', 'early'])).toEqual(['late']);
		expect(set.scannedRecords).toBe(2);
		expect(records(set)).toEqual([[d('late'), M0 + 120]]);
	});

	it('expire twice in one minute after a step back → one scan; in order again → no scans', () => {
		const set = new StartedIds();
		set.add(d('b'), M0 + 5, 100);
		set.add(d('a'), M0, 100);
		set.expire(M0 + 11, TEN_MINUTES);
		set.expire(M0 + 11, TEN_MINUTES);
		expect(set.scannedRecords).toBe(2);
		// `a` went, `b` alone is in order: the next minutes look at the front only.
		set.expire(M0 + 12, TEN_MINUTES);
		set.expire(M0 + 13, TEN_MINUTES);
		expect(set.scannedRecords).toBe(2);
	});
});

describe('StartedIds: the cap evicts the oldest first', () => {
	it('add at the cap → the first-arrived id goes, counted as evicted in the window', () => {
		const set = new StartedIds();
		for (const name of ['a', 'b', 'c', 'd']) set.add(d(name), M0, 3);
		expect(ids(set, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
		expect(set.evictedInWindow).toBe(1);
		expect(records(set).map(([digest]) => digest)).toEqual(['b', 'c', 'd'].map(d));
	});

	it.each([0, -1])('add with capacity %i → the latest id alone', (capacity) => {
		const set = new StartedIds();
		set.add(d('a'), M0, capacity);
		set.add(d('b'), M0, capacity);
		expect(ids(set, ['a', 'b'])).toEqual(['b']);
	});
});

describe('StartedIds: merge and the persisted records', () => {
	it('persisted() → base and records in order of arrival; merge into an empty set → the same set', () => {
		const set = new StartedIds();
		set.add(d('a'), M0, 100);
		set.add(d('b'), M0 + 3, 100);
		const { base, d: text } = set.persisted();
		expect(base).toBe(M0);
		const copy = new StartedIds();
		copy.merge(base, startedRecords({ v: 1, base, d: text }));
		expect(copy.persisted()).toEqual(set.persisted());
	});

	it('merge into a set that knows an id → the known minute kept, only the new ids added', () => {
		const set = new StartedIds();
		set.add(d('a'), M0 + 2, 100);
		set.merge(M0, [
			[d('a'), M0],
			[d('b'), M0 + 1],
		]);
		expect(records(set)).toEqual([
			[d('a'), M0 + 2],
			[d('b'), M0 + 1],
		]);
	});

	it('add far before the base → the base moves back and both ids stay encoded', () => {
		const set = new StartedIds();
		set.add(d('a'), M0, 100);
		set.add(d('b'), M0 - 30, 100);
		expect(set.persisted().base).toBe(M0 - 30);
		expect(records(set)).toEqual([
			[d('a'), M0],
			[d('b'), M0 - 30],
		]);
	});
});
