/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * n8n 2.41 in queue mode, as a scaled-out install runs it: Postgres, Redis for the queue, one
 * `n8n start` main (editor, REST, activation; production webhooks off), one `n8n worker` and
 * `n8n webhook` processes (production webhooks only), all sharing the database, the queue and
 * N8N_ENCRYPTION_KEY. Every process has its own user folder with the package installed as a
 * community package (each machine of a real install has its own), its own HTTP port and task
 * broker port. Executions are counted through the main's REST API (they live in Postgres).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import { FatalError, freePort, request, waitFor } from '../http';
import {
	installPackageInto,
	N8N_BIN,
	N8n,
	NODE_TYPES,
	packPackage,
	PACKAGE_NAME,
	WORK_DIR,
	assertRuntimeInstalled,
} from '../n8n';
import {
	startPostgres,
	startRedis,
	stopProcessGroup,
	type RunningPostgres,
	type RunningRedis,
	faketimeBin,
} from './services';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain-Node installer, shared with CI before TypeScript is available
const installer = require('../install.js') as {
	NODE24_BIN: string;
	node24Env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
};

/** What every process of the cluster shares besides its own folder and ports. */
function sharedEnv(postgres: RunningPostgres, queue: RunningRedis): Record<string, string> {
	return {
		...postgres.n8nEnv(),
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: queue.host,
		QUEUE_BULL_REDIS_PORT: String(queue.port),
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// Executions are read back by the specs: keep every one, finished or not.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_PRUNE: 'false',
		N8N_LOG_LEVEL: 'info',
	};
}

export type ProcessKind = 'worker' | 'webhook';

/**
 * One `n8n worker` or `n8n webhook` process. Ready when its health endpoint answers: the worker's
 * on QUEUE_HEALTH_CHECK_PORT, the webhook process's on its HTTP port.
 */
export class N8nProcess {
	readonly userFolder: string;
	readonly logFile: string;
	port = 0;
	healthPort = 0;
	/**
	 * This process's clock ahead of (or behind) the machine's, as Debian's faketime takes it
	 * (`+45s`); unset: the machine's clock.
	 */
	clockOffset?: string;
	private child?: ChildProcess;
	private exited?: Promise<void>;

	constructor(
		readonly kind: ProcessKind,
		readonly name: string,
		private readonly env: Record<string, string>,
	) {
		fs.mkdirSync(WORK_DIR, { recursive: true });
		this.userFolder = fs.mkdtempSync(path.join(WORK_DIR, `${name}-`));
		this.logFile = path.join(this.userFolder, 'n8n.log');
		const n8nFolder = path.join(this.userFolder, '.n8n');
		fs.mkdirSync(n8nFolder, { recursive: true });
		installPackageInto(n8nFolder, packPackage());
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	webhookUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook/${webhookPath}`;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	logs(): string {
		return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf8') : '';
	}

	async start(timeoutMs = 240_000): Promise<void> {
		assertRuntimeInstalled();
		this.port ||= await freePort();
		this.healthPort = this.kind === 'worker' ? this.healthPort || (await freePort()) : this.port;
		const brokerPort = await freePort();
		// The jest/ts-node parent must not leak its own Node options into Node 24.
		const parentEnv = { ...process.env };
		delete parentEnv.NODE_OPTIONS;
		delete parentEnv.TS_NODE_PROJECT;
		const env: NodeJS.ProcessEnv = {
			...installer.node24Env(parentEnv),
			...baseEnv(),
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_WEBHOOK_URL: `http://127.0.0.1:${this.port}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(this.healthPort),
			...this.env,
		};
		const out = fs.openSync(this.logFile, 'a');
		fs.writeSync(out, `\n===== n8n ${this.kind} start ${new Date().toISOString()} =====\n`);
		const [command, args] = this.clockOffset
			? [faketimeBin(), ['-f', this.clockOffset, installer.NODE24_BIN, N8N_BIN, this.kind]]
			: [installer.NODE24_BIN, [N8N_BIN, this.kind]];
		const child = spawn(command, args, {
			cwd: this.userFolder,
			env,
			detached: true,
			stdio: ['ignore', out, out],
		});
		fs.closeSync(out);
		this.child = child;
		liveGroups.add(child.pid!);
		this.exited = new Promise((resolve) =>
			child.on('exit', () => {
				liveGroups.delete(child.pid!);
				resolve();
			}),
		);
		try {
			await waitFor(
				async () => {
					if (child.exitCode !== null || child.signalCode !== null)
						throw new FatalError(`n8n ${this.kind} exited during start-up`);
					const r = await request(`http://127.0.0.1:${this.healthPort}/healthz/readiness`, {
						timeoutMs: 2000,
					});
					return r.status === 200;
				},
				`n8n ${this.kind} (${this.name}) readiness`,
				timeoutMs,
				300,
			);
		} catch (error) {
			const tail = this.logs().split('\n').slice(-40).join('\n');
			await this.stop();
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
			throw new Error(
				`${(error as Error).message}\n--- last log lines (${this.logFile}) ---\n${tail}`,
			);
		}
	}

	/** SIGKILL to the whole group, no warning: a machine or container lost. */
	async kill(): Promise<void> {
		await this.stop(0, 'SIGKILL');
	}

	async stop(graceMs = 15_000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
		const child = this.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		await stopProcessGroup(child, this.exited, signal, graceMs);
		this.child = undefined;
	}

	async dispose(): Promise<void> {
		await this.stop();
		if (process.env.E2E_KEEP === '1') return;
		for (const entry of fs.readdirSync(this.userFolder))
			if (entry !== 'n8n.log')
				fs.rmSync(path.join(this.userFolder, entry), { recursive: true, force: true });
	}
}

