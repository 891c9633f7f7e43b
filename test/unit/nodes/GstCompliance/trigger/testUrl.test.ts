/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * What a Test-URL delivery that does no work carries to its execution (trigger/testUrl.ts): the
 * title and description the listening editor shows.
 */
import { readShown, shownItem } from '@/nodes/GstCompliance/trigger/testUrl';

describe('carrying why a Test-URL delivery does no work', () => {
	it('shownItem → readShown gives the title and the description as written, nothing about the sender', () => {
		const item = shownItem({ title: 'Refused', description: 'Check the secret.' });
		expect(readShown(item)).toEqual({ title: 'Refused', description: 'Check the secret.' });
	});

	it('readShown of any other item (an event, a pinned sample, a half-written one) → undefined', () => {
		expect(readShown({ id: 'evt_1', type: 'einvoice.generated' })).toBeUndefined();
		expect(readShown({ gstComplianceTestDelivery: { title: 'only a title' } })).toBeUndefined();
		expect(readShown({ gstComplianceTestDelivery: 'text' })).toBeUndefined();
	});
});
