// Lint config for the plain JavaScript files (gulpfile.js, index.js, jest.config.js, .prettierrc.js,
// the e2e installer and demo, the jest reporter): `npm run lint` runs it as
// `eslint -c eslint.scripts.config.mjs .`, after `n8n-node lint`.
//
// Why two configs: package.json sets "n8n": { "strict": true }, and in strict mode `n8n-node lint`
// (@n8n/node-cli 0.48.3) refuses to run unless eslint.config.mjs is, whitespace aside, exactly the
// CLI's template (`import { config } from '@n8n/node-cli/eslint'; export default config;`), so
// the rule set n8n verifies community packages with cannot be weakened in this repository. That
// default config lints every .ts file (shipped code, tests, emulator, bench) and package.json, but
// gives .js/.mjs files no rules at all; this config covers them with ESLint's recommended rules.
// Tests and bench opt out of the n8n Cloud runtime rules (restricted imports/globals, spawning
// processes, fixture secrets) per file, with an `eslint-disable … -- reason` line at the top: they
// run in Node under jest or as CLIs, never inside n8n. No rule is off for nodes/ or
// credentials/ (the scanner ignores inline directives anyway, see test/package/package.test.ts).
import js from '@eslint/js';
import globals from 'globals';

const rules = {
	...js.configs.recommended.rules,
	'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
};

export default [
	{
		ignores: [
			'dist/**',
			'coverage/**',
			'test/e2e/runtime/**',
			'test/e2e/runtimes/**',
			'test/e2e/.work/**',
		],
	},
	{
		linterOptions: { reportUnusedDisableDirectives: 'error' },
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules,
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { sourceType: 'module', globals: globals.node },
		rules,
	},
];
