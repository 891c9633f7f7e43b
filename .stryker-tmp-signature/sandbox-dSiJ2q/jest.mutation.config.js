/**
 * The jest setup `npm run test:mutation` (Stryker) runs against every mutant: the unit tests that
 * exercise the product code. Left out, because each would run once per mutant it reaches and
 * make the run hours long on two cores without killing anything smaller tests do not:
 * - test/unit/emulator: the emulator's own tests, which import no product module;
 * - tests that measure volume (100,000 dedupe ids for memory and snapshot size, 1,000 items for
 *   the action's concurrency bound): their behaviour is also checked at small sizes.
 */
// @ts-nocheck

const { displayName: _unit, ...unit } = require('./jest.config.js').projects.find(
	(project) => project.displayName === 'unit',
);

module.exports = {
	...unit,
	testTimeout: 30_000,
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/emulator/'],
	testNamePattern: '^(?!.*(size for 100,000 ids|1,000 ids with concurrency))',
};
