/**
 * `npm test` runs both projects: `unit` (pure logic, the emulator, the credential and both nodes
 * against the emulator over real HTTP) and `e2e` (the packed package inside a real n8n).
 * `roots` keep jest from crawling the e2e n8n install (test/e2e/runtime/node_modules, ~3 GB).
 */
const base = {
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true }] },
	moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
	projects: [
		{ ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
		{
			...base,
			displayName: 'e2e',
			roots: ['<rootDir>/test/e2e/specs'],
			globalSetup: '<rootDir>/test/e2e/lib/globalSetup.js',
		},
	],
};
