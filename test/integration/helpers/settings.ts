/**
 * Swaps the transport's process-wide knobs (nodes/GstCompliance/settings.ts) for a test and puts the shipped
 * values back. The shipped values are copied when this module loads, before any test has changed
 * them (jest loads modules afresh for each test file).
 */
import { settings, type GstSettings } from '../../../nodes/GstCompliance/settings';

const shipped: GstSettings = { ...settings };

/** Overrides some knobs; returns a function that restores the previous values. */
export function configureSettings(overrides: Partial<GstSettings>): () => void {
	const previous = { ...settings };
	Object.assign(settings, overrides);
	return () => {
		Object.assign(settings, previous);
	};
}

/** Puts every knob back to its shipped value. */
export function resetSettings(): void {
	Object.assign(settings, shipped);
}
