/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * What the repository's documents tell a reader, against what the repository has: a figure, a
 * command or a name found in the docs is one the reader can trust.
 *
 * - A ratio (`0.9×`) quoted outside docs/benchmarks.md's generated table is one the table holds:
 *   a goal of its Goal column or a value of its Ratio column. Prose states the rule and points at
 *   the row; a copied figure drifts from the next run.
 * - `npm run <script>` names a script of package.json.
 * - A code name in backticks (`camelCase`, `PascalCase`, `UPPER_SNAKE`) is defined in this
 *   repository (or names one of its files), or in the n8n the e2e tests run (test/e2e/runtime,
 *   installed by the project's globalSetup): the docs cite n8n's own internals by name.
 * - A path in backticks that starts at a folder of this repository, or names a TypeScript file,
 *   is a tracked file or folder (checked as a suffix, since docs name paths from the folder they
 *   talk about), unless git ignores it (dist/, the e2e work folders).
 *
 * - docs/testing.md's table of mutation scores is what the committed records hold
 *   (test/mutation/scores.js, which `npm run test:mutation` rewrites it with).
 *
 * The documents: every tracked Markdown file, and the comments of the shipped sources, which quote
 * measured figures as readily as the docs do.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

// CommonJS beside test/mutation/run.mjs, which rewrites the table with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mutationScores = require('@/test/mutation/scores.js') as {
	DOC: string;
	documentWithScores(text: string): string;
};

const ROOT = path.resolve(__dirname, '..', '..');
const RUNTIME = path.join(ROOT, 'test', 'e2e', 'runtime', 'node_modules');
/** Where n8n's own names live in the runtime's build. */
const N8N_BUILDS = ['n8n/dist', 'n8n-core/dist', 'n8n-workflow/dist', '@n8n'];

function git(args: string[], input?: string): string {
	const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', input, maxBuffer: 1 << 26 });
	if (r.error) throw r.error;
	return r.stdout;
}

