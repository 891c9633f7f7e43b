/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * The package as n8n verifies and installs it.
 *
 * n8n's verification scan (`@n8n/scan-community-package`, pinned in devDependencies) on this
 * repository, both lint passes, so a regression fails `npm test` and CI before n8n sees it:
 *
 * - source: the rule set of `n8n-node lint` on package.json and nodes/ + credentials/ (what the
 *   scanner lints in the source commit named by the npm provenance statement);
 * - tarball: the compiled .js files and package.json of the `npm pack` tarball, built here in a
 *   scratch copy of the package so the repository's dist/ (which the e2e tests install into n8n)
 *   is not rebuilt underneath them.
 *
 * The scanner ignores inline `eslint-disable` comments (`allowInlineConfig: false`), so shipped
 * code cannot pass by switching a rule off. test/package/scan.mjs runs its `analyzePackage`.
 *
 * Shipped code switches no rule off inline.
 *
 * The tarball's entry point (index.js, package.json "main") exports the classes n8n loads through
 * package.json's "n8n" field, no more and no fewer, under their installed names.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const SCAN = path.join(__dirname, 'scan.mjs');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
};

interface ScanResult {
	pass: 'source' | 'tarball';
	files: string[];
	passed: boolean;
	message: string | null;
	details: string | null;
}

/**
 * jest sets NODE_ENV=test, which makes eslint-plugin-n8n-nodes-base lint as in its own test suite
 * (fixed fake file names, skipped package.json checks); the scan and the build run without it, as
 * they do in n8n's verification.
 */
const env = { ...process.env };
delete env.NODE_ENV;

function run(cmd: string, args: string[], cwd: string): string {
	const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (r.error) throw r.error;
	if (r.status !== 0) {
		throw new Error(
			`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`,
		);
	}
	return r.stdout;
}

function scan(pass: ScanResult['pass'], dir: string): ScanResult {
	const out = run(process.execPath, [SCAN, pass, dir], ROOT);
	return JSON.parse(out.trim().split('\n').pop()!) as ScanResult;
}

/** The scanner's report, with paths relative to the scanned directory, for a readable failure. */
function report(result: ScanResult, dir: string): string {
	return `${result.message ?? 'passed'}\n${(result.details ?? '').split(dir + path.sep).join('')}`;
}

let scratch: string;
/** The release tarball of the current sources (`npm run release:pack`), and it unpacked. */
let tarball: string;
let unpacked: string;

beforeAll(() => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gst-package-'));
	// A scratch copy of everything the build reads, with the repository's node_modules linked in.
	const copy = path.join(scratch, 'package');
	const skip = new Set(['node_modules', 'dist', '.git', 'test', 'bench', 'coverage', 'docs']);
	fs.cpSync(ROOT, copy, {
		recursive: true,
		filter: (src) => {
			const rel = path.relative(ROOT, src);
			return !skip.has(rel.split(path.sep)[0]) && !rel.endsWith('.tgz');
		},
	});
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
	run('npm', ['run', 'build', '--silent'], copy);
	// The command the publish workflow runs (lifecycle scripts on: prepack rewrites the README).
	tarball = path.join(
		copy,
		run('npm', ['run', '--silent', 'release:pack'], copy).trim().split('\n').pop()!,
	);
	unpacked = path.join(scratch, 'unpacked');
	fs.mkdirSync(unpacked);
	run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], scratch);
}, 180_000);

afterAll(() => {
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('@n8n/scan-community-package lint passes', () => {
	it('source: package.json, nodes/ and credentials/ have no violations', () => {
		const result = scan('source', ROOT);
		// analyzePackage passes when it finds no file at all; make sure it linted the real sources.
		expect(result.files).toEqual(
			expect.arrayContaining([
				'package.json',
				'nodes/GstCompliance/GstCompliance.node.ts',
				'nodes/GstCompliance/GstComplianceTrigger.node.ts',
				'credentials/GstComplianceApi.credentials.ts',
				'credentials/GstComplianceWebhookApi.credentials.ts',
			]),
		);
		expect(report(result, ROOT)).toBe('passed\n');
		expect(result.passed).toBe(true);
	});

	it('tarball: the packed index.js, dist/ and package.json have no violations', () => {
		const result = scan('tarball', unpacked);
		expect(result.files).toEqual(
			expect.arrayContaining([
				'package.json',
				'index.js',
				...[...pkg.n8n.nodes, ...pkg.n8n.credentials].map((f) => path.posix.normalize(f)),
			]),
		);
		expect(report(result, unpacked)).toBe('passed\n');
		expect(result.passed).toBe(true);
	});
});

describe('shipped code', () => {
	it('switches no lint rule off inline (nodes/, credentials/)', () => {
		// n8n-node lint honours inline directives, the scanner does not: shipped code carries none,
		// so every lint sees every rule.
		const directive = /\/[*/]\s*eslint(-disable|-enable|\s)/;
		const offending: string[] = [];
		const walk = (dir: string) => {
			for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) walk(full);
				else if (/\.(ts|js)$/.test(entry.name)) {
					fs.readFileSync(full, 'utf8')
						.split('\n')
						.forEach((line, i) => {
							if (directive.test(line)) offending.push(`${path.relative(ROOT, full)}:${i + 1}`);
						});
				}
			}
		};
		const shipped = ['nodes', 'credentials'].map((d) => path.join(ROOT, d));
		shipped.forEach(walk);
		expect(shipped.every((d) => fs.existsSync(d))).toBe(true);
		expect(offending).toEqual([]);
	});
});

