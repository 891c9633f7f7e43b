/**
 * Which test files are unit tests and which are integration tests, for jest.config.js: the folder
 * says it. Both trees mirror the source tree, one file per module, in the project its tests need.
 *
 * - test/unit: the package's modules on their own, in-process, no sockets and no n8n-core: seconds.
 *   test/unit/setupUnit.js makes opening a socket fail, so a file in the wrong folder says so.
 * - test/integration: the nodes run by n8n-core against the service emulator over real HTTP, a real
 *   redis-server; with it run the emulator's own tests (test/emulator/tests).
 */
'use strict';

const path = require('path');

const ROOT = path.resolve(__dirname, '..');

module.exports = {
	UNIT_ROOT: path.join(ROOT, 'test', 'unit'),
	INTEGRATION_ROOT: path.join(ROOT, 'test', 'integration'),
	EMULATOR_TESTS: path.join(ROOT, 'test', 'emulator', 'tests'),
};