const tracked = git(['ls-files']).split('\n').filter(Boolean);
const GENERATED = /(^|\/)(incremental\/[^/]+\.json|package-lock\.json)$|\.(png|svg|jpg)$/;
const markdown = tracked.filter((file) => file.endsWith('.md'));
const shippedSources = tracked.filter((file) => /^(nodes|credentials)\/.*\.ts$/.test(file));

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The numbers of `N×` and `N–M×` quotes in a text (a space before × is a product, not a ratio). */
function quotedRatios(text: string): number[] {
	const found: number[] = [];
	for (const m of text.matchAll(/(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?×/g)) {
		found.push(Number(m[1]));
		if (m[2] !== undefined) found.push(Number(m[2]));
	}
	return found;
}

/** docs/benchmarks.md's generated table: its lines, and every number of its Ratio and Goal cells. */
function benchmarkTable(text: string): { lines: Set<string>; figures: Set<number> } {
	const lines = text.split('\n').filter((line) => line.startsWith('|'));
	const header = lines[0]?.split('|').map((cell) => cell.trim()) ?? [];
	const ratioAt = header.indexOf('Ratio / figure');
	const goalAt = header.indexOf('Goal');
	if (ratioAt < 0 || goalAt < 0)
		throw new Error('docs/benchmarks.md has no table with "Ratio / figure" and "Goal" columns');
	const figures = new Set<number>();
	for (const line of lines.slice(2)) {
		const cells = line.split('|').map((cell) => cell.trim());
		for (const n of cells[ratioAt]?.match(/\d+(?:\.\d+)?/g) ?? []) figures.add(Number(n));
		for (const n of quotedRatios(cells[goalAt] ?? '')) figures.add(n);
	}
	return { lines: new Set(lines), figures };
}

/** `npm run <script>` in a text. */
function npmScripts(text: string): string[] {
	return [...text.matchAll(/npm run ([\w:.-]*\w)/g)].map((m) => m[1]);
}

/** Code names inside backticks: camelCase, PascalCase with an inner capital, UPPER_SNAKE. */
function codeNames(text: string): string[] {
	const names: string[] = [];
	for (const span of text.matchAll(/`([^`\n]+)`/g))
		for (const m of span[1].matchAll(
			/(?<![\w$.-])([a-z][a-z0-9]*[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w-])/g,
		))
			names.push(m[1]);
	return names;
}

/** Paths inside backticks worth checking: from a folder of this repository, or a .ts file. */
function repositoryPaths(text: string, topLevel: ReadonlySet<string>): string[] {
	return [...text.matchAll(/`([\w.-]+(?:\/[\w.-]*)+)`/g)]
		.map((m) => m[1])
		.filter((p) => topLevel.has(p.split('/')[0]) || p.endsWith('.ts'));
}

let documentLinesRead: Array<[string, number, string]> | undefined;

/** Where the docs are checked, line by line: [file, line number, text] outside the table; read once. */
function documentLines(): Array<[string, number, string]> {
	if (documentLinesRead) return documentLinesRead;
	const table = benchmarkTable(read('docs/benchmarks.md')).lines;
	const out: Array<[string, number, string]> = [];
	for (const file of [...markdown, ...shippedSources])
		read(file)
			.split('\n')
			.forEach((line, i) => {
				if (!(file === 'docs/benchmarks.md' && table.has(line))) out.push([file, i + 1, line]);
			});
	documentLinesRead = out;
	return out;
}

describe('the checks find what they look for', () => {
	it('quotedRatios("about 3.6× one HMAC, 1.3–1.9× longer, 16 `v1` × 2") → [3.6, 1.3, 1.9]', () => {
		expect(quotedRatios('about 3.6× one HMAC, 1.3–1.9× longer, 16 `v1` × 2')).toEqual([
			3.6, 1.3, 1.9,
		]);
	});

	it('benchmarkTable → the Ratio cells (median, min, max) and the Goal cells’ ratios', () => {
		const table = [
			'| # | Measure | Ratio / figure | Goal | Result |',
			'| --- | --- | --- | --- | --- |',
			'| 6 | events/s | 0.61 [0.57–0.67] | ≥ 0.9× | MISSED |',
			'| 5 | GETs | 3.14 | ours ≥ 1.5× faster | met |',
		].join('\n');
		expect(
			[...benchmarkTable(`# B\n\n${table}\n\nprose 2.5×`).figures].sort((a, b) => a - b),
		).toEqual([0.57, 0.61, 0.67, 0.9, 1.5, 3.14]);
	});

	it('npmScripts / codeNames / repositoryPaths pick commands, names and our paths only', () => {
		expect(npmScripts('run `npm run test:mutation -- --full`, then npm run bench.')).toEqual([
			'test:mutation',
			'bench',
		]);
		expect(
			codeNames('`deliverOnce(x)`, `LiveWebhooks.executeWebhook`, `WAIT 1 1000`, `$json`'),
		).toEqual(['deliverOnce', 'LiveWebhooks']);
		expect(
			repositoryPaths(
				'`nodes/a/b.ts`, `redis/x.ts`, `application/json`, `dist/`',
				new Set(['nodes']),
			),
		).toEqual(['nodes/a/b.ts', 'redis/x.ts']);
	});
});

