/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/** ioredis as far as the shared clients, the Test button and the eviction check use it: no socket. */
import { EventEmitter } from 'events';

import type { RedisModule } from '../../../nodes/GstCompliance/trigger/dedupe/redis/redisConnection';
import type { RedisConnection } from '../../../nodes/GstCompliance/trigger/dedupe/redis/redisSettings';

export class FakeRedis extends EventEmitter {
	static made: FakeRedis[] = [];
	status = 'wait';
	disconnects = 0;
	isCluster = false;
	ping = jest.fn(async () => 'PONG');
	/** What INFO memory answers; Debian's redis-server and most self-hosted ones say noeviction. */
	static policy: string | Error = 'noeviction';
	info = jest.fn(async (section?: string) => {
		if (section !== 'memory') throw new Error(`ERR unexpected section ${section}`);
		if (FakeRedis.policy instanceof Error) throw FakeRedis.policy;
		return `# Memory\r\nused_memory:1000\r\nmaxmemory:0\r\nmaxmemory_policy:${FakeRedis.policy}\r\n`;
	});

	constructor(readonly options: { retryStrategy?: (times: number) => number | null }) {
		super();
		FakeRedis.made.push(this);
	}

	async connect() {
		await Promise.resolve(); // ioredis becomes ready after connect() returns to its caller
		this.status = 'ready';
		this.emit('ready');
	}

	disconnect() {
		this.disconnects++;
		this.status = 'end';
	}

	async quit() {
		this.disconnect();
	}
}
/** The Test's run of the store's commands, which a fake without a server cannot answer. */
export const noRehearsal = async () => undefined;

export const fakeModule = { Redis: FakeRedis, Cluster: FakeRedis } as unknown as RedisModule;
export const SETTINGS: RedisConnection = {
	host: 'cache',
	port: 6379,
	database: 0,
	password: 'Pa55word',
};

/** A Redis Cluster as the checks see it: its masters, each a FakeRedis of its own. */
export class FakeCluster extends FakeRedis {
	isCluster = true;
	static masters: Array<{ port: number; policy: string | Error }> = [];
	readonly masters = FakeCluster.masters.map(({ port, policy }) => {
		const node = new FakeRedis({});
		Object.assign(node, { options: { host: '10.0.0.1', port } });
		node.info = jest.fn(async () => {
			if (policy instanceof Error) throw policy;
			return `# Memory\r\nmaxmemory_policy:${policy}\r\n`;
		});
		return node;
	});

	nodes(role: string) {
		return role === 'master' ? this.masters : [];
	}
}
export const clusterModule = { Redis: FakeRedis, Cluster: FakeCluster } as unknown as RedisModule;
export const CLUSTER: RedisConnection = {
	...SETTINGS,
	clusterNodes: [{ host: '10.0.0.1', port: 7000 }],
};
