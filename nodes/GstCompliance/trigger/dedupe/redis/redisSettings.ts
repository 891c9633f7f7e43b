/**
 * The GST Compliance Dedupe Redis credential read as connection settings: one Redis, or the nodes
 * of a Redis Cluster; how they are named in errors and logs (hosts and ports, never the user or
 * password); and the credential's secrets kept out of any error text from Redis.
 */
import { redact } from '../../../errors/redact';

export interface RedisNode {
	host: string;
	port: number;
}

export interface RedisConnection {
	host: string;
	port: number;
	database: number;
	user?: string;
	password?: string;
	ssl?: boolean;
	disableTlsVerification?: boolean;
	/** Set for a Redis Cluster: the nodes to discover it from (host and port are then unused). */
	clusterNodes?: RedisNode[];
}

/**
 * A credential field holds something that is not what it asks for (a URL in Host, a malformed
 * cluster node). Refused at the Test button and at runtime; the message never repeats the value
 * (it may hold a password).
 */
export class RedisCredentialError extends Error {
	constructor(field: string, reason: string) {
		super(
			`The GST Compliance Dedupe Redis credential's ${field} ${reason}. Put host names or IP addresses alone in Host or Cluster Nodes, the password in Password, the user in User and the port in Port (Cluster Nodes: host:port, comma-separated).`,
		);
		this.name = 'RedisCredentialError';
	}
}

/** Dedupe Store is Redis (trigger version 3), and no Redis credential is selected. */
export class RedisCredentialMissingError extends RedisCredentialError {
	constructor() {
		super('', '');
		this.message =
			'Dedupe Store is Redis (Shared), but the trigger has no Shared Dedupe Store (Redis) credential: select one, or set Dedupe Store to Built-In.';
		this.name = 'RedisCredentialMissingError';
	}
}

/** Why a host value is not a host name alone, or undefined when it is. */
function hostProblem(host: string): string | undefined {
	if (host.includes('://')) return 'is a URL (it contains "://")';
	if (host.includes('@')) return 'contains "@" (a user or password belongs in its own field)';
	if (host.includes('/')) return 'contains "/"';
	if (/\s/.test(host)) return 'contains whitespace';
	return undefined;
}

/** `host:port, host:port` (as n8n's QUEUE_BULL_REDIS_CLUSTER_NODES); IPv6 hosts in brackets. */
function parseClusterNodes(text: string): RedisNode[] {
	const entries = text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
	if (entries.length === 0) throw new RedisCredentialError('Cluster Nodes', 'is empty');
	return entries.map((entry, index) => {
		const which = `entry ${index + 1}`;
		const colon = entry.lastIndexOf(':');
		const rawHost = colon > 0 ? entry.slice(0, colon) : '';
		const host = rawHost.replace(/^\[(.*)\]$/, '$1');
		const portText = colon > 0 ? entry.slice(colon + 1) : '';
		const problem = hostProblem(entry);
		if (problem) throw new RedisCredentialError('Cluster Nodes', `${which} ${problem}`);
		const port = Number(portText);
		if (!host || !/^\d+$/.test(portText) || port < 1 || port > 65_535)
			throw new RedisCredentialError('Cluster Nodes', `${which} is not host:port`);
		return { host, port };
	});
}

/** The connection a credential describes; throws RedisCredentialError for fields that are not one. */
export function connectionFromCredential(data: Record<string, unknown>): RedisConnection {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	const number = (value: unknown, fallback: number) => {
		const n = typeof value === 'string' ? Number(value) : value;
		return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : fallback;
	};
	const common = {
		database: number(data.database, 0),
		user: text(data.user) || undefined,
		password: text(data.password) || undefined,
		ssl: data.ssl === true,
		disableTlsVerification: data.disableTlsVerification === true,
	};
	if (data.deployment === 'cluster') {
		const clusterNodes = parseClusterNodes(text(data.clusterNodes));
		// A cluster has database 0 only; the field is hidden for clusters and its value unused.
		common.database = 0;
		return { host: clusterNodes[0].host, port: clusterNodes[0].port, ...common, clusterNodes };
	}
	const problem = hostProblem(text(data.host).trim());
	if (problem) throw new RedisCredentialError('Host', problem);
	return { host: text(data.host).trim() || 'localhost', port: number(data.port, 6379), ...common };
}

/** Hosts and ports as shown in errors and logs (never the user or password). */
export function describeConnection(connection: RedisConnection): string {
	const nodes = connection.clusterNodes;
	if (!nodes) return `${connection.host}:${connection.port} (db ${connection.database})`;
	return `the Redis Cluster of ${nodes.map((node) => `${node.host}:${node.port}`).join(', ')}`;
}

/**
 * Error texts from Redis never carry the password: the credential's user and password, and the
 * user info of any URL in the text (`redis://user:secret@host` → `redis://[redacted]@host`).
 */
export function redactConnectionSecrets(message: string, connection: RedisConnection): string {
	const secrets = [connection.password, connection.user].filter(
		(secret): secret is string => !!secret,
	);
	return redact(message, secrets);
}
