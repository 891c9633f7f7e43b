/**
 * The dedupe state must reach n8n's database after every accepted event. n8n 2.41 (live webhooks)
 * wraps the workflow's static data in an ObservableObject, runs webhook(), creates the execution
 * from a second Workflow over the *same* static-data object (which resets the "changed" flag),
 * reads `webhookResponse`, and only then saves static data if the flag is set. This replays that
 * sequence with n8n-workflow's real ObservableObject, so it fails if the write is lost.
 */
// @ts-nocheck

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import { GstComplianceTrigger } from '../../../nodes/GstComplianceTrigger/GstComplianceTrigger.node';
import { envelope, NOW_MS, SECRET, signed } from './fakeWebhook';

type Observable = IDataObject & { __dataChanged: boolean };

const node = new GstComplianceTrigger();
const NODE_KEY = 'node:GST Compliance Trigger';

/** The workflow row's staticData column. */
let database: string | null = null;

/** One production delivery the way live-webhooks.js handles it, including its save. */
async function deliverLikeN8n(eventId: string): Promise<void> {
	const databaseRow = database === null ? null : (JSON.parse(database) as IDataObject);
	// new Workflow({ staticData: row.staticData }) for the webhook phase (null → a new {})
	const liveTarget = databaseRow ?? {};
	const live = ObservableObject.create(liveTarget, undefined, {
		ignoreEmptyOnFirstChild: true,
	}) as Observable;
	const request = signed(JSON.stringify(envelope({ id: eventId })));
	const context = {
		getNodeParameter: (name: string, fallback?: unknown) =>
			({ events: ['*'], options: {}, refetch: false })[name] ?? fallback,
		getCredentials: async () => ({ signingSecret: SECRET, previousSigningSecret: '' }),
		getRequestObject: () => ({ rawBody: Buffer.from(request.body), headers: request.headers }),
		getResponseObject: () => ({ status: () => ({ json: () => undefined }) }),
		getHeaderData: () => request.headers,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: 'wf-static-data', active: true }),
		getNode: () => ({ id: 'trigger-node', name: 'GST Compliance Trigger' }),
		getWorkflowStaticData: () => {
			// Workflow.getStaticData('node')
			if (live[NODE_KEY] === undefined) live[NODE_KEY] = ObservableObject.create({}, live);
			return live[NODE_KEY] as IDataObject;
		},
		logger: { debug() {}, info() {}, warn() {}, error() {} },
		helpers: {},
	} as unknown as IWebhookFunctions;

	const result: IWebhookResponseData = await node.webhook.call(context);
	expect(result.workflowData).toBeDefined();
	// WorkflowRunner.run(): the execution's Workflow wraps the row's (same, shallow-copied) object
	ObservableObject.create(databaseRow ?? {}, undefined, { ignoreEmptyOnFirstChild: true });
	// extractWebhookOnReceivedResponse(), then the response callback's saveStaticData()
	expect(result.webhookResponse).toEqual({ received: true });
	if (live.__dataChanged === true) database = JSON.stringify(liveTarget);
}

describe('dedupe state and n8n 2.41 static-data saving', () => {
	beforeAll(() => jest.spyOn(Date, 'now').mockReturnValue(NOW_MS));
	afterAll(() => jest.restoreAllMocks());

	it('lets n8n read webhookResponse (with responseData undefined it answers "firstEntryJson" and never reads it)', () => {
		expect(node.description.webhooks?.[0]).toMatchObject({
			responseMode: 'onReceived',
			responseData: '',
		});
	});

	it('every accepted event id reaches the database, not only the first', async () => {
		for (const id of ['evt_static_1', 'evt_static_2', 'evt_static_3']) await deliverLikeN8n(id);
		const saved = JSON.parse(database ?? '{}') as Record<string, { dedupe?: { d: string } }>;
		// 14 characters per record: one per event
		expect(saved[NODE_KEY]?.dedupe?.d.length).toBe(3 * 14);
	});
});
