/**
 * What a delivery to the Test URL shows the user listening in the editor. n8n keeps listening, and
 * shows nothing, after a test delivery that starts no execution; so a Test-URL delivery that does
 * no work (refused, or an event type not selected) still starts one, carrying why, and the
 * execution's first step (execution.ts) fails with it: the editor shows what happened and what to
 * fix. The service gets the same answer as from the Production URL, whose refusals start nothing.
 */
import type { IDataObject } from 'n8n-workflow';

/** The field of the webhook's item that carries why a Test-URL delivery does no work. */
const SHOWN_FIELD = 'gstComplianceTestDelivery';

/** What the listening user reads: what happened (the title), and what to do (the description). */
export interface Shown {
	title: string;
	description: string;
}

/** The webhook's item for a Test-URL delivery that does no work. */
export function shownItem(shown: Shown): IDataObject {
	return { [SHOWN_FIELD]: { title: shown.title, description: shown.description } };
}

/** Why a Test-URL delivery did no work, from its item; undefined for any other item. */
export function readShown(item: IDataObject): Shown | undefined {
	const shown = item[SHOWN_FIELD] as Partial<Shown> | undefined;
	if (typeof shown?.title !== 'string' || typeof shown.description !== 'string') return undefined;
	return { title: shown.title, description: shown.description };
}
