/**
 * The jest setup `npm run test:mutation` (Stryker) runs against every mutant: the unit tests that
 * exercise the product code, without the emulator's own tests (test/unit/emulator), which import
 * no product module and so cannot kill a mutant. Stryker's per-test coverage then runs only the
 * tests that reach a mutant.
 */
const { displayName: _unit, ...unit } = require('./jest.config.js').projects.find(
	(project) => project.displayName === 'unit',
);

module.exports = {
	...unit,
	testTimeout: 30_000,
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/emulator/', 'dedupe.test.ts'],
};