const liveGroups = new Set<number>();
process.on('exit', () => {
	for (const group of liveGroups) {
		try {
			process.kill(-group, 'SIGKILL');
		} catch {
			/* gone */
		}
	}
});

/** The quiet, headless settings the harness's single n8n runs with (see lib/n8n.ts). */
function baseEnv(): Record<string, string> {
	return {
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_LOG_OUTPUT: 'console',
		N8N_PYTHON_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		NO_COLOR: '1',
		NODE_ENV: 'production',
	};
}

export interface QueueCluster {
	postgres: RunningPostgres;
	queueRedis: RunningRedis;
	main: N8n;
	worker: N8nProcess;
	webhooks: N8nProcess[];
	/** Production URL of a trigger node on webhook process `index`. */
	triggerUrl(index: number, node: { webhookId?: string }): string;
	stop(): Promise<void>;
}

export interface ClusterOptions {
	webhookProcesses?: number;
	/** Extra environment for every n8n process. */
	env?: Record<string, string>;
}

/**
 * Starts Postgres and the queue's Redis, then the main (it runs the database migrations), then
 * the worker and the webhook processes together. Everything stops together on failure.
 */
export async function startQueueCluster(opts: ClusterOptions = {}): Promise<QueueCluster> {
	const started: Array<{ stop(): Promise<void> }> = [];
	const stopAll = async () => {
		for (const item of started.reverse()) await item.stop().catch(() => undefined);
	};
	try {
		// Settled, not Promise.all: when one fails, the other is still stopped below.
		const [pg, redis] = await Promise.allSettled([startPostgres(), startRedis('queue-redis')]);
		if (pg.status === 'fulfilled') started.push(pg.value);
		if (redis.status === 'fulfilled') started.push({ stop: () => redis.value.dispose() });
		if (pg.status === 'rejected') throw pg.reason;
		if (redis.status === 'rejected') throw redis.reason;
		const [postgres, queueRedis] = [pg.value, redis.value];
		const env = { ...sharedEnv(postgres, queueRedis), ...(opts.env ?? {}) };
		const main = new N8n({ name: 'queue-main', env });
		started.push({ stop: () => main.dispose() });
		await main.start();
		await main.setupOwner();
		await waitFor(
			async () => (await main.nodeTypeNames()).includes(NODE_TYPES.trigger),
			'our node types to be loaded in the main',
			30_000,
		);
		const shared = { ...env, N8N_ENCRYPTION_KEY: main.encryptionKey };
		const worker = new N8nProcess('worker', 'queue-worker', shared);
		const webhooks = Array.from(
			{ length: opts.webhookProcesses ?? 2 },
			(_, i) => new N8nProcess('webhook', `queue-webhook${i + 1}`, shared),
		);
		for (const p of [worker, ...webhooks]) started.push({ stop: () => p.dispose() });
		await Promise.all([worker.start(), ...webhooks.map((p) => p.start())]);
		return {
			postgres,
			queueRedis,
			main,
			worker,
			webhooks,
			triggerUrl: (index, node) => webhooks[index].webhookUrl(`${node.webhookId}/webhook`),
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
		throw error;
	}
}

export { PACKAGE_NAME };
