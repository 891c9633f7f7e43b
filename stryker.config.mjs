// @ts-check
/**
 * The Stryker options every module's run shares. `npm run test:mutation` (test/mutation/run.mjs)
 * adds the module to mutate and the tests that judge it (test/mutation/modules.js); see
 * docs/testing.md, "Mutation testing".
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: { projectType: 'custom', configFile: 'jest.mutation.config.js' },
	// Each mutant runs only the tests that reached it in the initial run.
	coverageAnalysis: 'perTest',
	// The e2e runtime (~3 GB of n8n) and build output stay out of Stryker's sandbox copy.
	ignorePatterns: [
		'dist',
		'test/e2e/runtime',
		'test/e2e/runtimes',
		'test/e2e/.work',
		'bench/results',
		'reports',
	],
	concurrency: 2,
	// Added to 1.5 × a mutant's normal test time; a mutant that makes a loop endless ends here and
	// counts as detected.
	timeoutMS: 10_000,
	reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
};
export default config;
