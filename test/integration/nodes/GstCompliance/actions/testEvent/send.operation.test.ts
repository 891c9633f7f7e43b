/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- fixed secrets of the tests, not credentials; test code: runs in Node under jest, never inside n8n */
/**
 * Test Event → Send run by n8n-core (its ExecuteContext, its credentials access, its request
 * helper over real HTTP) against a GST Compliance Trigger listening on a Test URL the way n8n
 * 2.41 serves one: the URL answers one delivery, handed to the trigger's webhook() and its first
 * step (helpers/deliverToTrigger.ts), then 404 as n8n does once the listening ends. The action
 * node holds the trigger's own credential and nothing else.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import {
	deliver,
	newWorkflow,
	SECRET,
	type DeliveryRequest,
	type DeliveryResult,
} from '@/test/integration/helpers/deliverToTrigger';
import { executeContext } from '@/test/integration/helpers/executeNode';

const node = new GstCompliance();
const WEBHOOK = { signingSecret: SECRET, previousSigningSecret: '' };

/** What the listening trigger is set to, and what its one delivery gave. */
interface Listening {
	trigger: Partial<DeliveryRequest>;
	result?: DeliveryResult;
}

let server: Server;
let baseUrl: string;
let listening: Listening | undefined;
let workflows = 0;

/** n8n's answer where no webhook is registered (webhook-request-handler in 2.41). */
const NOT_REGISTERED = {
	code: 404,
	message: 'The requested webhook "POST test-webhook/webhook" is not registered.',
	hint: "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)",
};

beforeAll(async () => {
	server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const session = listening;
			// A Test URL takes one call per listen: n8n unregisters it before running the webhook.
			listening = undefined;
			const answer = (status: number, body: unknown) => {
				response.writeHead(status, { 'content-type': 'application/json' });
				response.end(JSON.stringify(body));
			};
			if (!session || request.url !== '/webhook-test/test-webhook/webhook')
				return answer(404, NOT_REGISTERED);
			void deliver({
				execution: 'later',
				workflow: newWorkflow(`wf-send-${++workflows}`),
				...session.trigger,
				body: Buffer.concat(chunks),
				headers: request.headers as Record<string, string>,
				mode: 'manual',
			}).then(
				(result) => {
					session.result = result;
					answer(result.status, result.body);
				},
				(error: Error) => answer(500, { error: error.message }),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => await new Promise((resolve) => server.close(resolve)));

/** The trigger listens (Execute step), set to `trigger`. */
function listen(trigger: Partial<DeliveryRequest> = {}): Listening {
	listening = { trigger };
	return listening;
}

/** The action node set to Test Event → Send, run by n8n-core with `credentials`. */
async function send(
	parameters: IDataObject = {},
	credentials: Record<string, ICredentialDataDecryptedObject> = {
		gstComplianceWebhookApi: WEBHOOK,
	},
) {
	const { context, credentialsHelper } = executeContext({
		credentials,
		parameters: {
			resource: 'testEvent',
			operation: 'send',
			triggerUrl: `${baseUrl}/webhook-test/test-webhook/webhook`,
			eventType: 'einvoice.failed',
			options: {},
			...parameters,
		} as never,
	});
	const output = await node.execute.call(context).then(
		([items]) => items.map((item) => item.json),
		(error: Error & { description?: string; context?: IDataObject }) => error,
	);
	return { output, reads: credentialsHelper.readsByType };
}

describe('a first event through the Test URL, with the trigger’s own credential only', () => {
	it('Send while the trigger listens → 202; the trigger’s step starts the workflow with the sample event sent', async () => {
		const session = listen({ events: ['einvoice.failed'] });
		const { output, reads } = await send();
		expect(reads).toEqual({ gstComplianceWebhookApi: 1 });
		const [item] = output as IDataObject[];
		expect(item).toMatchObject({ statusCode: 202, body: { received: true } });
		const event = item.event as IDataObject;
		expect(event).toMatchObject({
			id: expect.stringMatching(/^evt_sample_/),
			type: 'einvoice.failed',
			data: { object: 'einvoice', status: 'failed_terminal' },
		});
		const run = await session.result!.execution!();
		expect(run.items).toEqual([expect.objectContaining({ id: event.id, type: event.type })]);
	});

	it.each(['ewaybill.expired', 'einvoice.generated'])(
		'Send of %s to a trigger on All Events → started with that type',
		async (eventType) => {
			const session = listen({ events: ['*'] });
			const { output } = await send({ eventType });
			expect((output as IDataObject[])[0].statusCode).toBe(202);
			const run = await session.result!.execution!();
			expect(run.items[0]).toMatchObject({ type: eventType });
		},
	);

	it('Send twice in one listen → the second: "Nothing listens at this Test URL", to click Execute step first', async () => {
		listen();
		await send();
		const { output } = await send();
		expect(output).toMatchObject({
			message: 'Nothing listens at this Test URL.',
			description: expect.stringMatching(/^Open the GST Compliance Trigger, click Execute step/),
			context: { gstCode: 'TRIGGER_NOT_LISTENING', httpStatus: 404 },
		});
	});
});

describe('what the trigger refused, said on both sides', () => {
	it('a trigger holding another secret → the Send fails 401 naming the credential; the trigger’s step says the signature does not match', async () => {
		const session = listen({
			credentials: { signingSecret: 'whsec_another_0123456789abcdefghij' },
		});
		const { output } = await send();
		expect(output).toMatchObject({
			message: "The trigger refused the event's signature (401).",
			context: { gstCode: 'TRIGGER_REFUSED', httpStatus: 401 },
		});
		await expect(session.result!.execution!()).rejects.toThrow(
			"The delivery's signature does not match the Signing Secret",
		);
	});

	it('a trigger whose Events leave the type out → the Send fails EVENT_NOT_STARTED naming the event', async () => {
		const session = listen({ events: ['einvoice.generated'] });
		const { output } = await send({ eventType: 'ewaybill.rejected' });
		expect(output).toMatchObject({
			message:
				"The trigger took the event but starts nothing for E-Way Bill Rejected: it is not in the trigger's Events.",
			context: { gstCode: 'EVENT_NOT_STARTED', httpStatus: 200 },
		});
		await expect(session.result!.execution!()).rejects.toThrow('is not selected in Events');
	});
});

describe('the credentials n8n gives Test Event → Send', () => {
	it('only the API credential selected → n8n-core refuses: the Webhook Signing Secret is not set', async () => {
		const { output, reads } = await send(
			{},
			{ gstComplianceApi: { clientId: 'svc_test_1', clientSecret: 'x' } },
		);
		expect(output).toMatchObject({
			message: 'Node does not have any credentials set for "gstComplianceWebhookApi"',
		});
		expect(reads).toEqual({});
	});
});
