/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * normaliseOptions: the trigger's options as the webhook uses them, whole milliseconds inside the
 * documented ranges whatever the editor, an expression or the REST API saved, with a note for each
 * value that had to be changed. What webhook() does with them is in webhook.test.ts.
 */
import {
	normaliseOptions,
	START_WITHIN_MINUTES,
	TOLERANCE_SECONDS,
	WINDOW_HOURS,
} from '@/nodes/GstCompliance/trigger/options';

const HOUR = 3_600_000;
const WINDOW = 'Dedupe Window (Hours)';
const TOLERANCE = 'Timestamp Tolerance (Seconds)';

describe('the shipped defaults', () => {
	it('WINDOW_HOURS, TOLERANCE_SECONDS and START_WITHIN_MINUTES → 24 h in 1..720, 300 s in 1..3600, 30 min in 1..1440', () => {
		expect(WINDOW_HOURS).toEqual({ default: 24, min: 1, max: 720 });
		expect(TOLERANCE_SECONDS).toEqual({ default: 300, min: 1, max: 3600 });
		expect(START_WITHIN_MINUTES).toEqual({ default: 30, min: 1, max: 1440 });
	});

	it.each([
		['no option set', {}],
		['every option empty', { toleranceSeconds: '', dedupeWindowHours: '' }],
		['every option null', { toleranceSeconds: null, dedupeWindowHours: null, outputShape: null }],
	])(
		'normaliseOptions(%s) → 300 s tolerance, 24 h + 300 s remembered, envelope, acknowledged by version, 30 min to start, no note',
		(_name, raw) => {
			expect(normaliseOptions(raw)).toEqual({
				toleranceMs: 300_000,
				dedupeWindowMs: 24 * HOUR + 300_000,
				outputShape: 'envelope',
				acknowledge: 'auto',
				startWithinMs: 30 * 60_000,
				notes: [],
			});
		},
	);
});

describe('whole milliseconds', () => {
	it('normaliseOptions(4.1 h) → Math.round(4.1 × 3600000) + 300000 ms, an integer, no note', () => {
		const { dedupeWindowMs, notes } = normaliseOptions({ dedupeWindowHours: 4.1 });
		expect(dedupeWindowMs).toBe(Math.round(4.1 * HOUR) + 300_000);
		expect(dedupeWindowMs).toBe(15_060_000);
		expect(notes).toEqual([]);
	});

	it('normaliseOptions(tolerance 2.5 s, window 1 h) → 2500 ms, and the window adds that tolerance', () => {
		expect(normaliseOptions({ toleranceSeconds: 2.5, dedupeWindowHours: 1 })).toMatchObject({
			toleranceMs: 2_500,
			dedupeWindowMs: HOUR + 2_500,
			notes: [],
		});
	});

	it('normaliseOptions(tolerance 0.0004 s) → 1000 ms: clamped to the 1 s minimum first', () => {
		expect(normaliseOptions({ toleranceSeconds: 0.0004 }).toleranceMs).toBe(1_000);
	});
});

describe('values outside the ranges', () => {
	it.each([
		[-3, 1],
		[0, 1],
		[0.5, 1],
		[720.5, 720],
		[100_000, 720],
	])('normaliseOptions(window %p h) → %p h used, with a note naming both', (given, used) => {
		const { dedupeWindowMs, notes } = normaliseOptions({ dedupeWindowHours: given });
		expect(dedupeWindowMs).toBe(used * HOUR + 300_000);
		expect(notes).toEqual([`${WINDOW} ${given} is outside 1–720; ${used} is used`]);
	});

	it.each([
		[0, 1],
		[-5, 1],
		[4_000, 3_600],
	])('normaliseOptions(tolerance %p s) → %p s used, with a note naming both', (given, used) => {
		const { toleranceMs, dedupeWindowMs, notes } = normaliseOptions({ toleranceSeconds: given });
		expect(toleranceMs).toBe(used * 1000);
		expect(dedupeWindowMs).toBe(24 * HOUR + used * 1000);
		expect(notes).toEqual([`${TOLERANCE} ${given} is outside 1–3600; ${used} is used`]);
	});

	it.each([
		[1, 1],
		[720, 720],
	])('normaliseOptions(window %p h, at the edge) → used as given, no note', (given, used) => {
		expect(normaliseOptions({ dedupeWindowHours: given })).toMatchObject({
			dedupeWindowMs: used * HOUR + 300_000,
			notes: [],
		});
	});

	it('normaliseOptions(tolerance 1 s and 3600 s, at the edges) → used as given, no note', () => {
		expect(normaliseOptions({ toleranceSeconds: 1 })).toMatchObject({
			toleranceMs: 1_000,
			notes: [],
		});
		expect(normaliseOptions({ toleranceSeconds: 3_600 })).toMatchObject({
			toleranceMs: 3_600_000,
			notes: [],
		});
	});

	it('normaliseOptions(both outside) → both clamped, one note each, tolerance first', () => {
		expect(normaliseOptions({ toleranceSeconds: 0, dedupeWindowHours: 1_000 })).toEqual({
			toleranceMs: 1_000,
			dedupeWindowMs: 720 * HOUR + 1_000,
			outputShape: 'envelope',
			acknowledge: 'auto',
			startWithinMs: 30 * 60_000,
			notes: [
				`${TOLERANCE} 0 is outside 1–3600; 1 is used`,
				`${WINDOW} 1000 is outside 1–720; 720 is used`,
			],
		});
	});
});

