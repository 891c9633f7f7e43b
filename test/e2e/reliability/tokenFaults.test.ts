/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * Token endpoint faults while n8n runs our action node: 500s, 429 with Retry-After, a timeout and
 * non-JSON answers. Each is retried a bounded number of times, fails with a clear message when the
 * retries run out, and the next run is served normally. Secrets and tokens appear nowhere.
 */
import type { ClientInfo, TokenFault } from '@/test/emulator';
import {
	actionNode,
	apiCredentialData,
	CRED,
	startSession,
	batchWorkflow,
	runBatch,
	type Session,
	type BatchRun,
} from '@/test/harness';
import { findLeaks } from './lib/leaks';

jest.setTimeout(300_000);

let session: Session;
let einvoiceId: string;
const clients: ClientInfo[] = [];
const seen: Record<string, string> = {};

beforeAll(async () => {
	session = await startSession();
	clients.push(session.client);
	einvoiceId = session.emulator.control.createEinvoice({
		organizationId: session.client.organizationId,
		environment: 'sandbox',
	}).id;
});

afterAll(async () => {
	await session?.stop();
});

/** A new client of the same organization, so its token is not cached yet in n8n. */
async function coldWorkflow(label: string) {
	const { n8n, emulator } = session;
	const client = emulator.control.createClient({
		environment: 'sandbox',
		organizationId: session.client.organizationId,
	});
	clients.push(client);
	const credential = await n8n.createCredential(
		`GST API ${label}`,
		CRED.api,
		apiCredentialData(emulator, client),
	);
	return await batchWorkflow(
		n8n,
		`reliability: token ${label}`,
		actionNode({ resource: 'einvoice', id: '={{ $json.id }}', apiCredential: credential }),
	);
}

/** Runs once with `faults` injected; returns the run and the token requests it made. */
async function runWith(
	workflow: Awaited<ReturnType<typeof coldWorkflow>>,
	faults: TokenFault[],
): Promise<{ run: BatchRun; tokenRequests: number }> {
	const { control } = session.emulator;
	control.resetCounters();
	control.injectTokenFaults(faults);
	const run = await runBatch(session.n8n, workflow, [einvoiceId]);
	seen[`execution ${run.execution.id}`] = JSON.stringify(run.execution);
	seen[`response of execution ${run.execution.id}`] = run.responseText;
	return { run, tokenRequests: control.counters().tokenRequestsTotal };
}

const errorText = (run: BatchRun): string => {
	const error = run.execution.data?.resultData?.error ?? {};
	return `${error.message ?? ''} ${error.description ?? ''}`;
};

const status = (code: number, retryAfterSeconds?: number): TokenFault => ({
	kind: 'status',
	status: code,
	retryAfterSeconds,
});

describe.each([
	{ label: 'two 500s', faults: [status(500), status(500)], requests: 3 },
	{ label: '429 with Retry-After 2', faults: [status(429, 2)], requests: 2 },
	{ label: 'a timeout', faults: [{ kind: 'timeout' } as TokenFault], requests: 2 },
	{ label: 'one non-JSON answer', faults: [{ kind: 'garbage' } as TokenFault], requests: 2 },
])('recovers within the retries: $label', ({ label, faults, requests }) => {
	it('succeeds after a bounded number of token requests', async () => {
		const { run, tokenRequests } = await runWith(await coldWorkflow(label), faults);
		expect(run.execution.status).toBe('success');
		expect(run.items[0]).toMatchObject({ id: einvoiceId, object: 'einvoice' });
		expect(tokenRequests).toBe(requests);
	});
});

describe.each([
	{
		label: 'only 500s',
		fault: status(500),
		message: /token service.*gave up after 4 attempts.*HTTP 500/i,
	},
	{
		label: 'only non-JSON',
		fault: { kind: 'garbage' } as TokenFault,
		message: /token service.*no usable access token.*gave up after 4 attempts/i,
	},
])('gives up clearly, then serves normally: $label', ({ label, fault, message }) => {
	it('fails after 4 token requests with a clear message, and the next run succeeds', async () => {
		const workflow = await coldWorkflow(label);
		const failed = await runWith(workflow, Array(4).fill(fault));
		expect(failed.run.execution.status).toBe('error');
		expect(errorText(failed.run)).toMatch(message);
		expect(failed.tokenRequests).toBe(4);

		const next = await runWith(workflow, []);
		expect(next.run.execution.status).toBe('success');
		expect(next.tokenRequests).toBe(1);
	});
});

it('a Retry-After longer than the node waits fails at once, and later runs do not hammer the endpoint', async () => {
	const workflow = await coldWorkflow('long Retry-After');
	const first = await runWith(workflow, [status(429, 45)]);
	expect(first.run.execution.status).toBe('error');
	expect(errorText(first.run)).toMatch(/rate-limiting.*45 s.*HTTP 429/i);
	expect(first.tokenRequests).toBe(1);

	const second = await runWith(workflow, []);
	expect(second.run.execution.status).toBe('error');
	expect(errorText(second.run)).toMatch(/rate-limiting.*HTTP 429/i);
	expect(second.tokenRequests).toBe(0);
});

it('no client secret, signing secret or token in outputs, errors or n8n logs', () => {
	const secrets: Record<string, string> = { 'signing secret': session.signingSecret };
	clients.forEach((client, i) => (secrets[`client secret #${i}`] = client.clientSecret));
	expect(findLeaks({ ...seen, 'n8n log': session.n8n.logs() }, secrets)).toEqual([]);
	expect(Object.keys(seen).length).toBeGreaterThan(8);
});
