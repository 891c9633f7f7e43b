/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import type { IDataObject } from 'n8n-workflow';

import {
	isMarkers,
	markThisProcess,
	OtherProcesses,
	OVERLAP_MS,
	PROCESS_LIVE_MS,
} from '@/nodes/GstCompliance/trigger/dedupe/memory/processMarkers';

const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
const MINUTE = 60_000;
const SELF = { id: 'self', startedMs: NOW - MINUTE };

describe('markers of the processes that saved a trigger’s ids', () => {
	it('markThisProcess → [started, now] for this process; keeps the markers `keeps` names, drops malformed ones', () => {
		const global: IDataObject = {
			k: { kept: [1, 2], dropped: [3, 4], bad: 'x', self: [0, 0] },
		};
		markThisProcess(global, 'k', SELF, NOW, (id) => id !== 'dropped');
		expect(global.k).toEqual({ kept: [1, 2], self: [NOW - MINUTE, NOW] });
	});

	it.each([
		['null', null],
		['a string', 'ab'],
		['a number', 42],
	])('markThisProcess over markers that are %s → only this process’s', (_name, loaded) => {
		const global: IDataObject = { k: loaded as unknown as IDataObject };
		markThisProcess(global, 'k', SELF, NOW);
		expect(global.k).toEqual({ self: [NOW - MINUTE, NOW] });
	});

	it('markThisProcess of a process that has not started → started now', () => {
		const global: IDataObject = {};
		markThisProcess(global, 'k', { id: 'p' }, NOW);
		expect(global.k).toEqual({ p: [NOW, NOW] });
	});
});

