/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The Dedupe Redis credential as the editor shows it and as the trigger reads it: each field's
 * name, label, type and default; which fields each deployment (one Redis, a Redis Cluster) shows and
 * when TLS verification can be switched off; only the password masked; an untouched credential
 * read as localhost:6379, database 0; the deployment values and the cluster placeholder as the
 * settings reader takes them; where its documentation link leads. (The reader's own rules:
 * trigger/dedupe/redis/redisSettings.test.ts.)
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { GstComplianceRedisApi } from '@/credentials/GstComplianceRedisApi.credentials';
import { defaultsOf, fieldOf } from '@/test/unit/helpers/credentialFields';
import {
	connectionFromCredential,
	describeConnection,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisSettings';

const credential = new GstComplianceRedisApi();
const field = (name: string) => fieldOf(credential, name);
const defaults = () => defaultsOf(credential);

describe('the fields the editor shows', () => {
	it('properties → the nine fields in order, each with its label, type and default', () => {
		expect(
			credential.properties.map(({ name, displayName, type, default: value }) => ({
				name,
				displayName,
				type,
				default: value,
			})),
		).toEqual([
			{ name: 'password', displayName: 'Password', type: 'string', default: '' },
			{ name: 'user', displayName: 'User', type: 'string', default: '' },
			{ name: 'deployment', displayName: 'Deployment', type: 'options', default: 'single' },
			{ name: 'host', displayName: 'Host', type: 'string', default: 'localhost' },
			{ name: 'port', displayName: 'Port', type: 'number', default: 6379 },
			{ name: 'clusterNodes', displayName: 'Cluster Nodes', type: 'string', default: '' },
			{ name: 'database', displayName: 'Database Number', type: 'number', default: 0 },
			{ name: 'ssl', displayName: 'SSL', type: 'boolean', default: false },
			{
				name: 'disableTlsVerification',
				displayName: 'Disable TLS Verification (insecure)',
				type: 'boolean',
				default: false,
			},
		]);
	});

	it('properties → only Password masked (password), none required', () => {
		expect(
			credential.properties
				.filter((property) => property.typeOptions?.password === true)
				.map((property) => property.name),
		).toEqual(['password']);
		expect(
			credential.properties
				.filter((property) => property.required === true)
				.map((property) => property.name),
		).toEqual([]);
	});

	it('every field but Password, Deployment, Host and Port → a description or hint saying what it takes', () => {
		expect(
			credential.properties
				.filter((property) => !property.description && !property.hint)
				.map((property) => property.name),
		).toEqual(['password', 'deployment', 'host', 'port']);
		expect(field('ssl').description).toMatch(/^Whether to connect over TLS/);
	});

	it('placeholders → "e.g." and an example (the Cluster Nodes one)', () => {
		expect(
			credential.properties
				.filter((property) => property.placeholder !== undefined)
				.map((property) => [property.name, property.placeholder]),
		).toEqual([['clusterNodes', 'e.g. redis-1:6379,redis-2:6379,redis-3:6379']]);
	});

	it('deployment options → Single Redis (single) and Redis Cluster (cluster)', () => {
		expect(field('deployment').options).toEqual([
			{ name: 'Single Redis', value: 'single' },
			{
				name: 'Redis Cluster',
				value: 'cluster',
				description:
					'Several Redis nodes sharing the keys by slot, as QUEUE_BULL_REDIS_CLUSTER_NODES',
			},
		]);
	});

	it('displayOptions → Host, Port, Database for one Redis; Cluster Nodes for a cluster; TLS verification only with SSL', () => {
		expect(
			Object.fromEntries(
				credential.properties.map((property) => [property.name, property.displayOptions]),
			),
		).toEqual({
			password: undefined,
			user: undefined,
			deployment: undefined,
			host: { show: { deployment: ['single'] } },
			port: { show: { deployment: ['single'] } },
			clusterNodes: { show: { deployment: ['cluster'] } },
			database: { show: { deployment: ['single'] } },
			ssl: undefined,
			disableTlsVerification: { show: { ssl: [true] } },
		});
	});
});

describe('the fields the trigger reads', () => {
	it('connectionFromCredential(the defaults) → localhost:6379, database 0, no user, no password, no TLS', () => {
		const connection = connectionFromCredential(defaults());
		expect(connection).toEqual({
			host: 'localhost',
			port: 6379,
			database: 0,
			user: undefined,
			password: undefined,
			ssl: false,
			disableTlsVerification: false,
		});
		expect(describeConnection(connection)).toBe('localhost:6379 (db 0)');
	});

	it("connectionFromCredential(each single-Redis field filled, by the editor's names) → every value read", () => {
		const filled = {
			...defaults(),
			password: 'not-a-real-password',
			user: 'dedupe',
			deployment: 'single',
			host: 'redis.internal',
			port: 6380,
			database: 3,
			ssl: true,
			disableTlsVerification: true,
		};
		expect(Object.keys(filled)).toEqual(credential.properties.map((property) => property.name));
		expect(connectionFromCredential(filled)).toEqual({
			host: 'redis.internal',
			port: 6380,
			database: 3,
			user: 'dedupe',
			password: 'not-a-real-password',
			ssl: true,
			disableTlsVerification: true,
		});
	});

	it('connectionFromCredential(Redis Cluster option, the placeholder as Cluster Nodes) → a cluster of its three nodes', () => {
		const cluster = field('deployment').options?.find(
			(option) => 'name' in option && option.name === 'Redis Cluster',
		) as { value: string };
		const connection = connectionFromCredential({
			...defaults(),
			deployment: cluster.value,
			clusterNodes: field('clusterNodes').placeholder?.replace(/^e\.g\. /, ''),
		});
		expect(connection.clusterNodes).toEqual([
			{ host: 'redis-1', port: 6379 },
			{ host: 'redis-2', port: 6379 },
			{ host: 'redis-3', port: 6379 },
		]);
		expect(describeConnection(connection)).toBe(
			'the Redis Cluster of redis-1:6379, redis-2:6379, redis-3:6379',
		);
	});
});

describe('the documentation link', () => {
	it('documentationUrl → the Attaching Redis section of docs/deployments.md, which exists', () => {
		const url = new URL(credential.documentationUrl);
		expect(`${url.origin}${url.pathname}`).toBe(
			'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance/blob/main/docs/deployments.md',
		);
		expect(url.hash).toBe('#attaching-redis');
		const deployments = readFileSync(
			join(__dirname, '..', '..', '..', 'docs', 'deployments.md'),
			'utf8',
		);
		expect(deployments.split('\n')).toContain('## Attaching Redis');
	});
});
