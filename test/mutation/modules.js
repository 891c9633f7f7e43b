/**
 * Which unit tests judge which core under mutation testing (docs/testing.md, "Mutation testing").
 * Each module is mutated against the tests named after it (paths under test/, unit/ or integration/) plus the few
 * suites that exercise a branch of it through a caller. An explicit list, rather than jest's related-test search, keeps each mutant's run to the
 * files that can judge it: every file jest loads costs its imports (n8n-core for the node suites)
 * once per mutant, and the webhook suites alone made a dedupe-store mutant cost seconds.
 */
module.exports = [
	{ file: 'nodes/GstCompliance/http/retry.ts', tests: ['unit/nodes/GstCompliance/http/retry'] },
	{
		file: 'nodes/GstCompliance/errors/serverWords.ts',
		tests: ['unit/nodes/GstCompliance/errors/serverWords'],
	},
	{
		file: 'nodes/GstCompliance/errors/messageParts.ts',
		tests: ['unit/nodes/GstCompliance/errors/messageParts'],
	},
	{
		file: 'nodes/GstCompliance/errors/redact.ts',
		tests: ['unit/nodes/GstCompliance/errors/redact'],
	},
	{ file: 'nodes/GstCompliance/resources.ts', tests: ['unit/nodes/GstCompliance/resources'] },
	{ file: 'nodes/GstCompliance/throttle.ts', tests: ['unit/nodes/GstCompliance/throttle'] },
	{ file: 'nodes/GstCompliance/settle.ts', tests: ['unit/nodes/GstCompliance/settle'] },
	{ file: 'nodes/GstCompliance/bounded.ts', tests: ['unit/nodes/GstCompliance/bounded'] },
	{ file: 'nodes/GstCompliance/text/json.ts', tests: ['unit/nodes/GstCompliance/text/json'] },
	{
		file: 'nodes/GstCompliance/transport/apiAnswer.ts',
		tests: ['unit/nodes/GstCompliance/transport/apiAnswer'],
	},
	{
		file: 'nodes/GstCompliance/http/httpStatus.ts',
		tests: ['unit/nodes/GstCompliance/http/httpStatus*'],
	},
	{
		file: 'nodes/GstCompliance/http/networkError.ts',
		tests: ['unit/nodes/GstCompliance/http/networkError*'],
	},
	{
		file: 'nodes/GstCompliance/http/redirects.ts',
		tests: ['unit/nodes/GstCompliance/http/redirects'],
	},
	{
		file: 'nodes/GstCompliance/credential/environment.ts',
		tests: ['unit/nodes/GstCompliance/credential/environment'],
	},
	{
		file: 'nodes/GstCompliance/credential/jwtClaims.ts',
		tests: ['unit/nodes/GstCompliance/credential/jwtClaims'],
	},
	{
		file: 'nodes/GstCompliance/credential/tokenCache.ts',
		tests: ['integration/nodes/GstCompliance/credential/tokenCache'],
	},
	{
		file: 'nodes/GstCompliance/credential/tokenClient.ts',
		tests: ['integration/nodes/GstCompliance/credential/tokenClient'],
	},
	{
		file: 'nodes/GstCompliance/trigger/signature.ts',
		// The trigger reads the header the module names.
		tests: [
			'unit/nodes/GstCompliance/trigger/signature',
			'integration/nodes/GstCompliance/trigger/webhook',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/delivery.ts',
		tests: ['unit/nodes/GstCompliance/trigger/delivery*'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/snapshotLog.ts',
		// Its own contract, and the records as the store's snapshots give them.
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/memory/snapshotLog',
			'unit/nodes/GstCompliance/trigger/dedupe/memory/memoryStore*',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/memoryStore.ts',
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/memory/memoryStore*',
			'unit/nodes/GstCompliance/trigger/dedupe/memory/capacity*',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/startedIds.ts',
		// Its own contract, and the started ids as the store's claims and snapshots use them.
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/memory/startedIds',
			'unit/nodes/GstCompliance/trigger/dedupe/memory/memoryStore*',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/keys.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/keys'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat.ts',
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/memory/snapshotFormat',
			'unit/nodes/GstCompliance/trigger/dedupe/memory/memoryStore*',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/unsavedAcceptances.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/memory/unsavedAcceptances'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/registry.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/memory/registry'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/processMarkers.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/memory/processMarkers'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/lifecycle.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/lifecycle'],
	},
	{
		file: 'nodes/GstCompliance/trigger/acknowledgement.ts',
		tests: ['unit/nodes/GstCompliance/trigger/acknowledgement'],
	},
	{
		file: 'nodes/GstCompliance/trigger/reachability.ts',
		tests: ['unit/nodes/GstCompliance/trigger/reachability'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/storeRefusal.ts',
		tests: ['unit/nodes/GstCompliance/trigger/dedupe/storeRefusal'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/redis/redisFailure.ts',
		// The advice of each cause is judged where it is said (storeRefusal.test).
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/redis/redisFailure',
			'unit/nodes/GstCompliance/trigger/dedupe/storeRefusal',
		],
	},
	{
		file: 'nodes/GstCompliance/trigger/failureLog.ts',
		tests: ['unit/nodes/GstCompliance/trigger/failureLog'],
	},
	{
		file: 'nodes/GstCompliance/trigger/options.ts',
		tests: ['unit/nodes/GstCompliance/trigger/options*'],
	},
	{
		file: 'nodes/GstCompliance/trigger/dedupe/memory/memoryLedger.ts',
		tests: [
			'unit/nodes/GstCompliance/trigger/dedupe/memory/memoryLedger',
			'integration/nodes/GstCompliance/trigger/dedupe/memory/memoryLedger*',
		],
	},
];
