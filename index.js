// n8n finds this package's nodes and credentials through the "n8n" field of package.json;
// this entry point only exists so that `require('n8n-nodes-gst-compliance')` resolves.
module.exports = {};
