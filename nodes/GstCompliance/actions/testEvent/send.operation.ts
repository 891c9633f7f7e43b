/**
 * Test Event → Send: a signed sample event, as the service delivers one, POSTed to a GST
 * Compliance Trigger's Test URL (or Production URL), signed with the trigger's own credential, the
 * Webhook Signing Secret: a first event without a subscription, a second credential or leaving
 * n8n. One event per input item, one after another (a Test URL takes one event per listen).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL } from '../../credentialNames';
import { errorSummary, gstError } from '../../errors/apiError';
import { describeNetworkFailure, isNetworkFailure } from '../../http/networkError';
import { checkResourceId } from '../../resources';
import { settings } from '../../settings';
import { EVENT_TYPES, eventResource } from '../../trigger/events';
import { usableSigningSecrets } from '../../trigger/secretCheck';
import { unusableSecretRemedy, unusableSecretTitle } from '../../trigger/refusals';
import { isEventType, sampleEnvelope, signedDelivery, type SignedDelivery } from './sampleEvent';
import { judgeAnswer, readTriggerUrl } from './triggerAnswer';

const show = { resource: ['testEvent'], operation: ['send'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['testEvent'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				action: 'Send test event to trigger',
				description:
					"Send a sample event, signed as the service signs deliveries, to a GST Compliance Trigger's Test URL while it listens",
			},
		],
		default: 'send',
	},
	{
		displayName: 'Trigger URL',
		name: 'triggerUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook-test/1a2b3c4d-…/webhook',
		description:
			"The GST Compliance Trigger's Test URL (Webhook URLs, at the top of its parameters), or its Production URL once the workflow is published",
		hint: 'On the trigger, click Execute step first: n8n listens on the Test URL for 2 minutes, for one event',
		displayOptions: { show },
	},
	{
		displayName: 'Event',
		name: 'eventType',
		type: 'options',
		default: 'einvoice.failed',
		options: EVENT_TYPES.map(({ name, value, description }) => ({ name, value, description })),
		description: 'The type of the sample event, one of those the trigger can start on',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Resource ID',
				name: 'resourceId',
				type: 'string',
				default: '',
				placeholder: 'e.g. einv_…',
				description:
					"The ID of one of your e-invoices or e-way bills for the event's data, so a trigger with Refetch Latest State finds it. Empty: a made-up ID starting with einv_sample_ or ewb_sample_.",
			},
		],
	},
];

/** The Signing Secret the trigger verifies with, under the trigger's own rules. */
async function signingSecret(context: IExecuteFunctions): Promise<string> {
	const data = await context.getCredentials(CREDENTIAL.webhook);
	const usable = usableSigningSecrets(data);
	if (usable.unusable !== undefined)
		throw gstError(context.getNode(), {
			code: 'CREDENTIAL_CONFIG',
			message: `${unusableSecretTitle}. ${unusableSecretRemedy(usable.unusable)}.`,
		});
	return usable.secrets[0];
}

/** Posts the signed bytes as they are; any answer comes back, only no answer throws. */
async function post(
	context: IExecuteFunctions,
	url: URL,
	delivery: SignedDelivery,
	itemIndex: number,
): Promise<IN8nHttpFullResponse> {
	try {
		return (await context.helpers.httpRequest({
			method: 'POST',
			url: url.href,
			headers: delivery.headers,
			body: delivery.body,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: settings.apiRequestTimeoutMs,
			abortSignal: context.getExecutionCancelSignal?.(),
		})) as IN8nHttpFullResponse;
	} catch (error) {
		// Not a connection failure: n8n refused to send it (its SSRF protection, a proxy setting).
		const why = isNetworkFailure(error)
			? describeNetworkFailure(error)
			: `n8n did not send it (${error instanceof Error ? error.message : String(error)})`;
		throw gstError(context.getNode(), {
			code: 'TRIGGER_UNREACHABLE',
			message: `${url.host} could not be reached: ${why}. Check the Trigger URL; this n8n must reach it (for a trigger on this n8n, its own address).`,
			itemIndex,
		});
	}
}

async function sendOne(
	context: IExecuteFunctions,
	secret: string,
	itemIndex: number,
): Promise<IDataObject> {
	const node = context.getNode();
	const read = readTriggerUrl(context.getNodeParameter('triggerUrl', itemIndex, ''));
	if ('message' in read)
		throw gstError(node, { code: 'INVALID_URL', message: read.message, itemIndex });
	const type = context.getNodeParameter('eventType', itemIndex, '') as unknown;
	if (!isEventType(type))
		throw gstError(node, {
			code: 'INVALID_EVENT_TYPE',
			message: `Event "${String(type)}" is not an event type of the service. Pick one in the list.`,
			itemIndex,
		});
	const options = context.getNodeParameter('options', itemIndex, {}) as { resourceId?: unknown };
	let resourceId: string | undefined;
	if (options.resourceId !== undefined && options.resourceId !== '') {
		const check = checkResourceId(eventResource(type)!, options.resourceId);
		if (!check.ok) throw gstError(node, { code: 'INVALID_ID', message: check.message, itemIndex });
		resourceId = check.id;
	}

	const nowMs = settings.now();
	const event = sampleEnvelope({ type, nowMs, resourceId });
	const answer = await post(context, read.url, signedDelivery(event, secret, nowMs), itemIndex);
	const name = EVENT_TYPES.find((known) => known.value === type)!.name;
	const verdict = judgeAnswer(read.url, answer.statusCode, answer.body, name);
	if (!verdict.taken)
		throw gstError(node, {
			code: verdict.code,
			message: verdict.message,
			httpStatus: answer.statusCode,
			itemIndex,
		});
	return { statusCode: answer.statusCode, body: answer.body as IDataObject, event } as IDataObject;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	if (items.length === 0) return [];
	// One credential read per execution, not one per item.
	const secret = await signingSecret(this);
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		// Every failure of sendOne is already n8n's error, with its item index.
		const sent = await sendOne(this, secret, itemIndex).then(
			(json) => ({ json }),
			(error: unknown) => ({ error }),
		);
		if ('json' in sent) {
			output.push({ json: sent.json, pairedItem: { item: itemIndex } });
			continue;
		}
		if (!this.continueOnFail()) throw sent.error;
		// The Get operations' shape: the message as text, to map into an alert.
		const { message, code, httpStatus } = errorSummary(sent.error);
		output.push({ json: { error: message, code, httpStatus }, pairedItem: { item: itemIndex } });
	}
	return output;
}
