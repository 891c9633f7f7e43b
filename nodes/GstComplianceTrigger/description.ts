import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_WINDOW_HOURS } from './dedupe/persistence';
import { DEFAULT_TOLERANCE_SECONDS } from './delivery';
import { ALL_EVENTS, EVENT_TYPES } from './events';

/** The trigger's parameters; the node file holds the rest of its description. */
export const properties: INodeProperties[] = [
	{
		displayName:
			'Subscriptions are made in the Developer hub of the service, not from n8n: create one with this node\'s Production URL, select the same events as below, and copy its signing secret into the credential. The Test URL answers one delivery only while "Listen for test event" is on.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName:
			'Running n8n in queue mode with several webhook processes, or with several main processes? Attach a GST Compliance Dedupe Redis credential: event IDs then live in Redis, shared by every process. Without it each process remembers IDs on its own (at most 125,000 within the window, enough for about 100,000 events a day), which is right for one process receiving the webhooks.',
		name: 'dedupeNotice',
		type: 'notice',
		default: '',
	},
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
				displayName: 'Dedupe Window (Hours)',
				name: 'dedupeWindowHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 720 },
				default: DEFAULT_WINDOW_HOURS,
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
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 3600 },
				default: DEFAULT_TOLERANCE_SECONDS,
				description:
					'Deliveries signed further than this from the current time are rejected (replay protection)',
			},
		],
	},
];
