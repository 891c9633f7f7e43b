import type { INodeProperties } from 'n8n-workflow';

export const MAX_CONCURRENCY = 20;
export const DEFAULT_CONCURRENCY = 5;

/** Options shared by both resources' Get operation. */
export const getOptions: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { operation: ['get'] } },
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
				default: DEFAULT_CONCURRENCY,
				description:
					'How many items are fetched at the same time. Lower it if the service answers with rate limiting (HTTP 429).',
			},
			{
				displayName: 'Ignore Not Found',
				name: 'ignoreNotFound',
				type: 'boolean',
				default: false,
				description:
					'Whether an ID that does not exist outputs an item with the ID and notFound set to true, instead of failing the item',
			},
		],
	},
];
