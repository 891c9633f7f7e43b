/**
 * Which test files are unit tests and which are integration tests, for jest.config.js.
 *
 * - unit: the package's modules on their own, in-process, no sockets and no n8n-core: seconds.
 *   test/unit/setupUnit.js makes opening a socket fail, so a file in the wrong project says so.
 * - integration: the nodes run by n8n-core against the service emulator over real HTTP, a real
 *   redis-server, and the emulator's own tests (test/emulator/tests).
 *
 * A file is an integration test when it loads n8n-core or a harness that starts servers (the
 * markers below); the test tree still mirrors the source tree, one file per module.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const UNIT_ROOT = path.join(ROOT, 'test', 'unit');
const EMULATOR_TESTS = path.join(ROOT, 'test', 'emulator', 'tests');

const INTEGRATION_MARKERS = [
	/from 'n8n-core'/,
	/helpers\/(emulatorForPackage|deliverToTrigger|executeNode|n8nHost|outboundRequests|scriptedServer|realN8nHelpers)'/,
	/harness\/queue\/services'/,
	/from 'ioredis'/,
	/from 'http'/,
	/emulator(\/sampleEvents)?'/,
];

function testFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(full);
		return entry.name.endsWith('.test.ts') ? [full] : [];
	});
}

const integration = [
	...testFiles(EMULATOR_TESTS),
	...testFiles(UNIT_ROOT).filter((file) => {
		const text = fs.readFileSync(file, 'utf8');
		return INTEGRATION_MARKERS.some((marker) => marker.test(text));
	}),
];

const escape = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

module.exports = {
	UNIT_ROOT,
	EMULATOR_TESTS,
	/** testPathIgnorePatterns of the unit project. */
	notUnit: integration.map(escape),
	/** testRegex of the integration project. */
	integration: integration.map(escape),
};
