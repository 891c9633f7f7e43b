/**
 * The harness shared by the e2e specs, the reliability suite, the demo and `npm run bench`: a real
 * n8n 2.41 started from test/e2e/runtime with the packed package installed (`n8n.ts`), the GST
 * credential and workflow builders and signed deliveries (`gst.ts`), a small HTTP client
 * (`http.ts`), an emulator + n8n + credentials session (`session.ts`), trigger and batch workflows
 * (`workflows.ts`), execution counts (`executions.ts`) and a bounded load generator (`load.ts`).
 * `install.js` installs the runtime and `globalSetup.js` is the e2e projects' jest setup; both are
 * plain Node so they run before TypeScript is available.
 */
export * from './executions';
export * from './gst';
export * from './http';
export * from './load';
export * from './n8n';
export * from './session';
export * from './workflows';
export * from './acknowledgement';
export * from './startFaults';
