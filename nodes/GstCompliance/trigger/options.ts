/**
 * The trigger's options as the webhook uses them: whole milliseconds inside the documented ranges,
 * whatever their source. The editor enforces the ranges, but an expression or a workflow saved
 * through the REST API does not, and a decimal (4.1 hours) is not a whole number of milliseconds
 * that Redis accepts. A value that had to be changed is reported in `notes`, which the webhook
 * logs once.
 */
import type { AcknowledgeOption } from './acknowledgement';
import type { OutputShape } from './output';

export const WINDOW_HOURS = { default: 24, min: 1, max: 720 } as const;
/** docs/service-api.md: deliveries further than 5 minutes from now are replays. */
export const TOLERANCE_SECONDS = { default: 300, min: 1, max: 3600 } as const;
/**
 * How long an accepted event may wait for its execution to start before it is said overdue; it
 * must exceed the longest wait behind n8n's concurrency limit.
 */
export const START_WITHIN_MINUTES = { default: 30, min: 1, max: 1440 } as const;

export interface RawTriggerOptions {
	toleranceSeconds?: unknown;
	dedupeWindowHours?: unknown;
	outputShape?: unknown;
	acknowledge?: unknown;
	startWithinMinutes?: unknown;
}

export interface TriggerOptions {
	toleranceMs: number;
	/** How long an id is remembered: the window plus the tolerance (a replay's reach). */
	dedupeWindowMs: number;
	outputShape: OutputShape;
	acknowledge: AcknowledgeOption;
	/** An accepted event not started after this long is overdue (lifecycle.ts). */
	startWithinMs: number;
	/** What was changed to fit, one sentence each, naming the option and the value used. */
	notes: string[];
}

export function normaliseOptions(raw: RawTriggerOptions): TriggerOptions {
	const notes: string[] = [];
	const toleranceSeconds = inRange(
		'Timestamp Tolerance (Seconds)',
		raw.toleranceSeconds,
		TOLERANCE_SECONDS,
		notes,
	);
	const windowHours = inRange('Dedupe Window (Hours)', raw.dedupeWindowHours, WINDOW_HOURS, notes);
	const startWithinMinutes = inRange(
		'Missed Event Warning (Minutes)',
		raw.startWithinMinutes,
		START_WITHIN_MINUTES,
		notes,
	);
	const toleranceMs = Math.round(toleranceSeconds * 1000);
	const acknowledge =
		raw.acknowledge === 'atOnce' || raw.acknowledge === 'afterExecutionCreated'
			? raw.acknowledge
			: 'auto';
	return {
		toleranceMs,
		dedupeWindowMs: Math.round(windowHours * 3_600_000) + toleranceMs,
		outputShape: raw.outputShape === 'data' ? 'data' : 'envelope',
		acknowledge,
		startWithinMs: Math.round(startWithinMinutes * 60_000),
		notes,
	};
}

function inRange(
	name: string,
	value: unknown,
	range: { default: number; min: number; max: number },
	notes: string[],
): number {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (value === undefined || value === null || text === '') return range.default;
	// Decimal notation only: "0x10" or "1e3" in a field of hours is a mistake, not a number.
	const read = text === undefined ? value : /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
	if (!Number.isFinite(read)) {
		const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
		notes.push(`${name} ${shown} is not a number; ${range.default} is used`);
		return range.default;
	}
	const number = read as number;
	const used = Math.min(range.max, Math.max(range.min, number));
	if (used !== number)
		notes.push(`${name} ${number} is outside ${range.min}–${range.max}; ${used} is used`);
	return used;
}
