/**
 * A redis-server of the suite's own (Debian's `redis-server`, started on a free port with a
 * password; missing, the suite fails with the command that installs it) and a client on database 3
 * to look at keys, emptied before each test. After the suite the process's shared Redis clients
 * close and the server goes.
 */
import Redis from 'ioredis';

import { redisClients } from '../../../nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { startRedis, type RunningRedis } from '../../harness/queue/services';

export interface SuiteRedis {
	server: RunningRedis;
	/** Database 3, where the suite's credentials point. */
	inspect: Redis;
}

export function suiteRedis(label: string, password: string): SuiteRedis {
	const suite = {} as SuiteRedis;
	beforeAll(async () => {
		suite.server = await startRedis(label, { password });
		suite.inspect = new Redis({
			host: suite.server.host,
			port: suite.server.port,
			password,
			db: 3,
		});
	});
	afterAll(async () => {
		await redisClients.close();
		suite.inspect?.disconnect();
		await suite.server?.dispose();
	});
	beforeEach(async () => {
		await suite.inspect.flushall();
	});
	return suite;
}
