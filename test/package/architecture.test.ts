/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
/**
 * docs/architecture.md against the code it draws: every product file named, the picture's arrows
 * equal to the imports between its boxes, trigger/dedupe/ a floor with no arrow up and no loop,
 * the cores it lists free of n8n at run time, and its list of state that outlives a request
 * complete.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

const tracked = spawnSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })
	.stdout.split('\n')
	.filter(Boolean);
const shippedSources = tracked.filter((file) => /^(nodes|credentials)\/.*\.ts$/.test(file));

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The product's relative imports, file → files (`.ts` paths from the repository root); with
 * `runtime`, only those left in the JavaScript (an `import type` is erased).
 */
function productImports(runtime = false): Map<string, string[]> {
	const files = shippedSources.filter((file) => fs.existsSync(path.join(ROOT, file)));
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const targets = [...read(file).matchAll(/^import (type )?[^;]*?from '(\.[^']+)'/gms)]
			.filter((m) => !(runtime && m[1]))
			.map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2])) + '.ts');
		graph.set(file, targets);
	}
	return graph;
}

/** The box of docs/architecture.md's picture a product file sits in. */
function boxOf(file: string): string {
	const inNodes = file.replace(/^nodes\/GstCompliance\//, '');
	if (file.startsWith('credentials/')) return 'credentials';
	if (inNodes === 'GstCompliance.node.ts') return 'action';
	if (inNodes === 'GstComplianceTrigger.node.ts') return 'triggerNode';
	if (inNodes.startsWith('trigger/dedupe/')) return 'dedupe';
	const folder = inNodes.split('/')[0];
	return inNodes.includes('/') ? folder : 'shared';
}

describe('docs/architecture.md is the code’s own picture', () => {
	const doc = read('docs/architecture.md');

	it('every product file is named in it', () => {
		const unnamed = shippedSources
			.map((file) => path.basename(file))
			.filter((name) => !doc.includes(`\`${name}\``) && !doc.includes(`\`${name.split('.')[0]}\``));
		expect(unnamed).toEqual([]);
	});

	it('its arrows are the folders’ imports, no more and no fewer', () => {
		const mermaid = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
		const drawn = new Set(
			[...mermaid.matchAll(/^\s*(\w+)(?:\[[^\]]*\])?\s*-->\s*(\w+)/gm)].map(
				(m) => `${m[1]} → ${m[2]}`,
			),
		);
		const actual = new Set<string>();
		for (const [file, targets] of productImports())
			for (const target of targets)
				if (boxOf(file) !== boxOf(target)) actual.add(`${boxOf(file)} → ${boxOf(target)}`);
		expect([...drawn].sort()).toEqual([...actual].sort());
	});

	it('trigger/dedupe/ imports nothing above it, has no loop, and keys.ts at its bottom', () => {
		const graph = productImports();
		const dedupe = [...graph.keys()].filter((file) => file.includes('/trigger/dedupe/'));
		const upward = dedupe.flatMap((file) =>
			graph
				.get(file)!
				.filter((t) => t.includes('/trigger/') && !t.includes('/trigger/dedupe/'))
				.map((t) => `${file} → ${t}`),
		);
		expect(upward).toEqual([]);
		const loops: string[] = [];
		const visit = (file: string, trail: string[]) => {
			if (trail.includes(file)) return void loops.push([...trail, file].join(' → '));
			for (const next of graph.get(file) ?? [])
				if (next.includes('/trigger/dedupe/')) visit(next, [...trail, file]);
		};
		for (const file of dedupe) visit(file, []);
		expect(loops).toEqual([]);
		const owner = 'nodes/GstCompliance/trigger/dedupe/keys.ts';
		expect(graph.get(owner)!.filter((t) => t.includes('/trigger/dedupe/'))).toEqual([
			'nodes/GstCompliance/trigger/dedupe/eventDigest.ts',
		]);
		const keyBuilders = dedupe.filter(
			(file) =>
				file !== owner &&
				/`dedupe:\$\{|['`]n8n-gst-compliance:|['`]credential-test:|:\{\$\{|split\(':'\)/.test(
					read(file),
				),
		);
		expect(keyBuilders).toEqual([]);
	});

	it('every module it calls free of n8n imports nothing from n8n-workflow at run time, directly or through another', () => {
		const cores = /## Cores without n8n\n([\s\S]*?)\nNearly so/.exec(doc)?.[1] ?? '';
		const graph = productImports(true);
		const named = [...cores.matchAll(/`([\w/]+\.ts)`/g)].map((m) => m[1]);
		expect(named.length).toBeGreaterThan(20);
		const resolve = (name: string) => shippedSources.filter((file) => file.endsWith(`/${name}`));
		const usesN8n = (file: string, seen = new Set<string>()): boolean => {
			if (seen.has(file)) return false;
			seen.add(file);
			// At run time: an `import type` is gone from the JavaScript.
			return (
				/^import (?!type )[^;]*from 'n8n-workflow'/m.test(read(file)) ||
				(graph.get(file) ?? []).some((t) => usesN8n(t, seen))
			);
		};
		const wrong = named.flatMap((name) => {
			const files = resolve(name);
			return files.length !== 1
				? [`${name}: ${files.length} files`]
				: files.filter((f) => usesN8n(f)).map((f) => `${f} reaches n8n-workflow`);
		});
		expect(wrong).toEqual([]);
	});

	it('its list of state that outlives a request names every module-level store of the product, each where it is', () => {
		const section =
			/## State that outlives a request\n([\s\S]*?)\nNone of these/.exec(doc)?.[1] ?? '';
		const listed = section.split(/\n(?=- )/).flatMap((bullet) => {
			const file = /\(`([\w/]+\.ts)`\)/.exec(bullet)?.[1];
			return [...bullet.matchAll(/(?:^- |\band\s+)`(\w+)`/g)].map((m) => `${file}: ${m[1]}`);
		});
		expect(listed.length).toBeGreaterThan(10);
		const source = (file: string) => read(`nodes/GstCompliance/${file}`);
		const missing = listed.filter((entry) => {
			const [file, name] = entry.split(': ');
			return !new RegExp(`^(export )?(const|let) ${name}\\b`, 'm').test(source(file));
		});
		expect(missing).toEqual([]);
		// Mutable state: an empty Map, Set or WeakMap, an instance of a class, or a `let`.
		const declared = shippedSources.flatMap((file) =>
			[
				...read(file).matchAll(
					/^(?:export )?(?:let (\w+)|const (\w+)(?::[^=]+)? = new (?:(?:Map|Set|WeakMap)(?:<.*>)?\(\)|(?!Map\b|Set\b|RegExp\b)[A-Z]\w*\())/gm,
				),
			].map((m) => `${file.replace(/^nodes\/GstCompliance\//, '')}: ${m[1] ?? m[2]}`),
		);
		expect(declared.filter((entry) => !listed.includes(entry))).toEqual([]);
	});
});
