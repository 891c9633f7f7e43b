/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials; imports the package through the @/ alias */
/**
 * Test Event → Send on its own: the parameters it adds (shown for Test Event only), and what
 * `execute` does with a faked n8n context: reads the Webhook Signing Secret once, POSTs each item's
 * sample event to the Trigger URL with n8n's request helper, the bytes and header the trigger
 * verifies, and gives the trigger's answer with the event; what it refuses before sending, and
 * each answer that fails the item. n8n-core and a real trigger run it in
 * test/integration/nodes/GstCompliance/actions/testEvent/send.operation.test.ts.
 */
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { description, execute } from '@/nodes/GstCompliance/actions/testEvent/send.operation';
import { judgeDelivery } from '@/nodes/GstCompliance/trigger/delivery';
import { EVENT_TYPES } from '@/nodes/GstCompliance/trigger/events';
import { unusableSecretRemedy } from '@/nodes/GstCompliance/trigger/refusals';
import { NODE } from '@/test/unit/helpers/operationContext';

const SECRET = 'whsec_send_0123456789abcdefghij';
const URL_TEST = 'https://n8n.example.com/webhook-test/abc/webhook';

interface Run {
	parameters?: Record<string, unknown>;
	items?: number;
	credential?: Record<string, unknown>;
	answer?: (request: IHttpRequestOptions) => { statusCode: number; body: unknown } | Error;
	continueOnFail?: boolean;
}

