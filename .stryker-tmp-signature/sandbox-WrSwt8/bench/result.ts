/**
 * One line of the benchmark table. Every run measures `ours` and, where there is one, its
 * comparison side by side; the ratio is taken per run, then summarized, so machine noise between
 * runs does not leak into the ratio.
 */
// @ts-nocheck

import { summarize, type Summary } from './stats';

export interface Row {
	item: string;
	what: string;
	unit: string;
	ours: number[];
	/** The comparison measured in the same runs (a baseline), or absent when the goal is absolute. */
	baseline?: { label: string; values: number[] };
	/** ours / baseline per run (or the figure itself for an absolute goal). */
	ratio: number[];
	goal: string;
	/** Absent for informative rows, which have no goal of their own. */
	met?: (ratio: Summary) => boolean;
	note?: string;
}

export interface Section {
	title: string;
	rows: Row[];
	/** Why a section was not run, or what went wrong. */
	skipped?: string;
}

export function ratios(ours: readonly number[], baseline: readonly number[]): number[] {
	return ours.map((value, run) => value / baseline[run]);
}

export function verdict(row: Row): 'met' | 'MISSED' | '—' {
	if (!row.met) return '—';
	return row.met(summarize(row.ratio)) ? 'met' : 'MISSED';
}
