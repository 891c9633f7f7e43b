/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The one rule that keeps process-wide state small: the oldest entry goes first. */
import { makeRoom } from '@/nodes/GstCompliance/bounded';

describe('makeRoom: at most max entries, the oldest first out', () => {
	it('makeRoom(a map below max) → nothing removed', () => {
		const map = new Map([
			['a', 1],
			['b', 2],
		]);
		makeRoom(map, 3);
		expect([...map.keys()]).toEqual(['a', 'b']);
	});

	it('makeRoom(a map at max) → the first set removed, room for one', () => {
		const map = new Map([
			['a', 1],
			['b', 2],
			['c', 3],
		]);
		makeRoom(map, 3);
		expect([...map.keys()]).toEqual(['b', 'c']);
	});

	it('makeRoom(a set above max) → the oldest removed until one fits', () => {
		const set = new Set(['a', 'b', 'c', 'd']);
		makeRoom(set, 2);
		expect([...set]).toEqual(['d']);
	});

	it('an entry deleted and set again counts as the newest', () => {
		const map = new Map([
			['a', 1],
			['b', 2],
		]);
		map.delete('a');
		map.set('a', 3);
		makeRoom(map, 2);
		expect([...map.keys()]).toEqual(['a']);
	});

	it('makeRoom(an empty map, max 0) → returns, nothing to remove', () => {
		const map = new Map<string, number>();
		makeRoom(map, 0);
		expect(map.size).toBe(0);
	});
});
