#!/usr/bin/env node
/**
 * `npm run test:compat [-- <version> ...]`: the compatibility project (test/e2e/compat) on each n8n
 * of the claimed range other than the newest, which the e2e, reliability and queue projects run
 * on. Each version has its own runtime folder and lock file (test/e2e/runtimes/<version>),
 * installed on demand like the main one; the project runs once per version with E2E_N8N_VERSION
 * set. Plain Node, so CI can run it before TypeScript is available.
 */
'use strict';

const path = require('path');
const { spawnSync } = require('child_process');

/** The n8n versions the package claims besides the newest (test/e2e/runtime); README, Compatibility. */
const RANGE = ['1.123.81', '2.8.4'];

const ROOT = path.resolve(__dirname, '..', '..');

function main() {
	const asked = process.argv.slice(2);
	const unknown = asked.filter((version) => !RANGE.includes(version));
	if (unknown.length > 0) {
		console.error(
			`not in the claimed range: ${unknown.join(', ')} (the range: ${RANGE.join(', ')})`,
		);
		process.exit(2);
	}
	let failed = 0;
	for (const version of asked.length > 0 ? asked : RANGE) {
		const env = { ...process.env, E2E_N8N_VERSION: version };
		process.stdout.write(`\n[compat] n8n ${version}\n`);
		const result = spawnSync('npx', ['jest', '--selectProjects', 'compat'], {
			cwd: ROOT,
			env,
			stdio: 'inherit',
		});
		if (result.status !== 0) failed++;
	}
	process.exit(failed === 0 ? 0 : 1);
}

module.exports = { RANGE };

if (require.main === module) main();
