/**
 * `npm test` runs every project: `unit` (the package's modules in-process, no sockets, no n8n-core)
 * and `integration` (the nodes run by n8n-core against the emulator over real HTTP, a real
 * redis-server, the emulator's own tests): test/unit and test/integration, each mirroring the
 * source tree one file per module (test/projects.js); `package` runs n8n's verification scan (both
 * lint passes) on the source and on the packed tarball, checks the tarball's entry point, and checks
 * the docs' figures, commands and names against the repository (test/package/docs.test.ts);
 * `e2e` (the packed package inside a real n8n) and `reliability` (duplicates, restarts and faults at
 * volume in a real n8n); `compat` (the package on the other n8n versions of the claimed range, one
 * at a time: `npm run test:compat`, which `npm test` does not run); `queue` (n8n in queue mode: Postgres, Redis, a main, a worker and two
 * webhook processes; its globalSetup installs Postgres and Redis when missing).
 * `roots` keep jest from crawling the e2e n8n install (test/e2e/runtime/node_modules, ~3 GB).
 */
const tests = require('./test/projects');

const base = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	moduleFileExtensions: ['ts', 'js', 'json'],
	// Tests import the package from the repository's root (`@/nodes/…`), as tsconfig.json's paths say.
	moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
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
			roots: [tests.UNIT_ROOT],
			setupFilesAfterEnv: ['<rootDir>/test/unit/setupUnit.js'],
		},
		{
			...base,
			displayName: 'integration',
			roots: [tests.INTEGRATION_ROOT, tests.EMULATOR_TESTS],
			setupFilesAfterEnv: ['<rootDir>/test/integration/setupN8nCore.ts'],
		},
		// The docs check looks n8n's own names up in the e2e runtime's build: the same setup.
		{ ...e2e, displayName: 'package', roots: ['<rootDir>/test/package'] },
		{ ...e2e, displayName: 'e2e', roots: ['<rootDir>/test/e2e/specs'] },
		{ ...e2e, displayName: 'reliability', roots: ['<rootDir>/test/e2e/reliability'] },
		// One n8n of the claimed range at a time (E2E_N8N_VERSION), run by test/harness/compat.js.
		...(process.env.E2E_N8N_VERSION
			? [{ ...e2e, displayName: 'compat', roots: ['<rootDir>/test/e2e/compat'] }]
			: []),
		{
			...e2e,
			displayName: 'queue',
			roots: ['<rootDir>/test/e2e/queue'],
			globalSetup: '<rootDir>/test/harness/queue/globalSetup.js',
		},
	],
};
