import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ALL_EVENTS, EVENT_TYPES } from './events';
import { START_WITHIN_MINUTES, TOLERANCE_SECONDS, WINDOW_HOURS } from './options';

/**
 * What the editor's trigger panel (the left side of the node's window) says. Subscriptions are made
 * in the service's Developer hub only (docs/service-api.md, "Subscriptions"), so the panel says
 * where, which of the node's two URLs to paste there, and where the signing secret goes. The
 * panel renders these strings as HTML; `data-key="executions"` is n8n's link to the executions
 * list. What only operators need (several n8n processes, a production concurrency limit) is
 * behind a link to docs/deployments.md, not in front of every user.
 */
const DEPLOYMENT_GUIDE =
	'<a href="https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance/blob/main/docs/deployments.md" target="_blank">the deployment guide (docs/deployments.md)</a>';

export const triggerPanel: INodeTypeDescription['triggerPanel'] = {
	header: "Deliveries come from a subscription in the service's Developer hub",
	executionsHelp: {
		inactive:
			"This node has two URLs, under <b>Webhook URLs</b> at the top of its parameters. The service calls them over the internet: it cannot reach a URL that starts with http://localhost, 127.0.0.1 or a private address (10.…, 192.168.…), so use n8n's public address (WEBHOOK_URL) or a tunnel. <br /><br /><b>While you build the workflow</b>, use the <b>Test URL</b>: in the Developer hub, create a subscription (sandbox client) with the Test URL and the same events as this node, and paste its signing secret into the <b>Webhook Signing Secret</b> credential. Click <b>Execute step</b> to listen, then make the service send an event (for example, replay a delivery in the hub): it shows up here, and so does the reason when a delivery is refused. No subscription yet? In another workflow, a <b>GST Compliance</b> node set to <b>Test Event → Send</b> with the Test URL and this credential sends a signed sample event: execute it within 2 minutes of <b>Execute step</b> (template: <b>examples/send-test-event.json</b> in the package's repository). <br /><br /><b>To run the workflow automatically</b>, publish it (on n8n 1.x: activate it) and subscribe the <b>Production URL</b> instead: that is a second subscription, with its own signing secret, which then goes into the credential. Those executions show up in the executions list, not in the editor.",
		active: `The workflow is published (active): subscriptions in the Developer hub that use this node's <b>Production URL</b> start it, and the runs show up in the <a data-key="executions">executions list</a>, where <b>Retry</b> runs an event again (a replay from the hub within the Dedupe Window starts nothing). Deliveries refused for their signing secret or clock start nothing: they show, with the answer they got, in the subscription's delivery log in the Developer hub. <br /><br />To see a delivery here, subscribe the <b>Test URL</b> (its signing secret goes in the credential), click <b>Execute step</b> and make the service send an event; with several n8n processes (queue mode, multi-main) or a production concurrency limit, read ${DEPLOYMENT_GUIDE}.`,
	},
	activationHint: {
		inactive:
			"Subscribe the <b>Test URL</b> (under Webhook URLs) in the service's Developer hub and put the subscription's signing secret into the credential; once the workflow is published (on n8n 1.x: active), subscribe the <b>Production URL</b> instead and put that subscription's own signing secret into the credential.",
		active:
			"The workflow is published (active): the subscription in the service's Developer hub needs the <b>Production URL</b> (under Webhook URLs), and its signing secret in the credential.",
	},
};

/** Shown when the workflow is published (n8n's activation dialog). */
export const activationMessage =
	"Your workflow now runs on every verified delivery to its Production URL: subscribe that URL in the service's Developer hub, with the subscription's signing secret in the Webhook Signing Secret credential. Several n8n processes (queue mode, multi-main) need Dedupe Store set to Redis: see docs/deployments.md in the package's repository.";

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
		displayName: 'Dedupe Store',
		name: 'dedupeStore',
		type: 'options',
		default: 'builtIn',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
		description: 'Where the IDs of the events already started are kept',
		options: [
			{
				name: 'Built-In',
				value: 'builtIn',
				description: 'In this n8n, for a single n8n process (most installations)',
			},
			{
				name: 'Redis (Shared)',
				value: 'redis',
				description:
					'For several n8n processes (queue mode, multi-main): attach a Shared Dedupe Store credential',
			},
		],
	},
	{
		displayName: 'Refetch Latest State',
		name: 'refetch',
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch the e-invoice or e-way bill again through the GST Compliance API credential and add its current state as "refetched": deliveries can arrive out of order',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Allow Local Production URL',
				name: 'allowLocalUrl',
				type: 'boolean',
				default: false,
				description:
					'Whether to publish although the Production URL is a local or private address (localhost, 127.0.0.1, 10.x, 192.168.x, a name without a dot). The service calls the URL over the internet: turn this on only when a proxy or tunnel forwards a public address here. Setting WEBHOOK_URL to that address is better: n8n then shows it.',
			},
			{
				displayName: 'Dedupe Window (Hours)',
				name: 'dedupeWindowHours',
				type: 'number',
				typeOptions: { minValue: WINDOW_HOURS.min, maxValue: WINDOW_HOURS.max },
				default: 24, // WINDOW_HOURS.default: n8n's lint wants the literal
				description:
					'How long an event ID is remembered so a redelivery starts nothing (the service retries for 24 hours). A replay from the Developer hub within it starts nothing either: to run an event again, use Retry on its execution in the executions list.',
			},
			{
				displayName: 'Missed Event Warning (Minutes)',
				name: 'startWithinMinutes',
				type: 'number',
				typeOptions: { minValue: START_WITHIN_MINUTES.min, maxValue: START_WITHIN_MINUTES.max },
				default: 30, // START_WITHIN_MINUTES.default
				description:
					"An event that was received but whose workflow has not run after this many minutes is named in n8n's log and on the next event, so you can replay it from the Developer hub. Keep it above the longest wait for a concurrency slot.",
			},
			{
				displayName: 'Output',
				name: 'outputShape',
				type: 'options',
				default: 'envelope',
				options: [
					{
						name: 'Whole Event',
						value: 'envelope',
						description: 'The event ID, type and time, and the resource under data',
					},
					{
						name: 'Resource Only',
						value: 'data',
						description: 'The e-invoice or e-way bill alone',
					},
				],
			},
			{
				displayName: 'Respond',
				name: 'acknowledge',
				type: 'options',
				default: 'auto',
				description: 'When the service is told that a delivery was received',
				options: [
					{
						name: 'Automatically',
						value: 'auto',
						description:
							'At once, except on n8n 2.0 to 2.33 with the built-in dedupe store (queued executions are lost at a restart there)',
					},
					{
						name: 'Immediately',
						value: 'atOnce',
						description:
							'As soon as the delivery is verified, whatever the concurrency queue holds',
					},
					{
						name: 'When the Execution Is Recorded',
						value: 'afterExecutionCreated',
						description:
							'Once n8n has created the execution (on n8n 2.x, after a concurrency slot is free)',
					},
				],
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