describe('docs quote only what is there', () => {
	it('every ratio quoted outside the generated table is a goal or a value of that table', () => {
		const { figures } = benchmarkTable(read('docs/benchmarks.md'));
		expect(figures.size).toBeGreaterThan(10);
		const stray = documentLines().flatMap(([file, line, text]) =>
			quotedRatios(text)
				.filter((n) => !figures.has(n))
				.map(
					(n) =>
						`${file}:${line}: ${n}× is not in docs/benchmarks.md's table — link the row instead`,
				),
		);
		expect(stray).toEqual([]);
	});

	it('every `npm run <script>` names a script of package.json', () => {
		const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
			.scripts;
		const unknown = documentLines().flatMap(([file, line, text]) =>
			npmScripts(text)
				.filter((name) => !(name in scripts))
				.map((name) => `${file}:${line}: npm run ${name} (package.json has no such script)`),
		);
		expect(unknown).toEqual([]);
	});

	it('every code name in backticks is defined in this repository or in the n8n the tests run', () => {
		const corpus = tracked
			.filter((file) => !file.endsWith('.md') && !GENERATED.test(file))
			.filter((file) => fs.existsSync(path.join(ROOT, file)))
			.map(read)
			.join('\n');
		const stems = new Set(tracked.map((file) => path.basename(file).split('.')[0]));
		const builds = N8N_BUILDS.map((dir) => path.join(RUNTIME, dir));
		const missingBuild = builds.filter((dir) => !fs.existsSync(dir));
		if (missingBuild.length > 0)
			throw new Error(
				`n8n's build is not installed (${missingBuild.join(', ')}): run npm run e2e:install`,
			);
		const inN8n = (name: string) =>
			spawnSync('grep', ['-rqw', '--include=*.js', name, ...builds]).status === 0;
		const known = new Map<string, boolean>();
		const defined = (name: string) => {
			if (!known.has(name))
				known.set(name, stems.has(name) || new RegExp(`\\b${name}\\b`).test(corpus) || inN8n(name));
			return known.get(name)!;
		};
		const unknown = documentLines().flatMap(([file, line, text]) =>
			codeNames(text)
				.filter((name) => !defined(name))
				.map((name) => `${file}:${line}: \`${name}\` is defined nowhere`),
		);
		expect(unknown).toEqual([]);
	});

	it('every repository path in backticks is a tracked file or folder', () => {
		const entries = new Set(tracked);
		for (const file of tracked)
			for (let at = file.indexOf('/'); at > 0; at = file.indexOf('/', at + 1))
				entries.add(file.slice(0, at));
		const topLevel = new Set([...entries].map((entry) => entry.split('/')[0]));
		const exists = (p: string) => {
			const bare = p.replace(/\/$/, '');
			return [...entries].some((entry) => entry === bare || entry.endsWith(`/${bare}`));
		};
		const candidates = documentLines().flatMap(([file, line, text]) =>
			repositoryPaths(text, topLevel)
				.filter((p) => !exists(p))
				.map((p) => ({ p, where: `${file}:${line}: ${p}` })),
		);
		const ignored = new Set(
			git(['check-ignore', '--no-index', '--stdin'], candidates.map((c) => c.p).join('\n'))
				.split('\n')
				.filter(Boolean),
		);
		expect(candidates.filter((c) => !ignored.has(c.p)).map((c) => c.where)).toEqual([]);
	});

	it("docs/testing.md's mutation scores are those of the committed records", () => {
		const text = fs.readFileSync(mutationScores.DOC, 'utf8');
		expect(text).toBe(mutationScores.documentWithScores(text));
	});
});

describe('the docs’ thresholds are the generated table’s', () => {
	it('ATTACH_REDIS_FROM is the largest store size whose item-9 rate rows meet their goal, and every doc quoting it says the same', () => {
		const table = read('docs/benchmarks.md')
			.split('\n')
			.filter((line) => line.startsWith('| 9 '));
		// The row on the constant: the largest size every database kept in that run, and its verdict.
		const threshold = table
			.map((line) => line.split('|').map((cell) => cell.trim()))
			.find((cells) => cells[2].startsWith('The largest size every database keeps'));
		expect(threshold).toBeDefined();
		const [figure, verdict] = [Number(threshold![5].replace(/,/g, '')), threshold![7]];
		// Every size up to it met its goal on each database; the larger ones carry none.
		const rates = table
			.map((line) =>
				/built-in store with ([\d,]+) ids: events\/s .*\|\s*(met|MISSED|—)\s*\|\s*$/.exec(line),
			)
			.filter((m): m is RegExpExecArray => m !== null)
			.map((m) => ({ size: Number(m[1].replace(/,/g, '')), verdict: m[2] }));
		expect(rates.length).toBeGreaterThan(1);
		for (const { size, verdict: rate } of rates)
			expect([size, rate]).toEqual([size, size <= figure ? 'met' : '—']);
		const source = read('nodes/GstCompliance/trigger/dedupe/memory/capacity.ts');
		const constant = Number(/ATTACH_REDIS_FROM = ([\d_]+)/.exec(source)?.[1].replace(/_/g, ''));
		expect([constant, verdict]).toEqual([figure, 'met']);
		// Every way the docs state the threshold; a range measured ("10,000 to 100,000 ids") is not one.
		const statements = [
			/Attach Redis above ~?([\d,]+) events per\s+window/g,
			/more than ~?([\d,]+) (?:distinct )?events (?:per\s+(?:dedupe\s+)?window|a day)/g,
			/up to ~?([\d,]+) events per\s+window/g,
			/[Ff]rom ~?([\d,]+) (?:remembered )?ids/g,
			/([\d,]+) is\s+the\s+largest size/g,
		];
		const quotes = markdown.flatMap((file) =>
			statements.flatMap((statement) =>
				[...read(file).matchAll(statement)].map((m) => `${file}: ${m[1]}`),
			),
		);
		for (const file of ['docs/deployments.md', 'docs/guarantees.md'])
			expect(quotes.filter((q) => q.startsWith(`${file}: `)).length).toBeGreaterThan(0);
		expect(quotes.filter((q) => Number(q.split(': ')[1].replace(/,/g, '')) !== constant)).toEqual(
			[],
		);
	});
});

