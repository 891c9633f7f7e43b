/**
 * The jest setup Stryker runs against every mutant: the tests of one module at a time, unit or
 * integration (`testMatch` comes from test/mutation/modules.js through test/mutation/run.mjs), with
 * the integration project's n8n-core setup. Tests that measure volume (100,000 dedupe ids, 1,000
 * items) are left out by name: they would run once per mutant that reaches them.
 */
const integration = {
	...require('./jest.config.js').projects.find((p) => p.displayName === 'integration'),
};
// A project's display name and its file selection are not what Stryker runs.
delete integration.displayName;

module.exports = {
	...integration,
	roots: ['<rootDir>/test/unit', '<rootDir>/test/integration'],
	testTimeout: 30_000,
	testNamePattern: '^(?!.*(size at 100,000 ids|100,000 ids in a day|1,000 ids with concurrency))',
};
