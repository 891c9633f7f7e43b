/**
 * jest globalSetup of the `e2e` project: whatever `npm test` needs on a fresh clone. Installs the
 * e2e runtime when missing (idempotent, ~0.3 s when done) and builds the package, because the
 * specs pack and install the current dist/ into n8n the way a user's install looks.
 */
'use strict';

const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');

function run(cmd, args) {
	const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
	if (result.status !== 0)
		throw new Error(`e2e setup: "${cmd} ${args.join(' ')}" failed (exit ${result.status})`);
}

module.exports = async () => {
	run(process.execPath, [path.join(__dirname, 'install.js')]);
	if (process.env.E2E_SKIP_BUILD !== '1') run('npm', ['run', 'build', '--silent']);
};
