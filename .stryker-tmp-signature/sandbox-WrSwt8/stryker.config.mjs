// @ts-nocheck
// 
/**
 * Mutation testing of the pure cores (docs/testing.md, "Mutation testing"): `npm run test:mutation`.
 * Only the unit tests run (jest.mutation.config.js), and per-test coverage runs just the tests
 * that reach each mutant.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: { projectType: 'custom', configFile: 'jest.mutation.config.js' },
	coverageAnalysis: 'perTest',
	mutate: [
		'transport/retry.ts',
		'transport/redact.ts',
		'transport/resources.ts',
		'transport/httpStatus.ts',
		'transport/networkError.ts',
		'credentials/GstComplianceApi/environment.ts',
		'credentials/GstComplianceApi/jwtClaims.ts',
		'credentials/GstComplianceApi/tokenCache.ts',
		'credentials/GstComplianceApi/tokenClient.ts',
		'nodes/GstComplianceTrigger/signature.ts',
		'nodes/GstComplianceTrigger/delivery.ts',
		'nodes/GstComplianceTrigger/dedupe/memoryStore.ts',
		'nodes/GstComplianceTrigger/dedupe/persistence.ts',
	],
	// The e2e runtime (~3 GB of n8n) and build output stay out of Stryker's sandbox copy.
	ignorePatterns: ['dist', 'test/e2e/runtime', 'test/e2e/.work', 'bench/results', 'reports'],
	concurrency: 2,
	timeoutMS: 20_000,
	thresholds: { high: 95, low: 90, break: 90 },
	reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
};
export default config;
