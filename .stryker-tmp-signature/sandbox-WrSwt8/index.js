// @ts-nocheck
// n8n finds this package's nodes and credentials through the "n8n" field of package.json, not
// through an entry point; this file only lets `require('.')` resolve inside the repository. It is
// not published (package.json has no "main" and "files" is ["dist"]).
module.exports = {};
