// Entry point ("main") of the published package: exports the node and credential classes.
//
// n8n itself never loads this file: it finds the classes through the "n8n" field of package.json.
// Code that uses the built package outside n8n (`require('n8n-nodes-gst-compliance')` in a script
// or a test) gets the same classes here, from the compiled files that field lists.
// test/package/package.test.ts checks on the packed tarball that both lists stay the same.
'use strict';

module.exports = {
	...require('./dist/nodes/GstCompliance/GstCompliance.node.js'),
	...require('./dist/nodes/GstCompliance/GstComplianceTrigger.node.js'),
	...require('./dist/credentials/GstComplianceApi.credentials.js'),
	...require('./dist/credentials/GstComplianceWebhookApi.credentials.js'),
	...require('./dist/credentials/GstComplianceRedisApi.credentials.js'),
};