describe('the published entry point (index.js)', () => {
	it('exports exactly the classes of package.json "n8n", under the installed names', () => {
		// n8n-workflow (a peer dependency) resolves from the repository's node_modules.
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(unpacked, 'node_modules'), 'dir');
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the unpacked tarball, by path, as a user's require resolves it
		const entry = require(unpacked) as Record<string, new () => object>;
		const fromN8nField = (files: string[]) =>
			Object.assign(
				{},
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- the files package.json "n8n" lists, by path
				...files.map((f) => require(path.join(unpacked, f)) as Record<string, unknown>),
			) as Record<string, new () => object>;
		const nodes = fromN8nField(pkg.n8n.nodes);
		const credentials = fromN8nField(pkg.n8n.credentials);

		expect(Object.keys(entry).sort()).toEqual(
			[...Object.keys(nodes), ...Object.keys(credentials)].sort(),
		);
		for (const [name, cls] of Object.entries({ ...nodes, ...credentials })) {
			expect(entry[name]).toBe(cls);
		}
		const nodeNames = Object.values(nodes).map(
			(Node) => (new Node() as { description: { name: string } }).description.name,
		);
		const credentialNames = Object.values(credentials).map(
			(Credential) => (new Credential() as { name: string }).name,
		);
		expect(nodeNames.sort()).toEqual(['gstCompliance', 'gstComplianceTrigger']);
		expect(credentialNames.sort()).toEqual([
			'gstComplianceApi',
			'gstComplianceRedisApi',
			'gstComplianceWebhookApi',
		]);
	});
});

describe('the release publishes the tarball tested here', () => {
	it.each(['.github/workflows/publish.yml', '.ci/run'])(
		'%s → npm publish of the tarball `npm run release:pack` makes, never a pack of its own',
		(file) => {
			const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
			const publishes = text
				.split('\n')
				.filter((line) => /^\s*npm publish\b/.test(line))
				.map((line) => line.trim().split(' ').slice(0, 3).join(' '));
			expect(publishes).toEqual(['npm publish "./$tarball"']);
			expect(text).toContain('tarball="$(npm run --silent release:pack | tail -n 1)"');
		},
	);

	it("npm publish of that tarball, with this repository's .npmrc → sends its README, rewritten for npm", () => {
		type Files = Array<{ path: string; size: number }>;
		const dry = JSON.parse(
			run(
				'npm',
				['publish', tarball, '--dry-run', '--json', '--access', 'public'],
				path.join(scratch, 'package'),
			),
		) as { files?: Files; [name: string]: unknown };
		// npm 10 prints the package's report, npm 11 the same report under the package's name.
		const files = dry.files ?? (Object.values(dry)[0] as { files: Files }).files;
		const readme = files.find((file) => file.path === 'README.md');
		expect(readme?.size).toBe(fs.statSync(path.join(unpacked, 'README.md')).size);
		expect(readme?.size).not.toBe(fs.statSync(path.join(ROOT, 'README.md')).size);
	});
});

describe('the tarball', () => {
	it("README: every relative link and image points at the released version's file on GitHub, which exists", () => {
		const packed = fs.readFileSync(path.join(unpacked, 'README.md'), 'utf8');
		const repo = 'https://github.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance';
		const raw =
			'https://raw.githubusercontent.com/n8n-nodes-gst-compliance/n8n-nodes-gst-compliance';
		const targets = [...packed.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map(
			([, bang, target]) => ({
				image: bang === '!',
				target,
			}),
		);
		expect(targets.filter(({ target }) => !/^([a-z]+:|#)/i.test(target))).toEqual([]);
		const ours = targets.filter(({ target }) => target.startsWith(repo) || target.startsWith(raw));
		expect(ours.length).toBeGreaterThan(20);
		for (const { image, target } of ours) {
			const prefix = image ? `${raw}/v${pkg.version}/` : `${repo}/blob/v${pkg.version}/`;
			expect(target.startsWith(prefix)).toBe(true);
			const file = target.slice(prefix.length).split('#')[0];
			expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
		}
		// The repository's README is left as it is.
		const original = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
		expect(original).toContain('](docs/screenshots/trigger-node.png)');
		expect(fs.existsSync(path.join(scratch, 'package', '.readme-original.md'))).toBe(false);
		expect(fs.readFileSync(path.join(scratch, 'package', 'README.md'), 'utf8')).toBe(original);
	});

	it("ships one README: not the backup of the repository's README the pack keeps meanwhile", () => {
		expect(fs.readdirSync(unpacked).filter((file) => /readme/i.test(file))).toEqual(['README.md']);
	});

	it('ships no source map (its TypeScript sources are not shipped)', () => {
		const maps = fs
			.readdirSync(unpacked, { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.map') && !file.startsWith('node_modules'));
		expect(maps).toEqual([]);
	});
});

describe('the release workflow', () => {
	/** The container image each workflow's `.ci/run` job runs in. */
	const ciImage = (workflow: string) =>
		/^\s*container:\s*(\S+)/m.exec(
			fs.readFileSync(path.join(ROOT, '.github', 'workflows', workflow), 'utf8'),
		)?.[1];

	it('runs .ci/run in the same image (the same Node) as CI', () => {
		expect(ciImage('ci.yml')).toMatch(/^node:\d+-/);
		expect(ciImage('publish.yml')).toBe(ciImage('ci.yml'));
	});
});
