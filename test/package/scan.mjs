#!/usr/bin/env node
/**
 * Runs one of the two lint passes of `@n8n/scan-community-package` (the check n8n runs before it
 * verifies a community package) on a local directory, through the scanner's exported
 * `analyzePackage`, and prints the result as one JSON line:
 *
 *   node test/package/scan.mjs source  <package root>     # like the scan of the attested source
 *   node test/package/scan.mjs tarball <unpacked tarball>  # like the scan of the npm tarball
 *
 * The scanner itself only takes a published package name (it downloads the tarball and the source
 * commit named in the npm provenance statement); the file patterns below are the ones its
 * `analyzePackageByName` passes to `analyzePackage` (scanner/scanner.mjs in 0.32.0). It is an ES
 * module, so jest (CommonJS here) runs this script as a child process: test/package/package.test.ts.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCANNER = '@n8n/scan-community-package/scanner/scanner.mjs';
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(SCANNER);
// The scanner's own fast-glob, so the file list below is the one it lints.
const glob = createRequire(fileURLToPath(import.meta.resolve(SCANNER)))('fast-glob');

const PATTERNS = {
	source: SOURCE_FILE_PATTERNS,
	// The tarball pass: compiled .js and the published package.json.
	tarball: ['**/*.js', 'package.json'],
};

const [pass, dir] = process.argv.slice(2);
if (!PATTERNS[pass] || !dir || !fs.existsSync(path.join(dir, 'package.json'))) {
	process.stderr.write(
		'usage: node test/package/scan.mjs source|tarball <dir with package.json>\n',
	);
	process.exit(2);
}
const root = path.resolve(dir);
// analyzePackage answers `passed: true` when no file matches; the caller checks this list.
const files = glob
	.sync(PATTERNS[pass], { cwd: root, ignore: ['node_modules/**', '**/package-lock.json'] })
	.sort();
const result = await analyzePackage(root, PATTERNS[pass]);
process.stdout.write(
	JSON.stringify({
		pass,
		files,
		passed: result.passed,
		message: result.message ?? null,
		details: result.details ?? null,
	}) + '\n',
);
