/**
 * Which unit tests judge which core under mutation testing (docs/testing.md, "Mutation testing").
 * Each module is mutated against the tests named after it (paths under test/unit) plus the few
 * suites that exercise a branch of it through a caller. An explicit list, rather than jest's related-test search, keeps each mutant's run to the
 * files that can judge it: every file jest loads costs its imports (n8n-core for the node suites)
 * once per mutant, and the webhook suites alone made a dedupe-store mutant cost seconds.
 */
module.exports = [
	{ file: 'transport/retry.ts', tests: ['transport/retry'] },
	{ file: 'transport/redact.ts', tests: ['transport/redact'] },
	{ file: 'transport/resources.ts', tests: ['transport/resources'] },
	{ file: 'transport/apiAnswer.ts', tests: ['transport/apiAnswer'] },
	{ file: 'transport/httpStatus.ts', tests: ['transport/httpStatus*'] },
	{ file: 'transport/networkError.ts', tests: ['transport/networkError*'] },
	{ file: 'transport/redirects.ts', tests: ['transport/redirects'] },
	{
		file: 'transport/credential/environment.ts',
		tests: ['transport/credential/environment'],
	},
	{
		file: 'transport/credential/jwtClaims.ts',
		tests: ['transport/credential/jwtClaims'],
	},
	{
		file: 'transport/credential/tokenCache.ts',
		tests: ['transport/credential/tokenCache'],
	},
	{
		file: 'transport/credential/tokenClient.ts',
		tests: ['transport/credential/tokenClient'],
	},
	{
		file: 'nodes/GstComplianceTrigger/signature.ts',
		// The trigger reads the header the module names.
		tests: ['nodes/GstComplianceTrigger/signature', 'nodes/GstComplianceTrigger/webhook'],
	},
	{
		file: 'nodes/GstComplianceTrigger/delivery.ts',
		tests: ['nodes/GstComplianceTrigger/delivery*'],
	},
	{
		file: 'nodes/GstComplianceTrigger/dedupe/memoryStore.ts',
		tests: [
			'nodes/GstComplianceTrigger/dedupe/memoryStore*',
			'nodes/GstComplianceTrigger/dedupe/capacity*',
		],
	},
	{
		file: 'nodes/GstComplianceTrigger/dedupe/leases.ts',
		tests: [
			'nodes/GstComplianceTrigger/dedupe/leases',
			'nodes/GstComplianceTrigger/dedupe/memoryStore*',
		],
	},
	{
		file: 'nodes/GstComplianceTrigger/dedupe/snapshotRecords.ts',
		tests: ['nodes/GstComplianceTrigger/dedupe/memoryStore*'],
	},
	{
		file: 'nodes/GstComplianceTrigger/dedupe/lifecycle.ts',
		tests: ['nodes/GstComplianceTrigger/dedupe/lifecycle*'],
	},
	{
		file: 'nodes/GstComplianceTrigger/failureLog.ts',
		tests: ['nodes/GstComplianceTrigger/failureLog'],
	},
	{
		file: 'nodes/GstComplianceTrigger/options.ts',
		tests: ['nodes/GstComplianceTrigger/options*'],
	},
	{
		file: 'nodes/GstComplianceTrigger/dedupe/persistence.ts',
		// The Redis branch (store choice) runs only through the trigger.
		tests: [
			'nodes/GstComplianceTrigger/dedupe/persistence*',
			'nodes/GstComplianceTrigger/dedupe/redisStore*',
		],
	},
];
