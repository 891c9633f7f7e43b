/** The trigger's side of the n8n behaviours it depends on (the e2e n8nCompat spec pins n8n's side). */
import { GstComplianceTrigger } from '../../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import {
	answerOnceExecutionExists,
	TRIGGER_WEBHOOK,
} from '../../../../nodes/GstComplianceTrigger/n8nCompat';

describe('answerOnceExecutionExists', () => {
	it('starts the workflow with the item; the callback runs, and the 200 is built, when n8n reads the answer', () => {
		const onExecutionCreated = jest.fn();
		const item = { id: 'evt_1', type: 'einvoice.generated' };
		const response = answerOnceExecutionExists(item, onExecutionCreated);
		expect(response.workflowData).toEqual([[{ json: item }]]);
		expect(onExecutionCreated).not.toHaveBeenCalled();
		expect(response.webhookResponse).toEqual({ received: true });
		expect(onExecutionCreated).toHaveBeenCalledTimes(1);
	});
});

describe('the trigger webhook', () => {
	it('is the one webhook of the node: POST, answered onReceived with responseData "" (so n8n reads webhookResponse)', () => {
		expect(new GstComplianceTrigger().description.webhooks).toEqual([TRIGGER_WEBHOOK]);
		expect(TRIGGER_WEBHOOK).toMatchObject({
			httpMethod: 'POST',
			responseMode: 'onReceived',
			responseData: '',
		});
	});
});
