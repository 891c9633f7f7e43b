/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * Throw-away Postgres and Redis servers on free loopback ports, for n8n's queue mode and for the
 * trigger's Redis dedupe store. Each runs as a child process group of the test (stopped with it),
 * with its data in a fresh temp folder. Binaries come from Debian's `postgresql` and
 * `redis-server` packages (installed by installServices.js); when they are missing, starting one
 * throws with the command that installs them.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import { FatalError, freePort, waitFor } from '../http';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain-Node installer, shared with CI before TypeScript is available
const installer = require('./installServices.js') as {
	postgresBinDir(): string | undefined;
	redisServer(): string | undefined;
	redisCli(): string | undefined;
	faketime(): string | undefined;
	missingPackages(): string[];
	missingMessage(missing: string[]): string;
};

/** Throws what to install when Postgres, Redis or faketime is missing. */
export function assertServicesInstalled(): void {
	const missing = installer.missingPackages();
	if (missing.length > 0) throw new Error(installer.missingMessage(missing));
}

/** Debian's faketime, which runs one process on a skewed clock. */
export function faketimeBin(): string {
	assertServicesInstalled();
	return installer.faketime()!;
}

const groups = new Set<number>();
let hookInstalled = false;
function killOnExit(pid: number): void {
	groups.add(pid);
	if (hookInstalled) return;
	hookInstalled = true;
	process.on('exit', () => {
		for (const group of groups) {
			try {
				process.kill(-group, 'SIGKILL');
			} catch {
				/* gone */
			}
		}
	});
}

/** A child process in its own group, with its output appended to `logFile`. */
class Daemon {
	private child?: ChildProcess;
	private exited?: Promise<void>;

	constructor(
		private readonly label: string,
		readonly logFile: string,
	) {}

	get running(): boolean {
		return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
	}

	spawn(cmd: string, args: string[], opts: { cwd?: string } = {}): void {
		const out = fs.openSync(this.logFile, 'a');
		fs.writeSync(out, `\n===== ${this.label} start ${new Date().toISOString()} =====\n`);
		const child = spawn(cmd, args, {
			cwd: opts.cwd,
			detached: true,
			stdio: ['ignore', out, out],
		});
		fs.closeSync(out);
		this.child = child;
		killOnExit(child.pid!);
		this.exited = new Promise((resolve) => child.on('exit', () => resolve()));
		void this.exited.then(() => groups.delete(child.pid!));
	}

	/** `signal` to the group, SIGKILL after `graceMs`. */
	async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
		const child = this.child;
		if (!child || !this.running) return;
		await stopProcessGroup(child, this.exited, signal, graceMs);
		this.child = undefined;
	}

	tail(lines = 30): string {
		return fs.existsSync(this.logFile)
			? fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n')
			: '';
	}
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

// ------------------------------------------------------------------ Postgres

export interface RunningPostgres {
	host: string;
	port: number;
	user: string;
	database: string;
	/** DB_* environment for n8n. */
	n8nEnv(): Record<string, string>;
	/** Runs SQL (read from stdin, so statements of any size) with psql; returns its output. */
	query(sql: string): string;
	/** `query` without blocking this process (e.g. a transaction that holds a lock a while). */
	queryAsync(sql: string): Promise<string>;
	stop(): Promise<void>;
}

/**
 * initdb + postgres on a free port, trust authentication on loopback only, durability settings
 * off (a test database). Postgres refuses to run as root: as root, the cluster belongs to the
 * `postgres` user the Debian package creates, and both commands run through `runuser`.
 */
