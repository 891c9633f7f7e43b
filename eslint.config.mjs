// ESLint 9 flat config. eslint-plugin-n8n-nodes-base ships legacy configs, so their rule sets are
// applied to the files each one is written for; @n8n/eslint-plugin-community-nodes is the rule set
// n8n uses to verify community packages (including the n8n Cloud restrictions).
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';

// Legacy rules that contradict the community rule set n8n verifies packages with (which wins):
// it requires a full documentation URL and `NodeConnectionTypes.Main` instead of `['main']`, and
// the miscased-action rule would rewrite "e-invoice" as "e invoice".
const superseded = {
	'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
	'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
	'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
	'n8n-nodes-base/node-param-operation-option-action-miscased': 'off',
};
const n8nBase = (config) => ({
	plugins: { 'n8n-nodes-base': n8nNodesBase },
	rules: { ...n8nNodesBase.configs[config].rules, ...superseded },
});

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'test/e2e/runtime/**',
			'test/e2e/.work/**',
			'**/*.js',
			'**/*.mjs',
			'bench/**',
		],
	},
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
		plugins: { '@typescript-eslint': tseslint.plugin },
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
			'no-console': 'off',
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser },
		...n8nBase('community'),
	},
	{ files: ['credentials/**/*.ts'], ...n8nBase('credentials') },
	{ files: ['nodes/**/*.ts'], ...n8nBase('nodes') },
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'transport/**/*.ts'],
		...communityNodes.configs.recommended,
	},
	{ files: ['package.json'], ...communityNodes.configs.recommended },
];
