/**
 * The jest setup Stryker runs against every mutant: the unit project, with the tests of one module
 * at a time (`testMatch` comes from test/mutation/modules.js through test/mutation/run.mjs). Tests
 * that measure volume (100,000 dedupe ids, 1,000 items) are left out by name: they would run once
 * per mutant that reaches them.
 */
const unit = { ...require('./jest.config.js').projects.find((p) => p.displayName === 'unit') };
// A project's display name is not a top-level jest option.
delete unit.displayName;

module.exports = {
	...unit,
	roots: ['<rootDir>/test/unit'],
	testTimeout: 30_000,
	testNamePattern: '^(?!.*(size for 100,000 ids|1,000 ids with concurrency))',
};
