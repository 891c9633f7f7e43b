import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * A Redis server (or a Redis Cluster) the GST Compliance Trigger remembers event ids in, shared by
 * every n8n process (queue mode with webhook processes, multi-main). Same fields as n8n's built-in
 * Redis credential plus the cluster's nodes as n8n's queue takes them (QUEUE_BULL_REDIS_CLUSTER_NODES),
 * so the values of the queue's Redis (QUEUE_BULL_REDIS_*) or any other Redis fit as they are; the
 * built-in type itself cannot be attached: n8n's community-package rules let a node use only its
 * own package's credential types. Tested by the trigger node: a PING with these settings, and
 * `maxmemory-policy` must be `noeviction` (any other lets Redis delete remembered ids).
 */
export class GstComplianceRedisApi implements ICredentialType {
	name = 'gstComplianceRedisApi';

	displayName = 'GST Compliance Dedupe Redis';

	icon: Icon = {
		light: 'file:../icons/gstCompliance.svg',
		dark: 'file:../icons/gstCompliance.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance/blob/main/docs/deployments.md#attaching-redis';

	properties: INodeProperties[] = [
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			hint: 'Leave blank for password-only auth',
		},
		{
			displayName: 'Deployment',
			name: 'deployment',
			type: 'options',
			options: [
				{ name: 'Single Redis', value: 'single' },
				{
					name: 'Redis Cluster',
					value: 'cluster',
					description:
						'Several Redis nodes sharing the keys by slot, as QUEUE_BULL_REDIS_CLUSTER_NODES',
				},
			],
			default: 'single',
		},
		{
			displayName: 'Host',
			name: 'host',
			type: 'string',
			displayOptions: { show: { deployment: ['single'] } },
			default: 'localhost',
		},
		{
			displayName: 'Port',
			name: 'port',
			type: 'number',
			displayOptions: { show: { deployment: ['single'] } },
			default: 6379,
		},
		{
			displayName: 'Cluster Nodes',
			name: 'clusterNodes',
			type: 'string',
			displayOptions: { show: { deployment: ['cluster'] } },
			default: '',
			placeholder: 'e.g. redis-1:6379,redis-2:6379,redis-3:6379',
			description:
				"Some or all of the cluster's nodes as host:port, comma-separated (the value of QUEUE_BULL_REDIS_CLUSTER_NODES fits); the rest are discovered",
		},
		{
			displayName: 'Database Number',
			name: 'database',
			type: 'number',
			displayOptions: { show: { deployment: ['single'] } },
			default: 0,
			description:
				"Redis database the event ids go in; with the queue's Redis, a number the queue does not use (it uses 0 unless QUEUE_BULL_REDIS_DB is set)",
		},
		{
			displayName: 'SSL',
			name: 'ssl',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect over TLS, as most managed Redis services require. The certificate must name the host connected to (for a cluster, each node as listed).',
		},
		{
			displayName: 'Disable TLS Verification (insecure)',
			name: 'disableTlsVerification',
			type: 'boolean',
			displayOptions: { show: { ssl: [true] } },
			default: false,
			description:
				'Whether to accept a certificate that does not verify (e.g. self-signed). The connection is then open to interception.',
		},
	];
}
