/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n; it starts redis-cli, openssl and a Node process */
/**
 * The GST Compliance Dedupe Redis credential's Test button against real redis-servers (started
 * here; missing, the suite fails with the command that installs it): it fails wherever the
 * trigger's first delivery would (an ACL without a command the scripts run, a read-only replica),
 * leaves no key behind, and reaches a Redis Cluster over TLS whose certificate names its host.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Redis from 'ioredis';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { testRedisCredential } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisCredential';
import {
	REDIS_ADVICE,
	REDIS_COMMANDS,
} from '@/nodes/GstCompliance/trigger/dedupe/redis/redisFailure';
import { REDIS_PREFIX } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { freePort, waitFor } from '@/test/harness/http';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the plain-Node installer of the test services
const installer = require('@/test/harness/queue/installServices.js') as {
	redisCli(): string | undefined;
};

jest.setTimeout(90_000);

const CREDENTIAL_MODULE = require.resolve(
	'../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/redisCredential',
);

const PASSWORD = 'redis-test-button-Pa55word';
let master: RunningRedis;
let replica: RunningRedis;

beforeAll(async () => {
	master = await startRedis('test-button-master', { password: PASSWORD });
	replica = await startRedis('test-button-replica', {
		password: PASSWORD,
		args: ['--replicaof', master.host, String(master.port), '--masterauth', PASSWORD],
	});
});

afterAll(async () => {
	await replica?.dispose();
	await master?.dispose();
});

const credential = (server: RunningRedis, extra: ICredentialDataDecryptedObject = {}) => ({
	host: server.host,
	port: server.port,
	password: PASSWORD,
	...extra,
});

/** Grants an ACL user exactly `commands` on the package's keys. */
async function aclUser(name: string, commands: string): Promise<ICredentialDataDecryptedObject> {
	const admin = new Redis({ ...credential(master) });
	await admin.call(
		'ACL',
		'SETUSER',
		name,
		'reset',
		'on',
		'>gst-Pa55word',
		'~n8n-gst-compliance:*',
		...commands.split(' '),
	);
	admin.disconnect();
	return credential(master, { user: name, password: 'gst-Pa55word' });
}

/** As ACL SETUSER takes them: `+get`, `+client|setname`. */
const rules = (commands: readonly string[]) =>
	commands.map((name) => `+${name.toLowerCase().replace(' ', '|')}`).join(' ');
/** The commands the advice and docs/deployments.md name for a single Redis on database 0. */
const NAMED = rules(REDIS_COMMANDS.always);

