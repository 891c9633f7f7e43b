import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ALL_EVENTS, EVENT_TYPES } from './events';
import { START_WITHIN_MINUTES, TOLERANCE_SECONDS, WINDOW_HOURS } from './options';

/**
 * What the editor's trigger panel (the left side of the node's window) says. Subscriptions are made
 * in the service's Developer hub only (docs/service-api.md, "Subscriptions"), so the panel says
 * where, which of the node's two URLs to paste there, and where the signing secret goes. The
 * panel renders these strings as HTML; `data-key="executions"` is n8n's link to the executions
 * list. Once published, the panel and the activation message also say when a Redis credential is
 * needed: with several n8n processes receiving webhooks, only a shared store keeps one start per
 * event (docs/deployments.md).
 */
const SEVERAL_PROCESSES =
	'<b>Several n8n processes</b> (queue mode, where executions start on workers, or multi-main)? Attach a <b>GST Compliance Dedupe Redis</b> credential to this node, so every process shares one record of the events already started (in queue mode it is required: without it, the workers refuse the executions and say so); without it, each process remembers event IDs on its own (right for one process, up to about 10,000 events a day; beyond that each event gets slower, and the items it starts say so in dedupeNotice). The same credential is needed if <b>another node of this workflow writes workflow static data</b> (a Code node with $getWorkflowStaticData): n8n then saves its older copy over the event IDs this node remembers, and after a restart a redelivered event can start again.';
const CONCURRENCY_LIMIT =
	'<b>A production concurrency limit</b> (N8N_CONCURRENCY_PRODUCTION_LIMIT, or your n8n Cloud plan): this node answers the service as soon as a delivery is verified (202), before n8n runs the execution, so a burst never makes the service fail deliveries; each event still does its work once. On <b>n8n 2.0 to 2.33</b>, which never run queued executions again after a restart, it answers only once n8n has created the execution, so deliveries that wait longer than the service allows count as failed there (50 in a row deactivate the subscription): update n8n to 2.34 or later, or keep the limit above the bursts the service sends.';

export const triggerPanel: INodeTypeDescription['triggerPanel'] = {
	header: "Deliveries come from a subscription in the service's Developer hub",
	executionsHelp: {
		inactive:
			"This node has two URLs, under <b>Webhook URLs</b> at the top of its parameters. <br /><br /><b>While you build the workflow</b>, use the <b>Test URL</b>: in the Developer hub, create a subscription (sandbox client) with the Test URL and the same events as this node, and paste its signing secret into the <b>GST Compliance Webhook</b> credential. Click <b>Execute step</b> to listen, then make the service send an event (for example, replay a delivery in the hub): it shows up here. No subscription yet? <b>examples/send-test-event.sh</b> in the package's repository sends a signed sample event to the Test URL. <br /><br /><b>To run the workflow automatically</b>, publish it (on n8n 1.x: activate it) and subscribe the <b>Production URL</b> instead, with that subscription's signing secret in the credential. Those executions show up in the executions list, not in the editor.",
		active: `The workflow is published (active): subscriptions in the Developer hub that use this node's <b>Production URL</b> (under <b>Webhook URLs</b> at the top of its parameters) start it, and the runs show up in the <a data-key="executions">executions list</a>, not in the editor. <br /><br />To see a delivery here, subscribe the <b>Test URL</b> in the hub, click <b>Execute step</b> to listen and make the service send an event (for example, replay a delivery in the hub). Each subscription's signing secret goes into the <b>GST Compliance Webhook</b> credential. <br /><br />${SEVERAL_PROCESSES} <br /><br />${CONCURRENCY_LIMIT}`,
	},
	activationHint: {
		inactive:
			"Subscribe the <b>Test URL</b> (under Webhook URLs) in the service's Developer hub and put the subscription's signing secret into the credential; once the workflow is published (on n8n 1.x: active), subscribe the <b>Production URL</b> instead.",
		active:
			"The workflow is published (active): the subscription in the service's Developer hub needs the <b>Production URL</b> (under Webhook URLs), and its signing secret in the credential.",
	},
};

/** Shown when the workflow is published (n8n's activation dialog). */
export const activationMessage =
	"Your workflow now runs on every verified delivery to its Production URL. Subscribe that URL in the service's Developer hub, with the same events, and keep the subscription's signing secret in the GST Compliance Webhook credential. If several n8n processes run this workflow (queue mode, where executions start on workers and refuse to run without it, or multi-main), or if another node of this workflow writes workflow static data, attach a GST Compliance Dedupe Redis credential to the trigger.";

/** Shown on the canvas node while the editor listens for a test event. */
export const eventTriggerDescription =
	'Waiting for a delivery to the Test URL from a subscription in the Developer hub';

/** The trigger's parameters; the node file holds the rest of its description. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		description:
			'Event types that start the workflow; other verified deliveries are acknowledged and dropped',
		options: [
			{
				name: 'All Events',
				value: ALL_EVENTS,
				description: 'Every event type, including types the service adds later',
			},
			...EVENT_TYPES.map(({ name, value, description }) => ({ name, value, description })),
		],
	},
	{
		displayName: 'Refetch Latest State',
		name: 'refetch',
		type: 'boolean',
		default: false,
		description:
			'Whether to GET the resource through the GST Compliance API credential and add it as "refetched": deliveries can arrive out of order',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Acknowledge',
				name: 'acknowledge',
				type: 'options',
				default: 'auto',
				description: 'When the service gets its 2xx',
				options: [
					{
						name: 'Automatic',
						value: 'auto',
						description:
							'At once, except on n8n 2.0 to 2.33 (queued executions are lost at a restart there)',
					},
					{
						name: 'At Once',
						value: 'atOnce',
						description:
							'202 as soon as the delivery is verified, whatever the concurrency queue holds',
					},
					{
						name: 'Once the Execution Exists',
						value: 'afterExecutionCreated',
						description:
							'200 once n8n has created the execution (on n8n 2.x, after a concurrency slot is free)',
					},
				],
			},
			{
				displayName: 'Dedupe Window (Hours)',
				name: 'dedupeWindowHours',
				type: 'number',
				typeOptions: { minValue: WINDOW_HOURS.min, maxValue: WINDOW_HOURS.max },
				default: 24, // WINDOW_HOURS.default: n8n's lint wants the literal
				description:
					'How long an event ID is remembered so a redelivery starts nothing; the timestamp tolerance is added. The service retries for 24 hours.',
			},
			{
				displayName: 'Output Shape',
				name: 'outputShape',
				type: 'options',
				default: 'envelope',
				options: [
					{
						name: 'Full Envelope',
						value: 'envelope',
						description: 'ID, type, createdAt and data',
					},
					{ name: 'Data Only', value: 'data', description: 'The resource in the event' },
				],
			},
			{
				displayName: 'Start Deadline (Minutes)',
				name: 'startWithinMinutes',
				type: 'number',
				typeOptions: { minValue: START_WITHIN_MINUTES.min, maxValue: START_WITHIN_MINUTES.max },
				default: 30, // START_WITHIN_MINUTES.default
				description:
					"An accepted event whose execution has not started after this long is named in n8n's log and on the next item, to replay from the Developer hub. Keep it above the longest wait for a concurrency slot.",
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: TOLERANCE_SECONDS.min, maxValue: TOLERANCE_SECONDS.max },
				default: 300, // TOLERANCE_SECONDS.default
				description:
					'Deliveries signed further than this from the current time are rejected (replay protection)',
			},
		],
	},
];