describe('the README, for the npm reader first', () => {
	const readme = read('README.md');
	const sections = readme
		.split('\n')
		.filter((line) => line.startsWith('## '))
		.map((line) => line.slice(3));

	it('is at most 300 lines', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
	});

	it('runs Installation → Credentials → first workflow → Templates → Troubleshooting, operator and contributor material after', () => {
		const at = (name: string) => sections.findIndex((section) => section.startsWith(name));
		const order = [
			'Installation',
			'Credentials',
			'Your first workflow',
			'Templates',
			'Troubleshooting',
			'Compatibility',
			'For contributors',
		].map((name) => [name, at(name)] as const);
		expect(order.every(([, index]) => index >= 0)).toBe(true);
		expect(order.map(([, index]) => index)).toEqual(
			[...order.map(([, i]) => i)].sort((a, b) => a - b),
		);
	});

	it('keeps the two commands of a clone (the demo and the tests) that .ci/run runs', () => {
		expect(readme).toMatch(/npm ci && npm run demo/);
		expect(readme).toMatch(/^npm test {2,}#/m);
		expect(read('.ci/run')).toMatch(/^npm test$/m);
	});

	it('promises no message n8n never shows (a passing Test shows only "Connection tested successfully")', () => {
		expect(readme).not.toMatch(/Connected to Sandbox/);
	});

	/** The text of the `## <name>` section. */
	const section = (name: string) =>
		new RegExp(`\\n## ${name}[^\\n]*\\n([\\s\\S]*?)(?=\\n## |$)`).exec(readme)?.[1] ?? '';

	it('Installation: self-hosted n8n, by the instance owner, until n8n verifies the package; n8n Cloud named nowhere else', () => {
		const installation = section('Installation');
		expect(installation).toMatch(
			/Until n8n verifies the package.*self-hosted n8n.*instance owner/s,
		);
		expect(installation).toMatch(
			/Verified nodes install from\s+the nodes panel,\s+n8n Cloud included/,
		);
		expect(readme.replace(installation, '')).not.toMatch(/Cloud/);
	});

	it('first workflow: the service calls the URL over the internet (no localhost or private address; WEBHOOK_URL or a tunnel), and the Production URL is a subscription with its own secret', () => {
		const first = section('Your first workflow');
		expect(first).toMatch(
			/over the internet.*`http:\/\/localhost`, `127\.0\.0\.1` or a private address/s,
		);
		expect(first).toMatch(/`WEBHOOK_URL`\) or a tunnel/);
		expect(first).toMatch(
			/\*\*Production URL\*\* instead: a\s+second subscription, whose own signing secret/,
		);
	});

	it("Troubleshooting: nothing arriving → the subscription's delivery log in the Developer hub, where a connection error means n8n is not reachable", () => {
		expect(section('Troubleshooting')).toMatch(
			/nothing arrives\*\*: open the subscription's delivery log in the\s+Developer hub\. A connection error there means the service cannot reach n8n/,
		);
	});

	it('names the webhook credential as n8n shows it, with the heading its documentation link opens', () => {
		expect(readme.split('\n')).toContain('### GST Compliance Webhook Signing Secret');
		expect(readme).not.toMatch(/GST Compliance Webhook (API|credential)/);
	});
});
