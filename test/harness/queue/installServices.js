#!/usr/bin/env node
/**
 * Installs what the queue-mode tests run besides n8n: Debian's `postgresql`, `redis-server`,
 * `redis-tools` (redis-cli) and `faketime` (one webhook process on a clock ahead of the others). Idempotent (nothing happens when all are present). Run by `npm run e2e:install` (so by .ci/run)
 * and by the `queue` jest project's globalSetup. Without root or apt-get it cannot install, and
 * says exactly what to install; the specs then fail with the same message (never skip).
 *
 * Usage: node test/harness/queue/installServices.js
 * Plain Node (no TypeScript), so CI can run it on a clean clone before anything else.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const POSTGRES_ROOT = '/usr/lib/postgresql';
const REDIS_SERVER = '/usr/bin/redis-server';
// redis-cli builds the Redis Cluster of the cluster specs (`redis-cli --cluster create`).
const REDIS_CLI = '/usr/bin/redis-cli';
// faketime runs one n8n process on a skewed clock (the clock-skew spec).
const FAKETIME = '/usr/bin/faketime';
const APT_PACKAGES = ['postgresql', 'redis-server', 'redis-tools', 'faketime'];
const INSTALL_HINT = `apt-get install -y --no-install-recommends ${APT_PACKAGES.join(' ')}`;

function log(msg) {
	process.stdout.write(`[queue:install] ${msg}\n`);
}

/**
 * The newest Debian Postgres bin folder (`/usr/lib/postgresql/<major>/bin`) with initdb and
 * postgres.
 */
function postgresBinDir() {
	if (!fs.existsSync(POSTGRES_ROOT)) return undefined;
	const majors = fs
		.readdirSync(POSTGRES_ROOT)
		.filter((v) => /^\d+$/.test(v))
		.sort((a, b) => Number(b) - Number(a));
	for (const major of majors) {
		const bin = path.join(POSTGRES_ROOT, major, 'bin');
		if (fs.existsSync(path.join(bin, 'postgres')) && fs.existsSync(path.join(bin, 'initdb')))
			return bin;
	}
	return undefined;
}

function redisServer() {
	return fs.existsSync(REDIS_SERVER) ? REDIS_SERVER : undefined;
}

function redisCli() {
	return fs.existsSync(REDIS_CLI) ? REDIS_CLI : undefined;
}

function faketime() {
	return fs.existsSync(FAKETIME) ? FAKETIME : undefined;
}

/** What is missing, as Debian package names. */
function missingPackages() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisServer()) missing.push('redis-server');
	if (!redisCli()) missing.push('redis-tools');
	if (!faketime()) missing.push('faketime');
	return missing;
}

/** Thrown text when the services are missing and cannot be installed here. */
function missingMessage(missing) {
	return (
		`the queue-mode tests need ${missing.join(' and ')} (Debian packages). Install them as root: ` +
		`${INSTALL_HINT}  (or run: sudo node test/harness/queue/installServices.js)`
	);
}

function install() {
	const missing = missingPackages();
	if (missing.length === 0) {
		log(`postgres (${postgresBinDir()}), redis-server, redis-cli and faketime present`);
		return;
	}
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = fs.existsSync('/usr/bin/apt-get');
	if (!isRoot || !hasApt) throw new Error(missingMessage(missing));
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const args of [
		['update', '-qq'],
		['install', '-y', '-qq', '--no-install-recommends', ...missing],
	]) {
		log(`$ apt-get ${args.join(' ')}`);
		const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
		if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
	}
	// Debian's package starts a system cluster and a system redis on the default ports; the tests
	// start their own on free ports and need neither.
	const still = missingPackages();
	if (still.length > 0) throw new Error(missingMessage(still));
	log('installed');
}

module.exports = {
	postgresBinDir,
	redisServer,
	redisCli,
	faketime,
	missingPackages,
	missingMessage,
	install,
};

if (require.main === module) {
	try {
		install();
	} catch (err) {
		log(`FAILED: ${err.message}`);
		process.exit(1);
	}
}