/** The operation run with a faked context; every request and credential read recorded. */
async function run(options: Run = {}) {
	const parameters: Record<string, unknown> = {
		triggerUrl: URL_TEST,
		eventType: 'einvoice.failed',
		options: {},
		...options.parameters,
	};
	const requests: IHttpRequestOptions[] = [];
	const credentialReads: string[] = [];
	const context = {
		getInputData: (): INodeExecutionData[] =>
			Array.from({ length: options.items ?? 1 }, () => ({ json: {} })),
		continueOnFail: () => options.continueOnFail ?? false,
		getNode: () => NODE,
		getCredentials: async (type: string) => {
			credentialReads.push(type);
			return options.credential ?? { signingSecret: SECRET, previousSigningSecret: '' };
		},
		getNodeParameter: (name: string, _itemIndex: number, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
		helpers: {
			httpRequest: async (request: IHttpRequestOptions) => {
				requests.push(request);
				const answer = (options.answer ?? (() => ({ statusCode: 202, body: { received: true } })))(
					request,
				);
				if (answer instanceof Error) throw answer;
				return { ...answer, headers: {}, statusMessage: '' };
			},
		},
	} as unknown as IExecuteFunctions;
	const output = await execute.call(context).catch((error: unknown) => error);
	return { output, requests, credentialReads };
}

const byName = (name: string) => description.find((property) => property.name === name)!;

describe('the parameters Test Event → Send adds', () => {
	it('description → Operation, Trigger URL, Event and Options, each shown for Test Event only', () => {
		expect(description.map((p) => [p.name, p.type, p.displayOptions?.show?.resource])).toEqual([
			['operation', 'options', ['testEvent']],
			['triggerUrl', 'string', ['testEvent']],
			['eventType', 'options', ['testEvent']],
			['options', 'collection', ['testEvent']],
		]);
	});

	it('Operation → one option "Send", the default, no expression, with its action for the node panel', () => {
		expect(byName('operation')).toMatchObject({
			noDataExpression: true,
			default: 'send',
			options: [{ name: 'Send', value: 'send', action: 'Send test event to trigger' }],
		});
	});

	it('Event → the trigger’s event types, in its order; e-invoice failed by default', () => {
		const values = (byName('eventType').options as INodePropertyOptions[]).map((o) => o.value);
		expect(values).toEqual(EVENT_TYPES.map((event) => event.value));
		expect(byName('eventType').default).toBe('einvoice.failed');
	});

	it('Trigger URL → required, an "e.g." placeholder, a hint to listen first', () => {
		expect(byName('triggerUrl')).toMatchObject({
			required: true,
			default: '',
			placeholder: expect.stringMatching(/^e\.g\. https:\/\/.*\/webhook-test\//),
			hint: expect.stringMatching(/Execute step.*2 minutes/),
		});
	});

	it('no parameter text speaks HTTP; Options offers "Add option", as n8n\'s own nodes do', () => {
		const texts = (properties: readonly object[]): string[] =>
			properties.flatMap((property) => [
				...Object.entries(property)
					.filter(([key, value]) => key !== 'name' && key !== 'value' && typeof value === 'string')
					.map(([, value]) => value as string),
				...texts(((property as { options?: object[] }).options ?? []) as object[]),
			]);
		const shown = texts(description);
		expect(shown.length).toBeGreaterThan(15);
		expect(
			shown.filter((text) =>
				/\bGET\b|\bPOST\b|\b\dxx\b|(?<![.\d])[1-5]\d\d(?![.\d])|\bHTTP\b|endpoint/.test(text),
			),
		).toEqual([]);
		expect(byName('options').placeholder).toBe('Add option');
	});
});

describe('sending the sample event', () => {
	it('execute() → one POST to the Trigger URL of the exact bytes signed; the trigger’s own verdict on them is "verified"', async () => {
		const { requests } = await run();
		expect(requests).toHaveLength(1);
		const [request] = requests;
		expect(request).toMatchObject({
			method: 'POST',
			url: URL_TEST,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
		const body = request.body as Buffer;
		expect(Buffer.isBuffer(body)).toBe(true);
		const headers = request.headers as Record<string, string>;
		const verdict = judgeDelivery({
			body,
			signatureHeader: headers['service-signature'],
			secrets: [SECRET],
			nowMs: Date.now(),
			toleranceMs: 300_000,
			selectedEvents: ['einvoice.failed'],
		});
		expect(verdict).toMatchObject({ kind: 'verified', event: { type: 'einvoice.failed' } });
	});

	it('execute() taken → one item: the status, the trigger’s answer and the event sent, paired with its input', async () => {
		const { output, requests } = await run();
		const sent = JSON.parse((requests[0].body as Buffer).toString());
		expect(output).toEqual([
			{ json: { statusCode: 202, body: { received: true }, event: sent }, pairedItem: { item: 0 } },
		]);
		expect(sent.id).toMatch(/^evt_sample_/);
	});

	it('execute() over 3 items → 3 events, one after another, each its own; the credential read once', async () => {
		const { output, requests, credentialReads } = await run({
			items: 3,
			parameters: { eventType: 'ewaybill.expired' },
		});
		expect(credentialReads).toEqual(['gstComplianceWebhookApi']);
		const ids = requests.map((r) => JSON.parse((r.body as Buffer).toString()).id);
		expect(new Set(ids).size).toBe(3);
		expect((output as INodeExecutionData[]).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('execute() with a Resource ID → the event’s data.id is that ID, trimmed', async () => {
		const { requests } = await run({ parameters: { options: { resourceId: ' einv_real_7 ' } } });
		expect(JSON.parse((requests[0].body as Buffer).toString()).data.id).toBe('einv_real_7');
	});
});

describe('refused before anything is sent', () => {
	it.each([
		['a Trigger URL that is no web address', { triggerUrl: 'paste-the-url' }, 'INVALID_URL'],
		['an event type the service has not', { eventType: 'einvoice.deleted' }, 'INVALID_EVENT_TYPE'],
		[
			'a Resource ID that is no e-invoice ID',
			{ options: { resourceId: 'INV/2025/1' } },
			'INVALID_ID',
		],
	])('execute() with %s → NodeOperationError %s, nothing sent', async (_name, parameters, code) => {
		const { output, requests } = await run({ parameters });
		expect(output).toBeInstanceOf(NodeOperationError);
		expect((output as NodeOperationError).context.gstCode).toBe(code);
		expect(requests).toEqual([]);
	});

	it('execute() with a Signing Secret the trigger would not use → the trigger’s words for it, nothing sent', async () => {
		const { output, requests } = await run({ credential: { signingSecret: 'short' } });
		expect(output).toMatchObject({
			message: 'The Signing Secret cannot be used.',
			description: `${unusableSecretRemedy('Signing Secret is shorter than 16 characters: was it copied whole?')}.`,
		});
		expect(requests).toEqual([]);
	});
});

describe('an answer that fails the item', () => {
	it('execute() answered 404 at a Test URL → NodeApiError TRIGGER_NOT_LISTENING, 404, saying to listen first', async () => {
		const { output } = await run({ answer: () => ({ statusCode: 404, body: {} }) });
		expect(output).toBeInstanceOf(NodeApiError);
		expect(output).toMatchObject({
			message: 'Nothing listens at this Test URL.',
			description: expect.stringMatching(/^Open the GST Compliance Trigger, click Execute step/),
			context: { gstCode: 'TRIGGER_NOT_LISTENING', httpStatus: 404 },
		});
	});

	it('execute() with no answer (connection refused) → TRIGGER_UNREACHABLE naming the host in plain words', async () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		const { output } = await run({ answer: () => refused });
		expect(output).toMatchObject({
			message: 'n8n.example.com could not be reached: the connection was refused.',
			context: { gstCode: 'TRIGGER_UNREACHABLE' },
		});
	});

	it('execute() that n8n refuses to send (not a connection failure) → TRIGGER_UNREACHABLE with n8n’s reason', async () => {
		const blocked = new Error('IP 10.0.0.5 is blocked by SSRF protection');
		const { output } = await run({ answer: () => blocked });
		expect(output).toMatchObject({
			message:
				'n8n.example.com could not be reached: n8n did not send it (IP 10.0.0.5 is blocked by SSRF protection).',
			context: { gstCode: 'TRIGGER_UNREACHABLE' },
		});
	});

	it('execute() with On Error → Continue, item 2 of 3 refused → its error item in place, the others sent', async () => {
		let call = 0;
		const { output } = await run({
			items: 3,
			continueOnFail: true,
			answer: () =>
				++call === 2
					? { statusCode: 401, body: { error: 'Signature verification failed' } }
					: { statusCode: 202, body: { received: true } },
		});
		const items = output as INodeExecutionData[];
		expect(items.map((item) => item.json.statusCode ?? 'error')).toEqual([202, 'error', 202]);
		expect(items[1]).toEqual({
			json: {
				error: expect.stringMatching(/^The trigger refused the event's signature \(401\)\. /),
				code: 'TRIGGER_REFUSED',
				httpStatus: 401,
			},
			pairedItem: { item: 1 },
		});
	});

	it('execute() without On Error → Continue → the first refusal fails the run; later items are not sent', async () => {
		const { output, requests } = await run({
			items: 2,
			answer: () => ({ statusCode: 404, body: {} }),
		});
		expect(output).toBeInstanceOf(NodeApiError);
		expect(requests).toHaveLength(1);
	});
});
