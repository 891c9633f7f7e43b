import type { IDataObject } from 'n8n-workflow';

import {
	markThisProcess,
	otherLiveProcess,
	PROCESS_LIVE_MS,
	processesKey,
} from '../../../../../../../nodes/GstCompliance/trigger/dedupe/memory/processMarkers';

const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
const SELF = { id: 'self', startedMs: NOW - 60_000 };

describe('markers of the processes that saved a trigger’s ids', () => {
	it('processesKey(ids key) → "<ids key>:processes"', () => {
		expect(processesKey('dedupe:node-1')).toBe('dedupe:node-1:processes');
	});

	it('markThisProcess → [started, now] for this process; keeps live markers, drops silent and malformed ones', () => {
		const global: IDataObject = {
			k: {
				live: [NOW - 1, NOW - PROCESS_LIVE_MS + 1],
				silent: [NOW - 1, NOW - PROCESS_LIVE_MS],
				bad: 'x',
			},
		};
		markThisProcess(global, 'k', SELF, NOW);
		expect(global.k).toEqual({
			live: [NOW - 1, NOW - PROCESS_LIVE_MS + 1],
			self: [NOW - 60_000, NOW],
		});
	});

	it.each([
		['null', null],
		['a string', 'ab'],
		['a number', 42],
	])('markThisProcess over markers that are %s → only this process’s', (_name, loaded) => {
		const global: IDataObject = { k: loaded as unknown as IDataObject };
		markThisProcess(global, 'k', SELF, NOW);
		expect(global.k).toEqual({ self: [NOW - 60_000, NOW] });
	});

	it('markThisProcess of a process that has not started → started now', () => {
		const global: IDataObject = {};
		markThisProcess(global, 'k', { id: 'p' }, NOW);
		expect(global.k).toEqual({ p: [NOW, NOW] });
	});

	it('otherLiveProcess → a note naming the count and the Redis credential for a marker saved since this process started', () => {
		const note = otherLiveProcess({ other: [NOW - 3_600_000, NOW - 60_000] }, SELF, NOW);
		expect(note).toMatch(
			/^Another n8n process .*\(2 processes, .*GST Compliance Dedupe Redis credential/,
		);
	});

	it.each([
		['its own marker', { self: [NOW - 60_000, NOW] }],
		['one saved before this process started', { other: [NOW - 7_200_000, NOW - 60_001] }],
		['one a string', { a: 'x' }],
		['one of one number', { b: [NOW] }],
		['one of strings', { c: ['a', 'b'] }],
		['one whose start is not a number', { d: [Number.NaN, NOW - 1] }],
		['one whose last save is not a number', { e: [NOW - 1, 'now'] }],
		['one of three numbers', { f: [NOW - 1, NOW - 1, NOW - 1] }],
		['one that only looks like an array', { g: { 0: NOW - 1, 1: NOW - 1, length: 2 } }],
		['no markers', undefined],
		['null', null],
	])('otherLiveProcess with %s → undefined', (_name, markers) => {
		expect(otherLiveProcess(markers, SELF, NOW)).toBeUndefined();
	});

	it('otherLiveProcess with a marker silent for exactly PROCESS_LIVE_MS → undefined; a millisecond less → the note', () => {
		const longAgo = { id: 'self', startedMs: NOW - 3 * PROCESS_LIVE_MS };
		expect(
			otherLiveProcess({ other: [NOW - 1, NOW - PROCESS_LIVE_MS] }, longAgo, NOW),
		).toBeUndefined();
		expect(otherLiveProcess({ other: [NOW - 1, NOW - PROCESS_LIVE_MS + 1] }, longAgo, NOW)).toMatch(
			/^Another n8n process/,
		);
	});
});
