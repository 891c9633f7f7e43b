/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The package's side of the n8n behaviours it depends on (nodes/GstCompliance/n8nCompat.ts); the
 * e2e n8nCompat spec pins the trigger's on the e2e n8n, and `sendAuthenticated` is compared here with
 * n8n-core's own `httpRequestWithAuthentication` over real HTTP.
 */
import { sleep } from 'n8n-workflow';

import { gstApiRequest } from '@/nodes/GstCompliance/transport/apiRequest';
import { authenticateWith } from '@/nodes/GstCompliance/credential/authenticate';
import { n8nHttpRequestPost } from '@/nodes/GstCompliance/credential/tokenClient';
import type { AddressInfo } from 'net';
import * as http from 'http';

import {
	ACCEPTED,
	answeredByNode,
	answerOnceExecutionExists,
	requestBytes,
	sendAuthenticated,
	workflowNodeIds,
	writeAnswer,
} from '@/nodes/GstCompliance/n8nCompat';
import {
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { executeContext } from '@/test/integration/helpers/executeNode';
import { recordOutboundRequests } from '@/test/integration/helpers/outboundRequests';

describe('writeAnswer, on a real HTTP response', () => {
	it('answers 202 {"received":true} as JSON with its length; answeredByNode starts the workflow with the item', async () => {
		const item = { id: 'evt_1' };
		const server = http.createServer((_req, res) => {
			writeAnswer(res, ACCEPTED.status, ACCEPTED.body);
			writeAnswer(res, 503, { error: 'a second answer is never written' });
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as AddressInfo;
			const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' });
			expect(answer.status).toBe(202);
			expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
			expect(answer.headers.get('content-length')).toBe('17');
			expect(await answer.json()).toEqual({ received: true });
			expect(answeredByNode(item)).toEqual({
				noWebhookResponse: true,
				workflowData: [[{ json: item }]],
			});
			expect(answeredByNode()).toEqual({ noWebhookResponse: true });
		} finally {
			server.close();
		}
	});

	it('after the sender went away (the socket destroyed) → writes nothing, throws nothing', async () => {
		const written = jest.fn();
		writeAnswer({ destroyed: true, writeHead: written }, 202, { received: true });
		writeAnswer({ writableEnded: true, writeHead: written }, 202, { received: true });
		expect(written).not.toHaveBeenCalled();
	});
});

describe('answerOnceExecutionExists', () => {
	it('starts the workflow with the item; the callback runs, and the 200 is built, when n8n reads the answer', () => {
		const onExecutionCreated = jest.fn();
		const item = { id: 'evt_1', type: 'einvoice.generated' };
		const response = answerOnceExecutionExists(item, onExecutionCreated);
		expect(response.workflowData).toEqual([[{ json: item }]]);
		expect(onExecutionCreated).not.toHaveBeenCalled();
		expect(response.webhookResponse).toEqual({ received: true });
		expect(onExecutionCreated).toHaveBeenCalledTimes(1);
	});
});

describe("workflowNodeIds, on n8n-core's contexts", () => {
	it("an execute context → the ids of the workflow's nodes", () => {
		const { context } = executeContext({ parameters: {} });
		expect(workflowNodeIds(context)).toEqual(['node-1']);
	});

	it('a context without the workflow, or a node without an id (a workflow of an early n8n) → unknown', () => {
		expect(workflowNodeIds({})).toBeUndefined();
		expect(
			workflowNodeIds({ workflow: { nodes: { A: { id: 'a' }, B: { name: 'B' } } } }),
		).toBeUndefined();
		expect(workflowNodeIds({ workflow: { nodes: null } })).toBeUndefined();
	});
});

describe('requestBytes', () => {
	it('a body n8n has read (rawBody) → those bytes, n8n not asked again', async () => {
		const readRawBody = jest.fn();
		const rawBody = Buffer.from('{"id":"evt_1"}');
		expect(await requestBytes({ rawBody, readRawBody })).toBe(rawBody);
		expect(readRawBody).not.toHaveBeenCalled();
	});

	it("a body n8n left unread (a content type it does not parse) → read with n8n's readRawBody", async () => {
		const request: { rawBody?: Buffer; readRawBody: () => Promise<void> } = {
			readRawBody: async () => {
				request.rawBody = Buffer.from('raw bytes');
			},
		};
		expect((await requestBytes(request)).toString()).toBe('raw bytes');
	});

	it('a string rawBody → its bytes; no body at all → empty', async () => {
		expect((await requestBytes({ rawBody: 'text' })).toString()).toBe('text');
		expect((await requestBytes({})).length).toBe(0);
	});
});

describe("sendAuthenticated, against n8n-core's httpRequestWithAuthentication", () => {
	const emulator = useEmulatorForPackage();
	const outbound = recordOutboundRequests();
	beforeEach(() => outbound.reset());

	function setup(abortSignal?: AbortSignal) {
		const client = emulator().control.createClient({ environment: 'sandbox' });
		const data = credentialData(emulator(), client);
		const { context } = executeContext({
			parameters: {},
			credentials: { gstComplianceApi: data },
			abortSignal,
		});
		const einvoiceId = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		}).id;
		return { context, data, einvoiceId };
	}

	it('sends the same request: method, URL, every header, and the execution cancel signal', async () => {
		const { context, data, einvoiceId } = setup(new AbortController().signal);
		const request = () => ({
			method: 'GET' as const,
			url: `/v1/einvoices/${einvoiceId}`,
			qs: { view: 'full' },
			json: true,
		});
		await context.helpers.httpRequestWithAuthentication.call(
			context,
			'gstComplianceApi',
			request(),
		);
		const post = n8nHttpRequestPost(async (options) => await context.helpers.httpRequest(options));
		await sendAuthenticated(
			context,
			request(),
			async (options) => await authenticateWith(data, options, post),
		);
		const [theirs, ours] = outbound.requests.filter((r) => r.url.includes('/v1/einvoices/'));
		expect(theirs.cancellable).toBe(true);
		expect(ours).toEqual(theirs);
	});

	it('a stopped execution aborts the request in flight and is not retried', async () => {
		const controller = new AbortController();
		const { context, einvoiceId } = setup(controller.signal);
		emulator().control.injectApiFaults([{ kind: 'slow', ms: 2_000 }]);
		const call = gstApiRequest.call(context, 'GET', `/v1/einvoices/${einvoiceId}`);
		void sleep(200).then(() => controller.abort());
		await expect(call).rejects.toThrow(/failed: the execution was stopped/);
		const sent = outbound.requests.filter((r) => r.url.includes('/v1/einvoices/'));
		expect(sent.map((r) => r.error)).toEqual(['ERR_CANCELED']);
	});
});
