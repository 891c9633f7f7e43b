/**
 * The jest setup `npm run test:mutation` (Stryker) runs against every mutant: the unit tests of
 * the pure cores, named after the module they test, and the older pure and token-endpoint tests.
 * Stryker runs the tests that cover a mutant once per mutant, and on two shared cores each test
 * file costs seconds to load; so the suites that drive whole nodes through the emulator (the
 * action node, the credential test, refetch, the emulator's own tests) stay out, and tests that
 * measure volume (100,000 dedupe ids, 1,000 items) are left out by name. The score is therefore
 * a lower bound: a survivor here may still be killed by a left-out suite.
 */
const unit = { ...require('./jest.config.js').projects.find((p) => p.displayName === 'unit') };
// A project's display name is not a top-level jest option.
delete unit.displayName;

module.exports = {
	...unit,
	roots: ['<rootDir>/test/unit'],
	testTimeout: 30_000,
	testMatch: [
		'<rootDir>/test/unit/transport/*.test.ts',
		'<rootDir>/test/unit/credentials/GstComplianceApi/{environment,jwtClaims,tokenCache,tokenClient}*.test.ts',
		'<rootDir>/test/unit/nodes/GstComplianceTrigger/{signature,delivery,webhook}*.test.ts',
		'<rootDir>/test/unit/nodes/GstComplianceTrigger/dedupe/*.test.ts',
	],
	testNamePattern: '^(?!.*(size for 100,000 ids|1,000 ids with concurrency))',
};
