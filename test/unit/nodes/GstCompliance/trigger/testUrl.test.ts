/**
 * What a Test-URL delivery that does no work carries to its execution (trigger/testUrl.ts): the
 * title and description the listening editor shows, with the answer the sender got.
 */
import { readShown, shownItem } from '../../../../../nodes/GstCompliance/trigger/testUrl';

describe('carrying why a Test-URL delivery does no work', () => {
	it('shownItem → readShown gives the title, and the description with the answer the sender got', () => {
		const item = shownItem({ title: 'Refused', description: 'Check the secret.' }, 401);
		expect(readShown(item)).toEqual({
			title: 'Refused',
			description:
				'Check the secret. The sender was answered 401, as the Production URL answers it.',
		});
	});

	it('readShown of any other item (an event, a pinned sample, a half-written one) → undefined', () => {
		expect(readShown({ id: 'evt_1', type: 'einvoice.generated' })).toBeUndefined();
		expect(readShown({ gstComplianceTestDelivery: { title: 'only a title' } })).toBeUndefined();
		expect(readShown({ gstComplianceTestDelivery: 'text' })).toBeUndefined();
	});
});
