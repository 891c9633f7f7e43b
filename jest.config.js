/**
 * `npm test` runs every project: `unit` (the package's modules in test/unit, which mirrors the source
 * tree, with the nodes run by n8n-core against the emulator over real HTTP; and the emulator's own
 * tests in test/emulator/tests), `e2e` (the packed package inside a real n8n) and `reliability`
 * (duplicates, restarts and faults at volume in a real n8n); `queue` (n8n in queue mode: Postgres,
 * Redis, a main, a worker and two webhook processes; its globalSetup installs Postgres and Redis
 * when missing); `package` runs n8n's verification scan
 * (both lint passes) on the source and on the packed tarball, and checks the tarball's entry point.
 * `roots` keep jest from crawling the e2e n8n install (test/e2e/runtime/node_modules, ~3 GB).
 */
const base = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	moduleFileExtensions: ['ts', 'js', 'json'],
};

/** Real n8n: the runtime is installed and the package built once before any spec runs. */
const e2e = { ...base, globalSetup: '<rootDir>/test/harness/globalSetup.js' };

// A default for tests that make many real HTTP requests on a loaded 2-core machine; none asserts on time.
module.exports = {
	testTimeout: 30_000,
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
	projects: [
		{
			...base,
			displayName: 'unit',
			roots: ['<rootDir>/test/unit', '<rootDir>/test/emulator/tests'],
			setupFilesAfterEnv: ['<rootDir>/test/unit/setupN8nCore.ts'],
		},
		{ ...base, displayName: 'package', roots: ['<rootDir>/test/package'] },
		{ ...e2e, displayName: 'e2e', roots: ['<rootDir>/test/e2e/specs'] },
		{ ...e2e, displayName: 'reliability', roots: ['<rootDir>/test/e2e/reliability'] },
		{
			...e2e,
			displayName: 'queue',
			roots: ['<rootDir>/test/e2e/queue'],
			globalSetup: '<rootDir>/test/harness/queue/globalSetup.js',
		},
	],
};