describe('the Test runs what the trigger runs, so it fails where a delivery would', () => {
	// That the list is what the package runs: redisFailure.test.ts.
	it('the ACL list of the advice and of docs/deployments.md is the one granted here', () => {
		const listed = REDIS_COMMANDS.always.join(', ');
		expect(REDIS_ADVICE.auth).toContain(`lets it run ${listed}, SELECT (where Database is not 0)`);
		const docs = fs.readFileSync(
			path.join(__dirname, '../../../../../../../docs/deployments.md'),
			'utf8',
		);
		expect(docs).toContain(`the ACL (${listed}, SELECT (where Database is not 0)`);
	});

	it('Test as a user granted the commands the advice names → OK', async () => {
		const result = await testRedisCredential(await aclUser('button-named', NAMED));
		expect(result).toEqual({
			status: 'OK',
			message: `Connected to Redis at ${master.host}:${master.port} (db 0)`,
		});
	});

	// ioredis SELECTs on connecting and, refused, goes on in database 0: every id would land there.
	it('Test as that user with Database 1 → Error: SELECT refused, the ACL advice, not "Connected"', async () => {
		const result = await testRedisCredential({
			...(await aclUser('button-named-db1', NAMED)),
			database: 1,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Redis dedupe store at .* \(db 1\) unavailable: NOPERM .*'select'/,
		);
		expect(result.message).toContain(REDIS_ADVICE.auth);
	});

	it('Test as a user granted them and SELECT, with Database 1 → OK, connected to db 1', async () => {
		const result = await testRedisCredential({
			...(await aclUser('button-named-select', `${NAMED} +select`)),
			database: 1,
		});
		expect(result).toEqual({
			status: 'OK',
			message: `Connected to Redis at ${master.host}:${master.port} (db 1)`,
		});
	});

	it('Test with a wrong password → Error: refused the credential, not "Connection is closed"', async () => {
		const result = await testRedisCredential(credential(master, { password: 'not-the-Pa55word' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/unavailable: WRONGPASS .*Redis refused the credential/);
		expect(result.message).not.toContain('not-the-Pa55word');
	});

	it.each([
		['TIME (run inside the scripts)', '+time'],
		['EVAL', '+eval'],
		['ZADD', '+zadd'],
		['DEL', '+del'],
		['WAIT (a start runs it only where there are replicas)', '+wait'],
	])(
		'Test as a user without %s → Error: the permission, as the delivery would be refused',
		async (_, missing) => {
			const result = await testRedisCredential(
				await aclUser(`button-no-${missing.slice(1)}`, NAMED.replace(` ${missing}`, '')),
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/refused the credential.*ACL permission lets it run GET, SET, DEL, EVAL, TIME/,
			);
		},
	);

	it('Test with Host naming a read-only replica → Error: point at the current master', async () => {
		const result = await testRedisCredential(credential(replica));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/read-only replica.*current master/);
	});

	// The replica barrier's marker (replicaWait.ts) is the store's, one per server, expiring in 60 s.
	it('Test leaves no key of its own behind', async () => {
		const admin = new Redis({ ...credential(master) });
		const before = await admin.keys(`${REDIS_PREFIX}:*`);
		expect((await testRedisCredential(credential(master))).status).toBe('OK');
		const after = await admin.keys(`${REDIS_PREFIX}:*`);
		admin.disconnect();
		const probes = (keys: string[]) =>
			keys.filter((key) => !key.endsWith(':replica-barrier')).sort();
		expect(probes(after)).toEqual(probes(before));
	});
});

describe('a Redis Cluster over TLS whose certificate names its host (managed cluster-mode services)', () => {
	let dir: string;
	let server: RunningRedis;
	let tlsPort: number;

	beforeAll(async () => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-tls-cluster-'));
		const openssl = (...args: string[]) => {
			const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
			if (run.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${run.stderr}`);
		};
		openssl(
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=test CA',
			'-keyout',
			'ca.key',
			'-out',
			'ca.crt',
		);
		openssl(
			'req',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-subj',
			'/CN=localhost',
			'-keyout',
			'srv.key',
			'-out',
			'srv.csr',
		);
		fs.writeFileSync(path.join(dir, 'ext'), 'subjectAltName=DNS:localhost\n');
		openssl(
			'x509',
			'-req',
			'-in',
			'srv.csr',
			'-CA',
			'ca.crt',
			'-CAkey',
			'ca.key',
			'-CAcreateserial',
			'-days',
			'2',
			'-extfile',
			'ext',
			'-out',
			'srv.crt',
		);
		tlsPort = await freePort();
		server = await startRedis('tls-cluster', {
			password: PASSWORD,
			args: [
				'--tls-port',
				String(tlsPort),
				'--tls-cert-file',
				path.join(dir, 'srv.crt'),
				'--tls-key-file',
				path.join(dir, 'srv.key'),
				'--tls-ca-cert-file',
				path.join(dir, 'ca.crt'),
				'--tls-auth-clients',
				'no',
				'--tls-cluster',
				'yes',
				'--cluster-enabled',
				'yes',
				'--cluster-node-timeout',
				'2000',
				// As managed cluster-mode services answer CLUSTER SLOTS: host names, not IPs.
				'--cluster-announce-hostname',
				'localhost',
				'--cluster-preferred-endpoint-type',
				'hostname',
			],
		});
		const cli = installer.redisCli()!;
		const auth = ['-a', PASSWORD, '--no-auth-warning', '-p', String(server.port)];
		spawnSync(cli, [...auth, 'cluster', 'addslotsrange', '0', '16383'], { encoding: 'utf8' });
		await waitFor(
			async () =>
				spawnSync(cli, [...auth, 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes(
					'cluster_state:ok',
				),
			'the TLS cluster to report cluster_state:ok',
			30_000,
			200,
		);
	});

	afterAll(async () => {
		await server?.dispose();
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	});

	/**
	 * The Test in a Node process that trusts the test's own CA as n8n would trust a private one
	 * (NODE_EXTRA_CA_CERTS, read at start-up only): TLS still checks that the certificate names the
	 * host it was asked for.
	 */
	const testTrusting = async (data: ICredentialDataDecryptedObject) => {
		const run = spawnSync(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				'-e',
				`require(${JSON.stringify(CREDENTIAL_MODULE)}).testRedisCredential(${JSON.stringify(data)}).then((r) => console.log(JSON.stringify(r)))`,
			],
			{
				encoding: 'utf8',
				env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.crt') },
				timeout: 60_000,
			},
		);
		const line = run.stdout.trim().split('\n').pop() ?? '';
		if (!line.startsWith('{')) throw new Error(`the Test did not answer: ${run.stderr}`);
		return JSON.parse(line) as { status: string; message: string };
	};

	const clusterCredential = (extra: ICredentialDataDecryptedObject = {}) => ({
		deployment: 'cluster',
		clusterNodes: `localhost:${tlsPort}`,
		password: PASSWORD,
		ssl: true,
		...extra,
	});

	it('Test with the cluster node named as the certificate names it → OK, verified', async () => {
		const result = await testTrusting(clusterCredential());
		expect(result).toMatchObject({ status: 'OK' });
	});

	it('Test with a wrong password → Error naming the refusal, not "None of startup nodes"', async () => {
		const result = await testTrusting(clusterCredential({ password: 'not-the-Pa55word' }));
		expect(result.status).toBe('Error');
		expect(result.message).not.toMatch(/None of startup nodes/);
		expect(result.message).toMatch(/WRONGPASS|refused the credential/);
	});

	it('Test with the node named by an IP the certificate does not name → Error naming the certificate', async () => {
		const result = await testRedisCredential(
			clusterCredential({ clusterNodes: `127.0.0.1:${tlsPort}` }),
		);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/certificate/i);
	});
});
