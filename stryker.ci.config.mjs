// @ts-check
/**
 * The mutation run CI makes (`npm run test:mutation:ci`): the webhook signature and the token
 * cache, each failing below 90 % (test/mutationScores.js judges every module on its own). The dedupe
 * store alone runs over an hour on two cores (its mutants are covered by the webhook tests on
 * n8n-core, seconds per run, and its eviction-loop mutants end in timeouts), which CI's budget does
 * not hold; the full run over every core is `npm run test:mutation`, and docs/testing.md has the
 * scores. A 10 s timeout margin (20 s in the full run) keeps endless loops short; a timeout counts
 * as detected either way.
 */
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
	...base,
	mutate: ['nodes/GstComplianceTrigger/signature.ts', 'credentials/GstComplianceApi/tokenCache.ts'],
	timeoutMS: 10_000,
	htmlReporter: { fileName: 'reports/mutation-ci/index.html' },
	jsonReporter: { fileName: 'reports/mutation-ci/mutation.json' },
};
export default config;
