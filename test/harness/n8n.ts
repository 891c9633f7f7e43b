/* eslint-disable @typescript-eslint/no-explicit-any -- n8n's REST and run-data JSON is untyped here; each spec asserts on the fields it reads */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * Starts a real n8n (2.41.x from test/e2e/runtime, on Node 24) headless, with a throw-away user
 * folder and SQLite, our package installed the way n8n installs a community package, and an owner
 * account logged in. Stops it cleanly (whole process group), also when a test fails.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExecutionStatusList } from 'n8n-workflow';
import { FatalError, freePort, request, waitFor, HttpResponse } from './http';

import * as installer from './install';
import { ReadinessGate } from './readinessGate';
import { faketimeBin } from './queue/services';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const WORK_DIR = path.join(REPO_ROOT, 'test', 'e2e', '.work');
export const N8N_BIN = path.join(installer.NODE_MODULES, 'n8n', 'bin', 'n8n');
export const PACKAGE_NAME = 'n8n-nodes-gst-compliance';
export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.gstCompliance`,
	trigger: `${PACKAGE_NAME}.gstComplianceTrigger`,
};

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'E2e-Passw0rd!',
};

export function runtimeInstalled(): boolean {
	return (
		fs.existsSync(installer.markerPath()) &&
		fs.existsSync(N8N_BIN) &&
		fs.existsSync(installer.NODE24_BIN)
	);
}

export function assertRuntimeInstalled(): void {
	if (!runtimeInstalled()) {
		throw new Error(
			'The e2e n8n runtime is not installed. Run: npm run e2e:install (about 5 minutes, 3 GB).',
		);
	}
}

/**
 * `npm pack` of the built package (dist/ must exist: `npm run build`). Returns the tarball path.
 * Cached per process: every spec file in one jest worker packs at most once.
 */
let packed: string | undefined;
export function packPackage(): string {
	if (packed && fs.existsSync(packed)) return packed;
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	for (const f of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		if (!fs.existsSync(path.join(REPO_ROOT, f))) {
			throw new Error(`${f} is missing: build the package first (npm run build)`);
		}
	}
	const dest = fs.mkdtempSync(path.join(WORK_DIR, 'pack-'));
	const r = spawnSync('npm', ['pack', '--pack-destination', dest, '--silent', '--ignore-scripts'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	});
	if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
	const name = r.stdout.trim().split('\n').pop()!.trim();
	packed = path.join(dest, name);
	return packed;
}

/**
 * Installs the tarball into `<n8nFolder>/nodes/node_modules/<name>` exactly as n8n 2.41's
 * CommunityPackagesService.downloadPackage does after `npm pack <name>@<version>` from the
 * registry: extract with --strip-components=1, drop dev/peer/optional dependencies from its
 * package.json, `npm install` inside it (nothing to install: the package has no dependencies),
 * and record it in `nodes/package.json`. n8n scans `nodes/node_modules/n8n-nodes-*` at start.
 */
export function installPackageInto(n8nFolder: string, tarball: string): void {
	const nodesDir = path.join(n8nFolder, 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(pkgDir, { recursive: true, force: true });
	fs.mkdirSync(pkgDir, { recursive: true });
	const tar = spawnSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
	const pjPath = path.join(pkgDir, 'package.json');
	const pj = JSON.parse(fs.readFileSync(pjPath, 'utf8'));
	delete pj.devDependencies;
	delete pj.peerDependencies;
	delete pj.optionalDependencies;
	fs.writeFileSync(pjPath, JSON.stringify(pj, null, 2));
	if (pj.dependencies && Object.keys(pj.dependencies).length > 0) {
		const r = spawnSync(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: pkgDir, stdio: 'inherit' },
		);
		if (r.status !== 0) throw new Error('npm install inside the community package failed');
	}
	const nodesPj = path.join(nodesDir, 'package.json');
	const manifest = fs.existsSync(nodesPj)
		? JSON.parse(fs.readFileSync(nodesPj, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} as Record<string, string> };
	manifest.dependencies = { ...(manifest.dependencies ?? {}), [PACKAGE_NAME]: pj.version };
	fs.writeFileSync(nodesPj, JSON.stringify(manifest, null, 2));
}

export interface StartOptions {
	/** Label used in folder and log names. */
	name?: string;
	/** Reuse a user folder (restart). Default: a new one under test/e2e/.work. */
	userFolder?: string;
	/** Install our package (default true). */
	withPackage?: boolean;
	/** Extra environment for n8n. */
	env?: Record<string, string>;
	/** Fixed port (demo); default: a free one. */
	port?: number;
	/** Host name in the URLs n8n prints and shows (default 127.0.0.1). */
	host?: string;
	/** Folder the file nodes may read and write (N8N_RESTRICT_FILE_ACCESS_TO). */
	filesDir?: string;
	/** Start timeout, ms. */
	timeoutMs?: number;
	/** Echo n8n's output to this process' stdout too. */
	echo?: boolean;
	/** n8n's clock, skewed by Debian's faketime (e.g. '+240s'); `clockOffset` changes it per start. */
	clockOffset?: string;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	const killAll = () => {
		for (const pgid of liveGroups) {
			try {
				process.kill(-pgid, 'SIGKILL');
			} catch {
				/* gone */
			}
		}
	};
	process.on('exit', killAll);
}

export class N8n {
	readonly name: string;
	readonly userFolder: string;
	readonly n8nFolder: string;
	readonly logFile: string;
	readonly filesDir: string;
	readonly encryptionKey: string;
	port = 0;
	brokerPort = 0;
	host: string;
	/** The clock offset of the next start (faketime's `-f`), undefined for the host's clock. */
	clockOffset?: string;
	private child?: ChildProcess;
	/** The readiness check a deployment puts in front of n8n (readinessGate.ts). */
	private readonly gate = new ReadinessGate(() => this.port);
	private exited?: Promise<void>;
	private cookie = '';
	private readonly browserId = crypto.randomUUID();
	private readonly opts: StartOptions;

	constructor(opts: StartOptions = {}) {
		this.opts = opts;
		this.name = opts.name ?? 'n8n';
		this.clockOffset = opts.clockOffset;
		fs.mkdirSync(WORK_DIR, { recursive: true });
		this.userFolder = opts.userFolder ?? fs.mkdtempSync(path.join(WORK_DIR, `${this.name}-`));
		this.n8nFolder = path.join(this.userFolder, '.n8n');
		this.filesDir = opts.filesDir ?? path.join(this.userFolder, 'files');
		fs.mkdirSync(this.filesDir, { recursive: true });
		this.logFile = path.join(this.userFolder, 'n8n.log');
		this.host = opts.host ?? '127.0.0.1';
		const keyFile = path.join(this.userFolder, 'encryption-key');
		if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, crypto.randomBytes(24).toString('hex'));
		this.encryptionKey = fs.readFileSync(keyFile, 'utf8');
	}

	get baseUrl(): string {
		return `http://${this.host}:${this.port}`;
	}

	/** The `n8n start` process's id while it runs (the bench reads its /proc/<pid>/io). */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** Production webhook URL of a path (n8n serves them at /webhook/<path>). */
	webhookUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook/${webhookPath}`;
	}

	/**
	 * The same webhook behind a readiness check, as a deployment routes to it (readinessGate.ts):
	 * for a subscription whose deliveries may be retried while this n8n restarts.
	 */
	readyWebhookUrl(webhookPath: string): string {
		return this.gate.url(`/webhook/${webhookPath}`);
	}

	/** Everything n8n wrote to stdout/stderr so far (all runs of this user folder). */
	logs(): string {
		return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf8') : '';
	}

	async start(): Promise<void> {
		assertRuntimeInstalled();
		installExitHook();
		await this.gate.start();
		if (
			this.opts.withPackage !== false &&
			!fs.existsSync(path.join(this.n8nFolder, 'nodes', 'node_modules', PACKAGE_NAME))
		) {
			fs.mkdirSync(this.n8nFolder, { recursive: true });
			installPackageInto(this.n8nFolder, packPackage());
		}
		this.port = this.opts.port ?? (this.port || (await freePort()));
		this.brokerPort = await freePort();
		// The jest/ts-node parent must not leak its own Node options into Node 24.
		const parentEnv = { ...process.env };
		delete parentEnv.NODE_OPTIONS;
		delete parentEnv.TS_NODE_PROJECT;
		const env: NodeJS.ProcessEnv = {
			...installer.node24Env(parentEnv),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: this.host,
			N8N_PROTOCOL: 'http',
			N8N_WEBHOOK_URL: `http://${this.host}:${this.port}/`,
			N8N_EDITOR_BASE_URL: `http://${this.host}:${this.port}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			DB_TYPE: 'sqlite',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
			N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_PUBLIC_API_DISABLED: 'true',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
			N8N_LOG_LEVEL: 'debug',
			N8N_LOG_OUTPUT: 'console',
			N8N_PYTHON_ENABLED: 'false',
			EXTERNAL_FRONTEND_HOOKS_URLS: '',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			NO_COLOR: '1',
			// jest sets NODE_ENV=test, under which n8n 2.41 exits at once without a word.
			NODE_ENV: 'production',
			...(this.opts.env ?? {}),
		};
		const out = fs.openSync(this.logFile, 'a');
		fs.writeSync(out, `\n===== n8n start ${new Date().toISOString()} port ${this.port} =====\n`);
		const [command, args] = this.clockOffset
			? [faketimeBin(), ['-f', this.clockOffset, installer.NODE24_BIN, N8N_BIN, 'start']]
			: [installer.NODE24_BIN, [N8N_BIN, 'start']];
		const child = spawn(command, args, {
			cwd: this.userFolder,
			env,
			detached: true, // own process group: stop() kills n8n and its task runners together
			stdio: ['ignore', this.opts.echo ? 'pipe' : out, this.opts.echo ? 'pipe' : out],
		});
		if (this.opts.echo) {
			child.stdout!.on('data', (c) => {
				fs.appendFileSync(this.logFile, c);
				process.stdout.write(c);
			});
			child.stderr!.on('data', (c) => {
				fs.appendFileSync(this.logFile, c);
				process.stderr.write(c);
			});
		}
		fs.closeSync(out);
		this.child = child;
		liveGroups.add(child.pid!);
		this.exited = new Promise((resolve) => {
			child.on('exit', () => {
				liveGroups.delete(child.pid!);
				resolve();
			});
		});
		let dead = false;
		void this.exited.then(() => (dead = true));
		try {
			await waitFor(
				async () => {
					if (dead) throw new FatalError('n8n exited during start-up');
					const r = await request(`${this.baseUrl}/healthz/readiness`, { timeoutMs: 2000 });
					if (r.status !== 200) return false;
					// n8n 1.x reports ready before its REST routes are registered.
					const settings = await request(`${this.baseUrl}/rest/settings`, { timeoutMs: 2000 });
					return settings.status === 200;
				},
				'n8n readiness',
				this.opts.timeoutMs ?? 180_000,
				300,
			);
		} catch (err) {
			const tail = this.logs().split('\n').slice(-40).join('\n');
			await this.stop();
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test tooling outside any node: there is no node to attach a NodeApiError to
			throw new Error(
				`${(err as Error).message}\n--- last n8n log lines (${this.logFile}) ---\n${tail}`,
			);
		}
		this.cookie = '';
	}

	/** SIGTERM to the process group, then SIGKILL after `graceMs`. Safe to call twice. */
	async stop(graceMs = 15_000): Promise<void> {
		this.gate.down();
		const child = this.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) {
			this.child = undefined;
			return;
		}
		const pgid = child.pid!;
		try {
			process.kill(-pgid, 'SIGTERM');
		} catch {
			/* gone */
		}
		let timer: NodeJS.Timeout | undefined;
		const timedOut = await Promise.race([
			this.exited!.then(() => false),
			new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
		]);
		clearTimeout(timer);
		// Task runners and anything else left in the group go too.
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			/* gone */
		}
		if (timedOut) await this.exited;
		liveGroups.delete(pgid);
		this.child = undefined;
	}

	/**
	 * Stops n8n and deletes its data (database, installed package, files), keeping only n8n.log
	 * for debugging. Set E2E_KEEP=1 to keep everything.
	 */
	async dispose(): Promise<void> {
		await this.stop();
		await this.gate.close();
		if (process.env.E2E_KEEP === '1') return;
		for (const entry of fs.readdirSync(this.userFolder)) {
			if (entry !== 'n8n.log')
				fs.rmSync(path.join(this.userFolder, entry), { recursive: true, force: true });
		}
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
		await this.login();
	}

	// ---------------------------------------------------------------- REST

	async rest(
		method: string,
		p: string,
		body?: unknown,
		opts: { allowError?: boolean } = {},
	): Promise<any> {
		const r = await this.restRaw(method, p, body);
		if (!opts.allowError && (r.status < 200 || r.status >= 300)) {
			throw new Error(`n8n ${method} /rest${p} → ${r.status}: ${r.text.slice(0, 500)}`);
		}
		const parsed = r.text ? JSON.parse(r.text) : {};
		return opts.allowError ? { status: r.status, ...parsed } : parsed.data;
	}

	async restRaw(method: string, p: string, body?: unknown): Promise<HttpResponse> {
		const headers: Record<string, string> = {
			'browser-id': this.browserId,
			accept: 'application/json',
		};
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const r = await request(`${this.baseUrl}/rest${p}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = r.headers['set-cookie'];
		if (setCookie) {
			const auth = setCookie.map((c) => c.split(';')[0]).find((c) => c.startsWith('n8n-auth='));
			if (auth) this.cookie = auth;
		}
		return r;
	}

	/** Creates the owner on a fresh instance (idempotent), then logs in. */
	async setupOwner(): Promise<void> {
		const settings = await this.rest('GET', '/settings');
		if (settings?.userManagement?.showSetupOnFirstLoad !== false) {
			await this.rest('POST', '/owner/setup', OWNER);
		}
		await this.login();
	}

	async login(): Promise<void> {
		await this.rest('POST', '/login', {
			emailOrLdapLoginId: OWNER.email,
			password: OWNER.password,
		});
	}

	/** Node types n8n has loaded, as the editor receives them. */
	async nodeTypes(): Promise<Array<Record<string, any>>> {
		const r = await request(`${this.baseUrl}/types/nodes.json`, {
			headers: { cookie: this.cookie, 'browser-id': this.browserId },
		});
		if (r.status !== 200) throw new Error(`/types/nodes.json → ${r.status}`);
		return r.json() as Array<Record<string, any>>;
	}

	/** Node types n8n has loaded (names). */
	async nodeTypeNames(): Promise<string[]> {
		return (await this.nodeTypes()).map((n) => n.name as string);
	}

	async credentialTypeNames(): Promise<string[]> {
		const r = await request(`${this.baseUrl}/types/credentials.json`, {
			headers: { cookie: this.cookie, 'browser-id': this.browserId },
		});
		if (r.status !== 200) throw new Error(`/types/credentials.json → ${r.status}`);
		return (r.json() as Array<{ name: string }>).map((n) => n.name);
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		const c = await this.rest('POST', '/credentials', { name, type, data });
		return { id: c.id, name: c.name };
	}

	/**
	 * n8n's credential "Test" button for a saved credential: POST /rest/credentials/test with its id
	 * and data (2.41 requires the id: the editor saves the credential, then tests it).
	 * Answers { status: 'OK' | 'Error', message }.
	 */
	async testCredential(
		cred: { id: string; name: string },
		type: string,
		data: Record<string, unknown>,
	): Promise<{ status: string; message: string }> {
		return await this.rest('POST', '/credentials/test', {
			credentials: { id: cred.id, name: cred.name, type, data },
		});
	}

	/**
	 * Creates a workflow. Its GST Compliance Triggers allow their local Production URL unless a
	 * test sets Allow Local Production URL itself: the emulator delivers over loopback, which no
	 * real service can, and publishing refuses such a URL otherwise.
	 */
	async createWorkflow(wf: WorkflowJson): Promise<{ id: string; versionId: string }> {
		const body = {
			name: wf.name,
			nodes: wf.nodes.map(allowingLocalUrl),
			connections: wf.connections ?? {},
			settings: { executionOrder: 'v1', ...(wf.settings ?? {}) },
			pinData: wf.pinData ?? {},
			active: false,
		};
		const created = await this.rest('POST', '/workflows', body);
		return { id: created.id, versionId: created.versionId };
	}

	/**
	 * Activates ("publishes") a workflow and waits until its triggers are live: n8n 2.41 registers
	 * webhooks asynchronously through a publication outbox, so the activate call returns first.
	 */
	async activateWorkflow(id: string, timeoutMs = 30_000): Promise<void> {
		const wf = await this.rest('GET', `/workflows/${id}`);
		await this.rest('POST', `/workflows/${id}/activate`, { versionId: wf.versionId });
		await waitFor(
			async () => {
				const raw = await this.restRaw('GET', `/workflows/${id}/publication-status`);
				// No publication service (n8n 1.x, or turned off): activation was synchronous.
				if (raw.status === 404 || !/^\s*\{/.test(raw.text)) return true;
				const r = JSON.parse(raw.text) as { data: unknown };
				const st = r.data as {
					status: string;
					triggers: Array<{ status: string; errorMessage?: string }>;
				};
				if (st.status === 'failed' || st.status === 'partial') {
					const why = st.triggers
						.map((t) => t.errorMessage)
						.filter(Boolean)
						.join('; ');
					throw new FatalError(`workflow ${id} failed to activate: ${why}`);
				}
				return st.status === 'published';
			},
			`workflow ${id} to be published`,
			timeoutMs,
			200,
		);
	}

	async deactivateWorkflow(id: string): Promise<void> {
		await this.rest('POST', `/workflows/${id}/deactivate`, {});
	}

	/**
	 * Executions of a workflow, newest first (summaries). Every status is named: without a status
	 * filter n8n (1.x and 2.x) reads running and finished executions in two concurrent queries, so
	 * an execution that finishes between them is in neither (CI once counted 1 for 2 that way).
	 * With the statuses named it is one query, one snapshot.
	 */
	async executions(workflowId?: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(
			JSON.stringify({ ...(workflowId ? { workflowId } : {}), status: ExecutionStatusList }),
		);
		const d = await this.rest('GET', `/executions?filter=${filter}&limit=100`);
		return d.results as ExecutionSummary[];
	}

	/** Waits until `workflowId` has at least `count` finished executions; returns them. */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<ExecutionSummary[]> {
		return await waitFor(
			async () => {
				const list = await this.executions(workflowId);
				const done = list.filter(
					(e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting',
				);
				return done.length >= count ? done : undefined;
			},
			`${count} execution(s) of workflow ${workflowId}`,
			timeoutMs,
			300,
		);
	}

	/** Full execution with its run data decoded. */
	async execution(id: string): Promise<ExecutionDetail> {
		return decodeExecution(await this.rest('GET', `/executions/${id}`));
	}

	/**
	 * The execution, or undefined where n8n has its row but no data to show: n8n 1.x writes an
	 * execution's row and its data in two inserts, and a SIGKILL between them leaves a row its
	 * recovery marks crashed ("missing execution data"), listed, whose page n8n answers 500.
	 */
	async executionIfReadable(id: string): Promise<ExecutionDetail | undefined> {
		const r = await this.restRaw('GET', `/executions/${id}`);
		if (r.status === 500 && r.text.includes("reading 'data'")) return undefined;
		if (r.status < 200 || r.status >= 300)
			throw new Error(`n8n GET /rest/executions/${id} → ${r.status}: ${r.text.slice(0, 500)}`);
		return decodeExecution(JSON.parse(r.text).data);
	}

	/** Output items (json) of a node in an execution; [] if it did not run. */
	async nodeOutput(executionId: string, nodeName: string): Promise<Array<Record<string, any>>> {
		const ex = await this.execution(executionId);
		const runs = ex.data?.resultData?.runData?.[nodeName];
		if (!runs?.length) return [];
		const main = runs[runs.length - 1]?.data?.main ?? [];
		return (main[0] ?? []).map((i: { json: Record<string, any> }) => i.json);
	}
}

export interface WorkflowJson {
	name: string;
	nodes: Array<Record<string, any>>;
	connections?: Record<string, any>;
	settings?: Record<string, any>;
	pinData?: Record<string, any>;
	[k: string]: any;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt: string;
	stoppedAt?: string;
}

export interface ExecutionDetail extends ExecutionSummary {
	data: any;
}

/** An execution as n8n's REST API gives it, its run data decoded. */
function decodeExecution(d: any): ExecutionDetail {
	const data = typeof d.data === 'string' ? flattedParse(d.data) : d.data;
	return { ...d, data };
}

/** n8n stores run data with `flatted`; use n8n's own copy from the runtime. */
function flattedParse(s: string): any {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- n8n's own copy of flatted, loaded from the e2e runtime by path
	const flatted = require(
		require.resolve('flatted', { paths: [path.join(installer.NODE_MODULES, 'n8n')] }),
	);
	return flatted.parse(s);
}

/** Starts n8n, sets up the owner and waits until our node types are loaded (if installed). */
export async function startN8n(opts: StartOptions = {}): Promise<N8n> {
	const n8n = new N8n(opts);
	await n8n.start();
	await n8n.setupOwner();
	if (opts.withPackage !== false) {
		await waitFor(
			async () => (await n8n.nodeTypeNames()).includes(NODE_TYPES.trigger),
			'our node types to be loaded',
			30_000,
		);
	}
	return n8n;
}

export function tmpName(prefix: string): string {
	return `${prefix}-${crypto.randomBytes(4).toString('hex')}`;
}

export const HOSTNAME = os.hostname();

/** A GST Compliance Trigger with Allow Local Production URL on, unless the option is set already. */
function allowingLocalUrl(node: Record<string, any>): Record<string, any> {
	if (node.type !== NODE_TYPES.trigger) return node;
	const options = (node.parameters?.options ?? {}) as Record<string, unknown>;
	if ('allowLocalUrl' in options) return node;
	return {
		...node,
		parameters: { ...node.parameters, options: { ...options, allowLocalUrl: true } },
	};
}