describe('Acknowledge and Missed Event Warning', () => {
	it.each([
		['atOnce', 'atOnce'],
		['afterExecutionCreated', 'afterExecutionCreated'],
		['auto', 'auto'],
		[undefined, 'auto'],
		['later', 'auto'],
		[42, 'auto'],
	])('normaliseOptions(acknowledge %p) → %p', (given, used) => {
		expect(normaliseOptions({ acknowledge: given }).acknowledge).toBe(used);
	});

	it('normaliseOptions(startWithinMinutes 0, 2000, "abc", 2.5) → 1, 1440, 30 (each with a note), 2.5 min', () => {
		expect(normaliseOptions({ startWithinMinutes: 0 })).toMatchObject({
			startWithinMs: 60_000,
			notes: ['Missed Event Warning (Minutes) 0 is outside 1–1440; 1 is used'],
		});
		expect(normaliseOptions({ startWithinMinutes: 2_000 }).startWithinMs).toBe(1_440 * 60_000);
		expect(normaliseOptions({ startWithinMinutes: 'abc' })).toMatchObject({
			startWithinMs: 30 * 60_000,
			notes: ['Missed Event Warning (Minutes) "abc" is not a number; 30 is used'],
		});
		expect(normaliseOptions({ startWithinMinutes: 2.5 })).toMatchObject({
			startWithinMs: 150_000,
			notes: [],
		});
	});
});

describe('values that are not numbers', () => {
	it('normaliseOptions(window "48", tolerance " 60 ") → read as numbers, no note', () => {
		expect(normaliseOptions({ dedupeWindowHours: '48', toleranceSeconds: ' 60 ' })).toMatchObject({
			toleranceMs: 60_000,
			dedupeWindowMs: 48 * HOUR + 60_000,
			notes: [],
		});
	});

	it('normaliseOptions(window "1000") → read as a number, then clamped to 720 with a note', () => {
		expect(normaliseOptions({ dedupeWindowHours: '1000' })).toMatchObject({
			dedupeWindowMs: 720 * HOUR + 300_000,
			notes: [`${WINDOW} 1000 is outside 1–720; 720 is used`],
		});
	});

	it.each([
		['abc', '"abc"'],
		[true, 'true'],
		[{}, '{}'],
		[[24], '[24]'],
	])('normaliseOptions(window %p) → the 24 h default, with a note quoting %s', (given, quoted) => {
		expect(normaliseOptions({ dedupeWindowHours: given })).toMatchObject({
			dedupeWindowMs: 24 * HOUR + 300_000,
			notes: [`${WINDOW} ${quoted} is not a number; 24 is used`],
		});
	});

	it('normaliseOptions(tolerance "soon") → the 300 s default, with a note', () => {
		expect(normaliseOptions({ toleranceSeconds: 'soon' })).toMatchObject({
			toleranceMs: 300_000,
			notes: [`${TOLERANCE} "soon" is not a number; 300 is used`],
		});
	});

	it.each([NaN, Infinity, -Infinity])(
		'normaliseOptions(window %p) → the 24 h default, with a note naming the value',
		(given) => {
			const { dedupeWindowMs, notes } = normaliseOptions({ dedupeWindowHours: given });
			expect(dedupeWindowMs).toBe(24 * HOUR + 300_000);
			expect(notes).toEqual([`${WINDOW} ${String(given)} is not a number; 24 is used`]);
		},
	);

	it.each([
		['+48', 48],
		['2.5', 2.5],
		['2.55', 2.55],
		['-0', 1],
	])('normaliseOptions(window %j) → decimal notation, read as %p hours', (given, hours) => {
		expect(normaliseOptions({ dedupeWindowHours: given }).dedupeWindowMs).toBe(
			Math.round(hours * HOUR) + 300_000,
		);
	});

	it.each(['0x10', '1e3', '12abc', 'abc12', '1.', '.5', '1,5'])(
		'normaliseOptions(window %j) → not decimal notation: the 24 h default, with a note',
		(given) => {
			expect(normaliseOptions({ dedupeWindowHours: given })).toMatchObject({
				dedupeWindowMs: 24 * HOUR + 300_000,
				notes: [`${WINDOW} ${JSON.stringify(given)} is not a number; 24 is used`],
			});
		},
	);
});

describe('the output shape', () => {
	it.each([
		['data', 'data'],
		['envelope', 'envelope'],
		[undefined, 'envelope'],
		['DATA', 'envelope'],
		[1, 'envelope'],
	])('normaliseOptions(outputShape %p) → %p, no note', (given, shape) => {
		expect(normaliseOptions({ outputShape: given })).toMatchObject({
			outputShape: shape,
			notes: [],
		});
	});
});
