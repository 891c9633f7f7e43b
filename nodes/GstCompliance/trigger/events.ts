/**
 * The service's webhook event types (docs/service-api.md, "Event types"). The service adds types
 * over time; only subscriptions that list a new type receive it, and only the "All Events"
 * selection passes it here.
 */

import type { GstResource } from '../resources';
import { RESOURCES } from '../resources';

export const ALL_EVENTS = '*';

export const EVENT_TYPES = [
	{
		value: 'einvoice.generated',
		name: 'E-Invoice Generated',
		description: 'Occurs when an e-invoice is generated and gets its IRN',
	},
	{
		value: 'einvoice.cancelled',
		name: 'E-Invoice Cancelled',
		description: 'Occurs when an e-invoice is cancelled',
	},
	{
		value: 'einvoice.failed',
		name: 'E-Invoice Failed',
		description: 'Occurs when an e-invoice fails for good (its final status)',
	},
	{
		value: 'ewaybill.generated',
		name: 'E-Way Bill Generated',
		description: 'Occurs when an e-way bill is generated',
	},
	{
		value: 'ewaybill.cancelled',
		name: 'E-Way Bill Cancelled',
		description: 'Occurs when an e-way bill is cancelled',
	},
	{
		value: 'ewaybill.expired',
		name: 'E-Way Bill Expired',
		description: 'Occurs when an e-way bill expires',
	},
	{
		value: 'ewaybill.rejected',
		name: 'E-Way Bill Rejected',
		description: 'Occurs when an e-way bill of a counter-party is rejected',
	},
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['value'];

/** True when the node's selection lets an event of `type` start the workflow. */
export function isEventSelected(selection: readonly string[], type: string): boolean {
	return selection.includes(ALL_EVENTS) || selection.includes(type);
}

/** The resource an event type is about (`einvoice.failed` → einvoice); undefined if unknown. */
export function eventResource(type: string): GstResource | undefined {
	return (Object.keys(RESOURCES) as GstResource[]).find((name) => type.startsWith(`${name}.`));
}