export async function startPostgres(): Promise<RunningPostgres> {
	assertServicesInstalled();
	const bin = installer.postgresBinDir()!;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-e2e-pg-'));
	const dataDir = path.join(dir, 'data');
	const asPostgres = isRoot();
	const wrap = (cmd: string, args: string[]): [string, string[]] =>
		asPostgres ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
	if (asPostgres) {
		fs.mkdirSync(dataDir);
		const chown = spawnSync('chown', ['-R', 'postgres:postgres', dir]);
		if (chown.status !== 0) throw new Error(`chown ${dir} to postgres failed`);
	}
	const user = 'n8n';
	const [initCmd, initArgs] = wrap(path.join(bin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		user,
		'--auth=trust',
		'--no-sync',
		'-E',
		'UTF8',
		'--locale=C',
	]);
	const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: dir });
	if (init.status !== 0)
		throw new Error(`initdb failed (exit ${init.status}): ${init.stderr || init.stdout}`);

	const port = await freePort();
	const daemon = new Daemon('postgres', path.join(dir, 'postgres.log'));
	if (asPostgres) spawnSync('chown', ['postgres:postgres', dir]);
	const [cmd, args] = wrap(path.join(bin, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-k',
		dir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	]);
	daemon.spawn(cmd, args, { cwd: dir });
	const isReady = path.join(bin, 'pg_isready');
	try {
		await waitFor(
			async () => {
				if (!daemon.running) throw new FatalError('postgres exited during start-up');
				const r = spawnSync(isReady, ['-h', '127.0.0.1', '-p', String(port), '-U', user]);
				return r.status === 0;
			},
			'postgres to accept connections',
			60_000,
			200,
		);
	} catch (error) {
		const tail = daemon.tail();
		await daemon.stop('SIGINT');
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
		throw new Error(`${(error as Error).message}\n--- postgres log ---\n${tail}`);
	}
	const database = 'postgres';
	const psqlArgs = () => [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		user,
		'-d',
		database,
		'-v',
		'ON_ERROR_STOP=1',
		'-qAt',
		'-f',
		'-',
	];
	return {
		host: '127.0.0.1',
		port,
		user,
		database,
		n8nEnv: () => ({
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: '',
			DB_POSTGRESDB_POOL_SIZE: '4',
		}),
		query: (sql: string) => {
			const r = spawnSync(path.join(bin, 'psql'), psqlArgs(), {
				input: sql,
				encoding: 'utf8',
				maxBuffer: 64 * 1024 * 1024,
			});
			if (r.status !== 0) throw new Error(`psql failed (exit ${r.status}): ${r.stderr}`);
			return r.stdout;
		},
		queryAsync: async (sql: string) =>
			await new Promise<string>((resolve, reject) => {
				const child = spawn(path.join(bin, 'psql'), psqlArgs(), { stdio: 'pipe' });
				let out = '';
				let err = '';
				child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
				child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
				child.on('error', reject);
				child.on('close', (code) =>
					code === 0 ? resolve(out) : reject(new Error(`psql failed (exit ${code}): ${err}`)),
				);
				child.stdin.end(sql);
			}),
		stop: async () => {
			// SIGINT is Postgres' "fast" shutdown.
			await daemon.stop('SIGINT');
			if (process.env.E2E_KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

// ------------------------------------------------------------------ Redis

export interface RunningRedis {
	host: string;
	port: number;
	logFile: string;
	readonly running: boolean;
	/** Stops the server (SIGTERM: it writes its append-only file first). Its data stays. */
	stop(): Promise<void>;
	/** Starts it again on the same port with the same data. */
	start(): Promise<void>;
	/** Stops it for good and deletes its data. */
	dispose(): Promise<void>;
}

/**
 * redis-server on a free port, loopback only, append-only file on (every write synced), so a
 * stop and a start keep what it held, as a production Redis does.
 */
export async function startRedis(
	label = 'redis',
	opts: { password?: string; args?: string[] } = {},
): Promise<RunningRedis> {
	assertServicesInstalled();
	const server = installer.redisServer()!;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gst-e2e-${label}-`));
	const port = await freePort();
	const daemon = new Daemon(label, path.join(dir, 'redis.log'));
	const start = async () => {
		daemon.spawn(
			server,
			[
				'--port',
				String(port),
				'--bind',
				'127.0.0.1',
				'--dir',
				dir,
				'--save',
				'',
				'--appendonly',
				'yes',
				'--appendfsync',
				'always',
				'--protected-mode',
				'no',
				...(opts.password ? ['--requirepass', opts.password] : []),
				...(opts.args ?? []),
			],
			{ cwd: dir },
		);
		try {
			await waitFor(
				async () => {
					if (!daemon.running) throw new FatalError(`${label} exited during start-up`);
					// With a password, an unauthenticated PING is refused: that still means it is up.
					const reply = await redisPing('127.0.0.1', port);
					return reply === '+PONG' || reply.startsWith('-NOAUTH');
				},
				`${label} to answer PING`,
				30_000,
				100,
			);
		} catch (error) {
			const tail = daemon.tail();
			await daemon.stop('SIGKILL');
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
			throw new Error(`${(error as Error).message}\n--- ${label} log ---\n${tail}`);
		}
	};
	await start();
	return {
		host: '127.0.0.1',
		port,
		logFile: daemon.logFile,
		get running() {
			return daemon.running;
		},
		stop: () => daemon.stop('SIGTERM'),
		start,
		dispose: async () => {
			await daemon.stop('SIGTERM');
			if (process.env.E2E_KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

export interface RunningRedisCluster {
	/** The cluster's nodes, every one a master holding a third of the slots. */
	nodes: RunningRedis[];
	/** `127.0.0.1:<port>,…`, the form of n8n's QUEUE_BULL_REDIS_CLUSTER_NODES and the credential. */
	clusterNodes: string;
	dispose(): Promise<void>;
}

/**
 * A Redis Cluster of `size` masters (no replicas) on free loopback ports, built with
 * `redis-cli --cluster create` and ready when every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(
	label = 'redis-cluster',
	opts: { password?: string; size?: number } = {},
): Promise<RunningRedisCluster> {
	const size = opts.size ?? 3;
	const auth = opts.password ? ['--masterauth', opts.password] : [];
	const nodes: RunningRedis[] = [];
	const dispose = async () => {
		await Promise.all(nodes.map((node) => node.dispose()));
	};
	try {
		for (let i = 0; i < size; i++)
			nodes.push(
				await startRedis(`${label}-${i + 1}`, {
					password: opts.password,
					args: ['--cluster-enabled', 'yes', '--cluster-node-timeout', '2000', ...auth],
				}),
			);
		const cli = installer.redisCli()!;
		const password = opts.password ? ['-a', opts.password, '--no-auth-warning'] : [];
		const addresses = nodes.map((node) => `${node.host}:${node.port}`);
		const created = spawnSync(
			cli,
			[
				...password,
				'--cluster',
				'create',
				...addresses,
				'--cluster-replicas',
				'0',
				'--cluster-yes',
			],
			{ encoding: 'utf8', timeout: 60_000 },
		);
		if (created.status !== 0)
			throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
		await waitFor(
			async () =>
				nodes.every((node) =>
					spawnSync(cli, [...password, '-p', String(node.port), 'cluster', 'info'], {
						encoding: 'utf8',
					}).stdout.includes('cluster_state:ok'),
				),
			`${label} to report cluster_state:ok on every node`,
			30_000,
			200,
		);
		return { nodes, clusterNodes: addresses.join(','), dispose };
	} catch (error) {
		await dispose();
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: the start-up error as it came
		throw error;
	}
}

/** One inline PING; resolves the first reply line (or '' on a connection error). */
export function redisPing(host: string, port: number): Promise<string> {
	return new Promise((resolve) => {
		const socket = net.connect({ host, port });
		let reply = '';
		const done = (value: string) => {
			socket.destroy();
			resolve(value);
		};
		socket.setTimeout(2000, () => done(''));
		socket.on('error', () => done(''));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			reply += chunk.toString('utf8');
			if (reply.includes('\r\n')) done(reply.split('\r\n')[0]);
		});
	});
}

/**
 * Sends `signal` to the child's process group, waits up to `graceMs` for it to exit, then SIGKILLs
 * what is left: the way the queue harness stops Postgres, Redis and each n8n process.
 */
export async function stopProcessGroup(
	child: ChildProcess,
	exited: Promise<void> | undefined,
	signal: NodeJS.Signals,
	graceMs: number,
): Promise<void> {
	const signalGroup = (which: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, which);
		} catch {
			/* gone */
		}
	};
	signalGroup(signal);
	let timer: NodeJS.Timeout | undefined;
	await Promise.race([
		exited,
		new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
	]);
	clearTimeout(timer);
	signalGroup('SIGKILL');
	await exited;
}