describe('OtherProcesses: another process is live when its marker changes, by this clock', () => {
	/** Sees `other`'s marker read as `value` at `atMs`. */
	const see = (others: OtherProcesses, value: number, atMs: number, id = 'other') =>
		others.observe({ [id]: [1, value], self: [0, atMs] }, 'self', atMs);

	it('changes seen over OVERLAP_MS → live, with a note naming the count and the Redis credential', () => {
		const others = new OtherProcesses();
		see(others, 1, NOW);
		see(others, 2, NOW + MINUTE);
		expect(others.live(NOW + MINUTE)).toBe(0);
		see(others, 3, NOW + MINUTE + OVERLAP_MS - 1);
		expect(others.live(NOW + MINUTE + OVERLAP_MS - 1)).toBe(0);
		see(others, 4, NOW + MINUTE + OVERLAP_MS);
		expect(others.live(NOW + MINUTE + OVERLAP_MS)).toBe(1);
		expect(others.notice(NOW + MINUTE + OVERLAP_MS)).toMatch(
			/^Another n8n process .*\(2 processes, .*GST Compliance Dedupe Redis credential/,
		);
	});

	it('a marker that never changes, whatever time it names (a process before a restart, a clock set back) → not live', () => {
		const others = new OtherProcesses();
		for (const atMs of [NOW, NOW + 10 * MINUTE, NOW + 50 * MINUTE])
			others.observe(
				{ before: [NOW + 5 * PROCESS_LIVE_MS, NOW + 6 * PROCESS_LIVE_MS] },
				'self',
				atMs,
			);
		expect(others.live(NOW + 50 * MINUTE)).toBe(0);
		expect(others.notice(NOW + 50 * MINUTE)).toBeUndefined();
	});

	it('live until PROCESS_LIVE_MS after the last change seen; kept in the static data as long', () => {
		const others = new OtherProcesses();
		see(others, 1, NOW);
		see(others, 2, NOW + MINUTE);
		see(others, 3, NOW + MINUTE + OVERLAP_MS);
		const last = NOW + MINUTE + OVERLAP_MS;
		expect(others.live(last + PROCESS_LIVE_MS - 1)).toBe(1);
		expect(others.keeps('other', last + PROCESS_LIVE_MS - 1)).toBe(true);
		expect(others.live(last + PROCESS_LIVE_MS)).toBe(0);
		expect(others.keeps('other', last + PROCESS_LIVE_MS)).toBe(false);
	});

	it('keeps a marker never seen change for PROCESS_LIVE_MS from when it was first seen; one never seen → kept', () => {
		const others = new OtherProcesses();
		see(others, 1, NOW);
		expect(others.keeps('other', NOW + PROCESS_LIVE_MS - 1)).toBe(true);
		expect(others.keeps('other', NOW + PROCESS_LIVE_MS)).toBe(false);
		expect(others.keeps('unknown', NOW + 10 * PROCESS_LIVE_MS)).toBe(true);
	});

	it('two live others → "3 processes"', () => {
		const others = new OtherProcesses();
		for (const [value, atMs] of [
			[1, NOW],
			[2, NOW + MINUTE],
			[3, NOW + MINUTE + OVERLAP_MS],
		]) {
			see(others, value, atMs, 'a');
			see(others, value, atMs, 'b');
		}
		expect(others.notice(NOW + MINUTE + OVERLAP_MS)).toMatch(/\(3 processes,/);
	});

	it.each([
		['its own marker', (i: number) => ({ self: [NOW - MINUTE, NOW + i] })],
		['a string', (i: number) => ({ a: `x${i}` })],
		['one number', (i: number) => ({ b: [NOW + i] })],
		['strings', (i: number) => ({ c: ['a', `${i}`] })],
		['a start that is not a number', (i: number) => ({ d: [Number.NaN, NOW + i] })],
		['a last save that is not a number', (i: number) => ({ e: [NOW, `now${i}`] })],
		['three numbers', (i: number) => ({ f: [NOW, NOW, NOW + i] })],
		[
			'something that only looks like an array',
			(i: number) => ({ g: { 0: NOW, 1: NOW + i, length: 2 } }),
		],
		['no markers', () => undefined],
		['null', () => null],
	])('markers of %s, changing → never live', (_name, markers) => {
		const others = new OtherProcesses();
		for (let i = 0; i < 3; i++) others.observe(markers(i), 'self', NOW + i * OVERLAP_MS);
		expect(others.live(NOW + 2 * OVERLAP_MS)).toBe(0);
	});

	it('follows at most 64 other markers: the oldest seen goes first', () => {
		const others = new OtherProcesses();
		for (let i = 0; i < 65; i++) others.observe({ [`p${i}`]: [1, 1] }, 'self', NOW);
		// p0 is no longer followed: a marker not followed is kept (first seen as of now).
		expect(others.keeps('p0', NOW + PROCESS_LIVE_MS)).toBe(true);
		expect(others.keeps('p1', NOW + PROCESS_LIVE_MS)).toBe(false);
	});
});

describe('OtherProcesses.look: what a webhook tells the item and the log', () => {
	it('look while another process is live → said on every look, warned once per ten minutes and again after a step back', () => {
		const others = new OtherProcesses();
		const warned: string[] = [];
		const look = (value: number, atMs: number) =>
			others.look({ other: [1, value] }, 'self', atMs, (notice) => warned.push(notice));
		look(1, NOW);
		look(2, NOW + MINUTE);
		expect(others.said).toBeUndefined();
		look(3, NOW + MINUTE + OVERLAP_MS);
		look(4, NOW + 2 * MINUTE + OVERLAP_MS);
		expect(others.said).toMatch(/^Another n8n process/);
		expect(warned).toHaveLength(1);
		look(5, NOW + 11 * MINUTE + OVERLAP_MS);
		expect(warned).toHaveLength(2);
		look(5, NOW + OVERLAP_MS); // the clock stepped back
		expect(warned).toHaveLength(3);
	});
});

describe('isMarkers: only what this package writes is taken for its markers', () => {
	it.each([
		[{ abcd1234: [1, 2] }, true],
		[{ abcd1234: [1, 2], efgh5678: [3, 4] }, true],
		[{}, false],
		[{ abcd1234: [1, 2], other: 'x' }, false],
		[{ abcd1234: [1] }, false],
		[{ abcd1234: [1, 2, 3] }, false],
		[{ abcd1234: [1, 'x'] }, false],
		[{ abcd1234: ['x', 2] }, false],
		[[[1, 2]], false],
		[null, false],
		['abcd1234', false],
	])('isMarkers(%j) → %s', (value, expected) => {
		expect(isMarkers(value)).toBe(expected);
	});
});
