/**
 * Deliveries that must start nothing, each through the node's real webhook(): the status, a
 * short JSON body that echoes no secret or signature, and no start. None of them is recorded: the
 * same event correctly signed afterwards still starts the workflow.
 */
import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { formatSignatureHeader, sign } from '../../../../nodes/GstComplianceTrigger/signature';
import { MAX_BODY_BYTES } from '../../../../nodes/GstComplianceTrigger/delivery';
import {
	deliver,
	envelope,
	newWorkflow,
	NOW_MS,
	NOW_S,
	PREVIOUS_SECRET,
	SECRET,
	signed,
	type DeliveryRequest,
} from '../../helpers/deliverToTrigger';

const BODY = JSON.stringify(envelope());
const v1 = (body: string | Buffer, t: number | string = NOW_S, secret = SECRET) =>
	sign(secret, t, body);
const header = (value: string | string[] | undefined) => ({ 'service-signature': value });
const withHeader = (
	body: string | Buffer,
	value: string | string[] | undefined,
): DeliveryRequest => ({
	body,
	headers: header(value),
});
const tamper = (body: string, at: number) => {
	const bytes = Buffer.from(body);
	bytes[at] ^= 0x20;
	return bytes;
};
const signedAs = (envelopeBody: unknown) => signed(JSON.stringify(envelopeBody));

beforeEach(() => {
	jest.spyOn(Date, 'now').mockReturnValue(NOW_MS);
	dedupeRegistry.clear();
});
afterEach(() => jest.restoreAllMocks());

