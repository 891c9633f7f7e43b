/**
 * `npm test` runs every project: `unit` (pure logic, the emulator, the credential and both nodes
 * against the emulator over real HTTP), `e2e` (the packed package inside a real n8n) and
 * `reliability` (duplicates, restarts and faults at volume in a real n8n) and `queue` (n8n in queue
 * mode with Postgres, Redis, a worker and two webhook processes; its globalSetup installs Postgres
 * and Redis when missing).
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
			roots: ['<rootDir>/test/unit'],
			setupFilesAfterEnv: ['<rootDir>/test/unit/setupN8nCore.ts'],
		},
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
