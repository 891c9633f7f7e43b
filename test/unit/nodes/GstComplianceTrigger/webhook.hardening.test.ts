/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed test secrets shared with the emulator, not credentials */
/**
 * A request that cannot verify costs no credential read: the Service-Signature header is parsed
 * (and the size checked) before the webhook credential is read.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { formatSignatureHeader, sign } from '../../../../nodes/GstComplianceTrigger/signature';
import { handleWebhook } from '../../../../nodes/GstComplianceTrigger/webhook';

const SECRET = 'whsec_hardening_0123456789abcdef';

function fakeContext(body: Buffer, headers: Record<string, string | undefined>) {
	const response: { status?: number; body?: unknown } = {};
	const getCredentials = jest.fn(async () => ({
		signingSecret: SECRET,
		previousSigningSecret: '',
	}));
	const staticData: IDataObject = {};
	const context = {
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'events' ? ['*'] : name === 'refetch' ? false : fallback,
		getCredentials,
		getHeaderData: () => headers,
		getRequestObject: () => ({ rawBody: body }),
		getResponseObject: () => ({
			status(code: number) {
				response.status = code;
				return {
					json(payload: unknown) {
						response.body = payload;
					},
				};
			},
		}),
		logger: { debug() {}, info() {}, warn() {}, error() {} },
		getNode: () => ({
			id: 'node-1',
			name: 'Trigger',
			type: 't',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: 'wf-hardening' }),
		getWorkflowStaticData: () => staticData,
	} as unknown as IWebhookFunctions;
	return { context, getCredentials, response };
}

const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'einvoice.generated', data: {} }));
const now = () => Math.floor(Date.now() / 1000);

describe('webhook: no credential read for a request that cannot verify', () => {
	afterEach(() => dedupeRegistry.clear());

	it.each<[string, string | undefined]>([
		['no header', undefined],
		['an empty header', ''],
		['garbage', 'hello'],
		['t only', `t=${now()}`],
		['v1 only', `v1=${'a'.repeat(64)}`],
		['a short v1', `t=${now()},v1=abc`],
		['a non-numeric t', `t=soon,v1=${'a'.repeat(64)}`],
		['two t', `t=1,t=2,v1=${'a'.repeat(64)}`],
		['an oversized header', `t=${now()},${'v1='.padEnd(5000, 'a')}`],
	])('%s: 401, getCredentials never called', async (_name, header) => {
		const { context, getCredentials, response } = fakeContext(body, {
			'service-signature': header,
		});
		const result = await handleWebhook.call(context);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
		expect(response.body).toEqual({ error: 'Signature verification failed' });
		expect(getCredentials).not.toHaveBeenCalled();
	});

	it('an oversized body: 413, getCredentials never called', async () => {
		const big = Buffer.alloc(1024 * 1024 + 1, 'a');
		const t = now();
		const { context, getCredentials, response } = fakeContext(big, {
			'service-signature': formatSignatureHeader(t, [sign(SECRET, t, big)]),
		});
		await handleWebhook.call(context);
		expect(response.status).toBe(413);
		expect(getCredentials).not.toHaveBeenCalled();
	});

	it('a well-formed header is checked against the credential', async () => {
		const t = now();
		const wrong = fakeContext(body, {
			'service-signature': formatSignatureHeader(t, ['b'.repeat(64)]),
		});
		await handleWebhook.call(wrong.context);
		expect(wrong.getCredentials).toHaveBeenCalledTimes(1);
		expect(wrong.response.status).toBe(401);

		const right = fakeContext(body, {
			'service-signature': formatSignatureHeader(t, [sign(SECRET, t, body)]),
		});
		const result = await handleWebhook.call(right.context);
		expect(right.getCredentials).toHaveBeenCalledTimes(1);
		expect(result.workflowData).toBeDefined();
	});
});