const cases: Array<[string, number, DeliveryRequest]> = [
	// 401: the header or the signature
	['no signature header', 401, { body: BODY, headers: {} }],
	['empty signature header', 401, withHeader(BODY, '')],
	['garbled header', 401, withHeader(BODY, 'nonsense')],
	['header without t', 401, withHeader(BODY, `v1=${v1(BODY)}`)],
	['header without v1', 401, withHeader(BODY, `t=${NOW_S}`)],
	['two t values', 401, withHeader(BODY, `t=${NOW_S},t=${NOW_S},v1=${v1(BODY)}`)],
	[
		't in milliseconds, signed as such',
		401,
		withHeader(BODY, `t=${NOW_MS},v1=${v1(BODY, NOW_MS)}`),
	],
	['truncated v1', 401, withHeader(BODY, `t=${NOW_S},v1=${v1(BODY).slice(0, 63)}`)],
	['v1 of another scheme only (v0)', 401, withHeader(BODY, `t=${NOW_S},v0=${v1(BODY)}`)],
	[
		'header repeated (joined by Node)',
		401,
		withHeader(BODY, `t=${NOW_S},v1=${v1(BODY)}, t=${NOW_S},v1=${v1(BODY)}`),
	],
	['forged signature', 401, withHeader(BODY, `t=${NOW_S},v1=${'ab'.repeat(32)}`)],
	['signed with the wrong secret', 401, signed(BODY, NOW_S, 'whsec_wrong_0123456789abcdefghij')],
	[
		'several v1, none valid',
		401,
		withHeader(BODY, formatSignatureHeader(NOW_S, ['0'.repeat(64), 'f'.repeat(64)])),
	],
	['one tampered byte in the body', 401, { ...signed(BODY), body: tamper(BODY, 10) }],
	[
		'body re-serialised with spaces',
		401,
		{ ...signed(BODY), body: JSON.stringify(JSON.parse(BODY), null, 1) },
	],
	['body with a trailing newline', 401, { ...signed(BODY), body: `${BODY}\n` }],
	['signature for another timestamp', 401, withHeader(BODY, `t=${NOW_S + 1},v1=${v1(BODY)}`)],
	['stale t (301 s old)', 401, signed(BODY, NOW_S - 301)],
	['future t (301 s ahead)', 401, signed(BODY, NOW_S + 301)],
	['replay of a day-old delivery', 401, signed(BODY, NOW_S - 86_400)],
	['t = 0', 401, signed(BODY, 0)],
	[
		'signed with the previous secret but none configured',
		401,
		signed(BODY, NOW_S, PREVIOUS_SECRET),
	],
	['empty body, unsigned', 401, { body: '', headers: {} }],
	// 400: verified, but not an event envelope
	['empty body, signed', 400, signed('')],
	['not JSON', 400, signed('id=evt_1&type=einvoice.generated')],
	['truncated JSON', 400, signed(BODY.slice(0, -1))],
	['JSON array', 400, signedAs([envelope()])],
	['JSON string', 400, signedAs('evt_1')],
	['JSON null', 400, signed('null')],
	['missing id', 400, signedAs({ ...envelope(), id: undefined })],
	['numeric id', 400, signedAs(envelope({ id: 42 }))],
	['empty id', 400, signedAs(envelope({ id: '' }))],
	['missing type', 400, signedAs({ ...envelope(), type: undefined })],
	['type is an object', 400, signedAs(envelope({ type: { name: 'einvoice.generated' } }))],
	['invalid UTF-8', 400, signed(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
	// 413: refused before any hashing
	['huge body, signed', 413, signed(Buffer.alloc(MAX_BODY_BYTES + 1, 0x20))],
	['huge body, unsigned', 413, { body: Buffer.alloc(5 * MAX_BODY_BYTES, 0x61), headers: {} }],
];

describe('a rejected delivery', () => {
	it.each(cases)('%s → %i, no start', async (_label, status, request) => {
		const workflow = newWorkflow();
		const result = await deliver({ ...request, workflow });

		expect(result.status).toBe(status);
		expect(result.started).toBeUndefined();
		expect(Object.keys(result.body as object)).toEqual(['error']);
		const text = JSON.stringify(result.body);
		expect(text).not.toContain(SECRET);
		expect(text).not.toMatch(/[0-9a-f]{64}/);
		expect(text).not.toMatch(/\bat .*\.ts:\d+/);
		expect(workflow.staticData).toEqual({});

		// Nothing was recorded: the genuine delivery of the same event still starts the workflow.
		const genuine = await deliver({ ...signed(BODY), workflow });
		expect(genuine.started).toHaveLength(1);
	});

	it('covers at least 30 cases', () => {
		expect(cases.length).toBeGreaterThanOrEqual(30);
	});

	it('is answered with one generic text for a bad signature and a stale timestamp', async () => {
		const forged = await deliver(withHeader(BODY, `t=${NOW_S},v1=${'ab'.repeat(32)}`));
		const stale = await deliver(signed(BODY, NOW_S - 301));
		expect(forged.body).toEqual(stale.body);
	});

	it('answers 500 and starts nothing when the webhook credential is missing', async () => {
		const result = await deliver({ ...signed(BODY), credentials: null });
		expect(result).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
			started: undefined,
		});
	});

	it('never verifies against an empty signing secret', async () => {
		const request = signed(BODY, NOW_S, '');
		const result = await deliver({
			...request,
			credentials: { signingSecret: '', previousSigningSecret: '' },
		});
		expect(result.status).toBe(401);
	});
});

describe('an accepted but unstarted delivery', () => {
	it('acknowledges an unselected event type with 200 and records nothing', async () => {
		const workflow = newWorkflow();
		const body = JSON.stringify(envelope({ type: 'ewaybill.expired' }));
		const ignored = await deliver({ ...signed(body), events: ['einvoice.failed'], workflow });
		expect(ignored).toEqual({
			status: 200,
			body: { received: true, ignored: 'event type not selected' },
			started: undefined,
		});
		expect(workflow.staticData).toEqual({});
	});

	it('acknowledges an unknown future type unless All Events is selected', async () => {
		const body = JSON.stringify(envelope({ id: 'evt_future', type: 'gstr1.filed' }));
		const selected = Array.from(['einvoice.generated', 'einvoice.cancelled']);
		expect((await deliver({ ...signed(body), events: selected })).started).toBeUndefined();
		expect((await deliver({ ...signed(body), events: ['*'] })).started).toHaveLength(1);
	});

	it('starts nothing when no event is selected', async () => {
		expect((await deliver({ ...signed(BODY), events: [] })).started).toBeUndefined();
	});
});
