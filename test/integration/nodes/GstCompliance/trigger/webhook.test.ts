/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The trigger's webhook() through n8n's webhook handling (helpers/deliverToTrigger.ts), and the
 * first step of the execution it started: which deliveries are refused (and cost no credential
 * read), which are accepted at once and do their work once, the dedupe lifecycle as a delivery
 * and its execution see it (duplicate, on its way, an execution n8n lost, runs again after a
 * restart, the acknowledgement by n8n version), the options as used and logged, and the service
 * emulator's own deliveries over real HTTP. Where the ids are kept (static data, per node) is in
 * dedupe/memory/memoryLedger.test.ts; the refetched item itself in output.test.ts.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import Redis from 'ioredis';

import { redisClients } from '@/nodes/GstCompliance/trigger/dedupe/redis/redisClients';
import { REDIS_PREFIX } from '@/nodes/GstCompliance/trigger/dedupe/keys';
import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import { MAX_BODY_BYTES } from '@/nodes/GstCompliance/trigger/delivery';
import { EVENT_TYPES } from '@/nodes/GstCompliance/trigger/events';
import * as output from '@/nodes/GstCompliance/trigger/output';
import { OVERDUE_LOOK_EVERY_MS } from '@/nodes/GstCompliance/trigger/overdue';
import { formatSignatureHeader, sign } from '@/nodes/GstCompliance/trigger/signature';
import { PROBE_HEADER } from '@/nodes/GstCompliance/trigger/ownUrl';
import * as n8nCompat from '@/nodes/GstCompliance/n8nCompat';
import { startEmulator, type ClientInfo, type RunningEmulator } from '@/test/emulator';
import { startRedis, type RunningRedis } from '@/test/harness/queue/services';
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
	type DeliveryResult,
} from '@/test/integration/helpers/deliverToTrigger';
import {
	closedPortUrl,
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { passRedisTime } from '@/test/integration/helpers/redisTime';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const MIB = 1024 * 1024;
const DUPLICATE = { status: 200, body: { received: true, duplicate: true }, started: undefined };
/**
 * A copy of an event accepted and on its way to its execution: no execution of its own, and
 * answered at once (the acceptance it found is saved already: nothing to wait for).
 */
const ON_ITS_WAY = {
	status: 202,
	body: { received: true, duplicate: true },
	started: undefined,
	acknowledgedBeforeSave: { status: 202, body: { received: true, duplicate: true } },
};
const ACCEPTED = { status: 202, body: { received: true } };

/** The stubbed clock of the deliveries signed by the test (NOW_MS unless a test moves it). */
let now = NOW_MS;
const useFixedClock = () => {
	beforeEach(() => {
		now = NOW_MS;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		dedupeRegistry.clear();
	});
	afterEach(() => jest.restoreAllMocks());
};
const nowS = () => Math.floor(now / 1000);
const event = (id: string, overrides: Record<string, unknown> = {}) =>
	JSON.stringify(envelope({ id, ...overrides }));
/** A delivery signed at the (stubbed) current time. */
const fresh = (body: string) => signed(body, nowS());
let workflows = 0;
/** A workflow of its own: its ids, its Redis keys and its logged notes are no other test's. */
const ownWorkflow = () => newWorkflow(`wf-webhook-${++workflows}`);

/** What the node logged through n8n's Logger, by level. */
function captureLogs(): { warn: string[]; error: string[] } {
	const logs = { warn: [] as string[], error: [] as string[] };
	const logger = Container.get(Logger);
	for (const level of ['warn', 'error'] as const)
		jest
			.spyOn(logger, level)
			.mockImplementation((...args: unknown[]) => void logs[level].push(String(args[0])));
	return logs;
}
/** The options notes among the warnings (each of the trigger's lines names it the same way). */
const optionNotes = (warnings: string[]) =>
	warnings.filter((message) =>
		/^GST Compliance Trigger "[^"]+" \(workflow [^)]+\): (?!a delivery|\d+ deliveries)/.test(
			message,
		),
	);

describe('refusing deliveries that do not verify', () => {
	useFixedClock();

	const BODY = event('evt_0001');
	const v1 = (body: string | Buffer, t: number | string = NOW_S, secret = SECRET) =>
		sign(secret, t, body);
	const withHeader = (
		body: string | Buffer,
		value: string | string[] | undefined,
	): DeliveryRequest => ({ body, headers: { 'service-signature': value } });
	const tamper = (body: string, at: number) => {
		const bytes = Buffer.from(body);
		bytes[at] ^= 0x20;
		return bytes;
	};
	const signedAs = (envelopeBody: unknown) => signed(JSON.stringify(envelopeBody));

	/**
	 * [case, status, webhook credential reads, request]. A header that cannot be parsed (and an
	 * oversized body) is refused before the credential is read: no database read or decryption.
	 */
	const cases: Array<[string, number, 0 | 1, DeliveryRequest]> = [
		// 401, header unusable: refused before the credential is read
		['no signature header', 401, 0, { body: BODY, headers: {} }],
		['empty signature header', 401, 0, withHeader(BODY, '')],
		['garbled header', 401, 0, withHeader(BODY, 'nonsense')],
		['header without t', 401, 0, withHeader(BODY, `v1=${v1(BODY)}`)],
		['header without v1', 401, 0, withHeader(BODY, `t=${NOW_S}`)],
		['two t values', 401, 0, withHeader(BODY, `t=${NOW_S},t=${NOW_S},v1=${v1(BODY)}`)],
		['a non-numeric t', 401, 0, withHeader(BODY, `t=soon,v1=${v1(BODY)}`)],
		[
			't in milliseconds, signed as such',
			401,
			0,
			withHeader(BODY, `t=${NOW_MS},v1=${v1(BODY, NOW_MS)}`),
		],
		['truncated v1', 401, 0, withHeader(BODY, `t=${NOW_S},v1=${v1(BODY).slice(0, 63)}`)],
		['a three-character v1', 401, 0, withHeader(BODY, `t=${NOW_S},v1=abc`)],
		['v1 of another scheme only (v0)', 401, 0, withHeader(BODY, `t=${NOW_S},v0=${v1(BODY)}`)],
		[
			'header repeated (joined by Node)',
			401,
			0,
			withHeader(BODY, `t=${NOW_S},v1=${v1(BODY)}, t=${NOW_S},v1=${v1(BODY)}`),
		],
		['an oversized header', 401, 0, withHeader(BODY, `t=${NOW_S},${'v1='.padEnd(5000, 'a')}`)],
		['empty body, unsigned', 401, 0, { body: '', headers: {} }],
		// 401, header well-formed: checked against the credential
		['forged signature', 401, 1, withHeader(BODY, `t=${NOW_S},v1=${'ab'.repeat(32)}`)],
		[
			'signed with the wrong secret',
			401,
			1,
			signed(BODY, NOW_S, 'whsec_wrong_0123456789abcdefghij'),
		],
		[
			'several v1, none valid',
			401,
			1,
			withHeader(BODY, formatSignatureHeader(NOW_S, ['0'.repeat(64), 'f'.repeat(64)])),
		],
		['one tampered byte in the body', 401, 1, { ...signed(BODY), body: tamper(BODY, 10) }],
		[
			'body re-serialised with spaces',
			401,
			1,
			{ ...signed(BODY), body: JSON.stringify(JSON.parse(BODY), null, 1) },
		],
		['body with a trailing newline', 401, 1, { ...signed(BODY), body: `${BODY}\n` }],
		['signature for another timestamp', 401, 1, withHeader(BODY, `t=${NOW_S + 1},v1=${v1(BODY)}`)],
		['stale t (301 s old)', 401, 1, signed(BODY, NOW_S - 301)],
		['future t (301 s ahead)', 401, 1, signed(BODY, NOW_S + 301)],
		['replay of a day-old delivery', 401, 1, signed(BODY, NOW_S - 86_400)],
		['t = 0', 401, 1, signed(BODY, 0)],
		[
			'signed with the previous secret but none configured',
			401,
			1,
			signed(BODY, NOW_S, PREVIOUS_SECRET),
		],
		// 400: verified, but not an event envelope
		['empty body, signed', 400, 1, signed('')],
		['not JSON', 400, 1, signed('id=evt_1&type=einvoice.generated')],
		['truncated JSON', 400, 1, signed(BODY.slice(0, -1))],
		['JSON array', 400, 1, signedAs([envelope()])],
		['JSON string', 400, 1, signedAs('evt_1')],
		['JSON null', 400, 1, signed('null')],
		['missing id', 400, 1, signedAs({ ...envelope(), id: undefined })],
		['numeric id', 400, 1, signedAs(envelope({ id: 42 }))],
		['empty id', 400, 1, signedAs(envelope({ id: '' }))],
		['missing type', 400, 1, signedAs({ ...envelope(), type: undefined })],
		['type is an object', 400, 1, signedAs(envelope({ type: { name: 'einvoice.generated' } }))],
		['invalid UTF-8', 400, 1, signed(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
		// 413: refused before any hashing or credential read
		['huge body, unsigned', 413, 0, { body: Buffer.alloc(5 * MAX_BODY_BYTES, 0x61), headers: {} }],
	];

	it.each(cases)(
		'webhook() with %s → %i, %i credential read(s), nothing started or recorded',
		async (_label, status, credentialReads, request) => {
			const workflow = newWorkflow();
			const reads: Record<string, number> = {};
			const result = await deliver({ ...request, workflow, reads });

			expect(result.status).toBe(status);
			expect(result.started).toBeUndefined();
			expect(reads.gstComplianceWebhookApi ?? 0).toBe(credentialReads);
			expect(Object.keys(result.body as object)).toEqual(['error']);
			const text = JSON.stringify(result.body);
			expect(text).not.toContain(SECRET);
			expect(text).not.toMatch(/[0-9a-f]{64}/);
			expect(text).not.toMatch(/\bat .*\.ts:\d+/);
			expect(workflow.staticData).toEqual({});

			// Nothing was recorded: the genuine delivery of the same event still starts the workflow.
			const genuine = await deliver({ ...signed(BODY), workflow });
			expect(genuine.started).toHaveLength(1);
		},
	);

	it('webhook() with a forged signature or a stale timestamp → the same 401 text', async () => {
		const forged = await deliver(withHeader(BODY, `t=${NOW_S},v1=${'ab'.repeat(32)}`));
		const stale = await deliver(signed(BODY, NOW_S - 301));
		expect(forged.body).toEqual({ error: 'Signature verification failed' });
		expect(stale.body).toEqual(forged.body);
	});

	it('webhook() with an empty signing secret → 500 "Trigger is not configured", even for a body signed with ""', async () => {
		const result = await deliver({
			...signed(BODY, NOW_S, ''),
			credentials: { signingSecret: '', previousSigningSecret: '' },
		});
		expect(result).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
			started: undefined,
		});
	});

	it('webhook() without a webhook credential → 500 "Trigger is not configured", nothing started', async () => {
		expect(await deliver({ ...signed(BODY), credentials: null })).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
			started: undefined,
		});
	});
});

describe('the timestamp tolerance', () => {
	useFixedClock();

	it.each([
		['300 s old', 202, -300],
		['300 s ahead', 202, 300],
		['301 s old', 401, -301],
		['301 s ahead', 401, 301],
	])('webhook() with no options, signed %s → %i', async (_name, status, offset) => {
		const result = await deliver({ ...signed(event('evt_t'), NOW_S + offset), options: {} });
		expect(result.status).toBe(status);
		expect(result.started !== undefined).toBe(status === 202);
	});

	it('webhook() with toleranceSeconds set by an expression (n8nCompat.ts, 13.) → n8n resolves it: 30 s old starts, 31 s old → 401', async () => {
		const options = { toleranceSeconds: '={{ 20 + 10 }}' };
		const within = await deliver({ ...signed(event('evt_x1'), NOW_S - 30), options });
		expect(within.started).toHaveLength(1);
		expect((await deliver({ ...signed(event('evt_x2'), NOW_S - 31), options })).status).toBe(401);
	});

	it('webhook() with toleranceSeconds 30 → signed 30 s old starts, 31 s old → 401', async () => {
		const options = { toleranceSeconds: 30 };
		const within = await deliver({ ...signed(event('evt_1'), NOW_S - 30), options });
		expect(within.started).toHaveLength(1);
		expect((await deliver({ ...signed(event('evt_2'), NOW_S - 31), options })).status).toBe(401);
	});
});

describe('the body size limit (1 MiB)', () => {
	useFixedClock();

	/** A signed envelope of exactly `bytes` bytes: the padding is inside `data`. */
	const ofSize = (bytes: number) => {
		const bare = JSON.stringify(envelope({ id: 'evt_big', data: { id: 'einv_1', pad: '' } }));
		const body = bare.replace('"pad":""', `"pad":"${'x'.repeat(bytes - bare.length)}"`);
		expect(Buffer.byteLength(body)).toBe(bytes);
		return signed(body, nowS());
	};

	it('webhook() with a signed envelope of exactly 1 MiB → 200, started', async () => {
		const result = await deliver({ ...ofSize(MIB), options: {} });
		expect(result.status).toBe(202);
		expect(result.started).toHaveLength(1);
	});

	it('webhook() with a signed envelope of 1 MiB + 1 byte → 413 "Payload too large", no credential read', async () => {
		const reads: Record<string, number> = {};
		expect(await deliver({ ...ofSize(MIB + 1), options: {}, reads })).toEqual({
			status: 413,
			body: { error: 'Payload too large' },
			started: undefined,
		});
		expect(reads).toEqual({});
	});
});

describe('a body n8n left unread (trigger version 2, a content type n8n does not parse)', () => {
	useFixedClock();

	it("webhook() → read with n8n's readRawBody, verified and started", async () => {
		const result = await deliver({ ...fresh(event('evt_unread')), unreadBody: true });
		expect(result.status).toBe(202);
		expect(result.started).toHaveLength(1);
	});

	it('webhook() with a body above n8n\'s payload limit (raw-body\'s 413) → 413 "Payload too large", no credential read', async () => {
		const reads: Record<string, number> = {};
		const tooLarge = Object.assign(new Error('request entity too large'), {
			status: 413,
			type: 'entity.too.large',
		});
		expect(await deliver({ ...fresh(event('evt_unread')), unreadBody: tooLarge, reads })).toEqual({
			status: 413,
			body: { error: 'Payload too large' },
			started: undefined,
		});
		expect(reads).toEqual({});
	});

	it('webhook() with a body that cannot be read (the client aborted) → 400, nothing started', async () => {
		const aborted = new Error('Request body stream was aborted mid-read or is not readable');
		expect(await deliver({ ...fresh(event('evt_unread')), unreadBody: aborted })).toEqual({
			status: 400,
			body: { error: 'The request body could not be read' },
			started: undefined,
		});
	});
});

describe('showing the listening editor why a Test-URL delivery does no work', () => {
	useFixedClock();

	/** A Test-URL delivery: the same answer as production, and an execution whose step says why. */
	const listened = async (request: DeliveryRequest) => {
		const result = await deliver({ ...request, mode: 'manual', execution: 'later' });
		const shown = await result.execution?.().then(
			() => undefined,
			(error: { message: string; description?: string }) => ({
				message: error.message,
				description: error.description,
			}),
		);
		return { status: result.status, body: result.body, shown };
	};

	it('webhook() without a signature header → 401 as in production, and the step names the header', async () => {
		expect(await listened({ body: event('evt_1'), headers: {} })).toEqual({
			status: 401,
			body: { error: 'Signature verification failed' },
			shown: {
				message: 'The delivery has no readable Service-Signature header',
				description: expect.stringMatching(/not from the service/),
			},
		});
	});

	it('webhook() signed with another secret → 401, and the step says to check the Signing Secret', async () => {
		const shown = await listened(signed(event('evt_1'), NOW_S, PREVIOUS_SECRET));
		expect(shown).toMatchObject({ status: 401, body: { error: 'Signature verification failed' } });
		expect(shown.shown?.message).toBe("The delivery's signature does not match the Signing Secret");
		expect(shown.shown?.description).toMatch(/Developer hub shows for this subscription/);
	});

	it('webhook() signed 10 minutes ago → 401, and the step names the clock and the tolerance', async () => {
		const shown = await listened(signed(event('evt_1'), NOW_S - 600));
		expect(shown.status).toBe(401);
		expect(shown.shown?.message).toBe("The delivery's timestamp is 600 s from this server's clock");
		expect(shown.shown?.description).toMatch(/Timestamp Tolerance of 300 s/);
	});

	it('webhook() with a body that is not an event → 400, and the step says what the body lacks', async () => {
		const shown = await listened(fresh(JSON.stringify({ hello: 'world' })));
		expect(shown).toMatchObject({ status: 400, body: { error: 'Body is not an event envelope' } });
		expect(shown.shown?.message).toBe('The delivery is not an event');
	});

	it('webhook() with an event type not selected → 200 as in production, and the step names the type', async () => {
		const body = event('evt_1', { type: 'ewaybill.expired' });
		expect(await listened({ ...fresh(body), events: ['einvoice.failed'] })).toEqual({
			status: 200,
			body: { received: true, ignored: 'event type not selected' },
			shown: {
				message: 'The event type "ewaybill.expired" is not selected in Events',
				description: expect.stringMatching(/Add it to Events, or choose All Events/),
			},
		});
	});

	it('webhook() with a Signing Secret that breaks the rules → 500, and the step gives the rule', async () => {
		const shown = await listened({
			...fresh(event('evt_1')),
			credentials: { signingSecret: 'short' },
		});
		expect(shown).toMatchObject({ status: 500, body: { error: 'Trigger is not configured' } });
		expect(shown.shown?.message).toBe('The Signing Secret cannot be used');
		expect(shown.shown?.description).toMatch(/shorter than 16 characters/);
	});

	it('webhook() with no webhook credential → 500, and the step says to select one', async () => {
		const shown = await listened({ ...fresh(event('evt_1')), credentials: null });
		expect(shown.status).toBe(500);
		expect(shown.shown?.message).toBe(
			'The trigger has no GST Compliance Webhook Signing Secret credential',
		);
	});

	it('webhook() with the same sample event in two listening sessions → each session runs it', async () => {
		const workflow = ownWorkflow();
		for (const session of [1, 2])
			expect({
				session,
				run: await deliver({ ...fresh(event('evt_sample')), workflow, mode: 'manual' }),
			}).toMatchObject({
				session,
				run: { status: 202, started: [expect.objectContaining({ id: 'evt_sample' })] },
			});
	});

	it('webhook() refused on the Production URL → no execution, as before', async () => {
		const result = await deliver({ body: event('evt_1'), headers: {}, execution: 'later' });
		expect(result).toEqual({
			status: 401,
			body: { error: 'Signature verification failed' },
			started: undefined,
		});
	});
});

describe('acknowledging verified events that start nothing', () => {
	useFixedClock();

	it('webhook() with an unselected event type → 200 "event type not selected", nothing recorded', async () => {
		const workflow = newWorkflow();
		const body = event('evt_0001', { type: 'ewaybill.expired' });
		expect(await deliver({ ...fresh(body), events: ['einvoice.failed'], workflow })).toEqual({
			status: 200,
			body: { received: true, ignored: 'event type not selected' },
			started: undefined,
		});
		expect(workflow.staticData).toEqual({});
	});

	it('webhook() with an unknown future type → nothing started unless All Events is selected', async () => {
		const body = event('evt_future', { type: 'gstr1.filed' });
		const selected = ['einvoice.generated', 'einvoice.cancelled'];
		expect((await deliver({ ...fresh(body), events: selected })).started).toBeUndefined();
		expect((await deliver({ ...fresh(body), events: ['*'] })).started).toHaveLength(1);
	});

	it('webhook() with no event selected → nothing started', async () => {
		expect((await deliver({ ...fresh(event('evt_1')), events: [] })).started).toBeUndefined();
	});
});

describe('starting an accepted event', () => {
	useFixedClock();

	it('webhook() with a signed envelope → 202 {received:true} at once, one item with the envelope, one credential read', async () => {
		const reads: Record<string, number> = {};
		const result = await deliver({ ...fresh(event('evt_1')), reads });
		expect(result.status).toBe(202);
		expect(result.body).toEqual({ received: true });
		expect(result.started).toEqual([
			{
				id: 'evt_1',
				type: 'einvoice.generated',
				createdAt: '2025-01-15T04:29:59Z',
				data: { id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
			},
		]);
		expect(reads).toEqual({ gstComplianceWebhookApi: 1 });
	});

	it('webhook() with outputShape "data" → the item is data alone', async () => {
		const result = await deliver({ ...fresh(event('evt_1')), options: { outputShape: 'data' } });
		expect(result.started).toEqual([
			{ id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
		]);
	});

	it('webhook() with outputShape and Events set by expressions (n8nCompat.ts, 13.) → both honoured, in webhook() and in the execution', async () => {
		const result = await deliver({
			...fresh(event('evt_expr')),
			options: { outputShape: '={{ "da" + "ta" }}' },
			events: ['={{ "einvoice.generated" }}'],
		});
		expect(result.started).toEqual([
			{ id: 'einv_1', object: 'einvoice', status: 'generated', irn: 'IRN1' },
		]);
	});

	it('webhook() for each event type → started for the selected types only', async () => {
		const selected = ['einvoice.failed', 'ewaybill.rejected'];
		for (const { value } of EVENT_TYPES) {
			const result = await deliver({
				...fresh(event(`evt_${value}`, { type: value })),
				events: selected,
			});
			expect(result.status).toBe(selected.includes(value) ? 202 : 200);
			expect(result.started !== undefined).toBe(selected.includes(value));
		}
	});

	it('webhook() with several v1 (one valid), in any order, with spaces → started', async () => {
		const body = event('evt_1');
		const header = ` v1=${'0'.repeat(64)} , v1=${sign(SECRET, NOW_S, body)} , t=${NOW_S} `;
		const result = await deliver({ body, headers: { 'service-signature': header } });
		expect(result.started).toHaveLength(1);
	});
});

describe('signing-secret rotation', () => {
	useFixedClock();
	const credentials = { signingSecret: SECRET, previousSigningSecret: PREVIOUS_SECRET };

	it('webhook() signed with the previous secret while it is set → started', async () => {
		const result = await deliver({
			...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
			credentials,
		});
		expect(result.started).toHaveLength(1);
	});

	it('webhook() with the service’s double signature (new and old v1) → started', async () => {
		const body = event('evt_both');
		const header = formatSignatureHeader(NOW_S, [
			sign(SECRET, NOW_S, body),
			sign(PREVIOUS_SECRET, NOW_S, body),
		]);
		const result = await deliver({ body, headers: { 'service-signature': header }, credentials });
		expect(result.started).toHaveLength(1);
	});

	it('webhook() signed with the previous secret once it is cleared → 401', async () => {
		const result = await deliver({
			...signed(event('evt_old'), NOW_S, PREVIOUS_SECRET),
			credentials: { signingSecret: SECRET, previousSigningSecret: '' },
		});
		expect(result.status).toBe(401);
	});
});

describe('answering redeliveries', () => {
	useFixedClock();

	it('webhook() with an id started a minute ago → 200 {duplicate:true}, nothing started', async () => {
		const workflow = newWorkflow();
		expect((await deliver({ ...fresh(event('evt_1')), workflow })).started).toHaveLength(1);
		now += MINUTE;
		expect(await deliver({ ...fresh(event('evt_1')), workflow })).toEqual(DUPLICATE);
	});

	it('webhook() × 20 concurrent deliveries of one id → one execution, each other answered without one', async () => {
		const workflow = newWorkflow();
		const send = async () => await deliver({ ...fresh(event('evt_race')), workflow });
		const results = await Promise.all(Array.from({ length: 20 }, send));
		const started = results.filter((r) => r.execution);
		expect(started).toHaveLength(1);
		expect(started[0]).toMatchObject(ACCEPTED);
		for (const other of results.filter((r) => !r.execution)) {
			expect(other).toMatchObject({
				body: { received: true, duplicate: true },
				started: undefined,
			});
			expect([200, 202]).toContain(other.status);
		}
		expect(await send()).toEqual(DUPLICATE);
	});

	it('webhook() while the first execution waits for a slot → a copy is answered 202 at once and creates no execution; once it starts, 200 duplicate', async () => {
		const workflow = newWorkflow();
		const first = await deliver({ ...fresh(event('evt_queued')), workflow, execution: 'later' });
		expect(first).toMatchObject(ACCEPTED);
		now += 20 * MINUTE;
		expect(await deliver({ ...fresh(event('evt_queued')), workflow })).toEqual(ON_ITS_WAY);
		expect((await first.execution!()).items).toHaveLength(1);
		expect(await deliver({ ...fresh(event('evt_queued')), workflow })).toEqual(DUPLICATE);
	});

	it.each([
		['2.8.4', 200],
		['2.33.0', 200],
		['2.34.0', 202],
		['2.41.1', 202],
		['1.122.48', 202],
		[undefined, 202],
	])(
		'webhook() on n8n-core %s with Acknowledge "Automatic" → %d: after the execution exists only where n8n never runs queued executions again after a restart',
		async (version, status) => {
			jest.spyOn(n8nCompat, 'n8nVersion').mockResolvedValue(version);
			const result = await deliver({ ...fresh(event('evt_version')), workflow: ownWorkflow() });
			expect(result).toMatchObject({ status, body: { received: true } });
			expect(result.started).toHaveLength(1);
		},
	);

	it('n8nVersion() → the version of the n8n-core this process resolves, read once', async () => {
		n8nCompat.forgetN8nVersion();
		expect(await n8nCompat.n8nVersion()).toBe(
			(jest.requireActual('n8n-core/package.json') as { version: string }).version,
		);
		const load = jest.fn(async () => ({ version: '9.9.9' }));
		expect(await n8nCompat.n8nVersion(load)).not.toBe('9.9.9');
		expect(load).not.toHaveBeenCalled();
		n8nCompat.forgetN8nVersion();
		expect(
			await n8nCompat.n8nVersion(async () => await Promise.reject(new Error('none'))),
		).toBeUndefined();
		n8nCompat.forgetN8nVersion();
	});

	it('webhook() with Refetch Latest State → answered before the refetch, which runs in the execution', async () => {
		const workflow = newWorkflow('wf-refetch-answer');
		const refetches = jest.spyOn(output, 'buildOutput');
		const first = await deliver({
			...fresh(event('evt_slow_prepare')),
			workflow,
			refetch: true,
			execution: 'later',
		});
		expect(first).toMatchObject(ACCEPTED);
		expect(refetches).not.toHaveBeenCalled();
		expect((await first.execution!()).items).toHaveLength(1);
		expect(refetches).toHaveBeenCalledTimes(1);
	});

	it('webhook() with no options → a duplicate 24 h 5 min later, started again a minute after that', async () => {
		const workflow = newWorkflow();
		const send = async () => await deliver({ ...fresh(event('evt_w')), workflow, options: {} });
		expect((await send()).started).toHaveLength(1);
		now = NOW_MS + 24 * HOUR + 300_000;
		expect(await send()).toEqual(DUPLICATE);
		now = NOW_MS + 24 * HOUR + 360_000;
		expect((await send()).started).toHaveLength(1);
	});
});

describe('the Dedupe Window option outside its range', () => {
	useFixedClock();

	// Before options.ts, -3 and "abc" made a negative or NaN window (every redelivery started
	// again) and 100000 kept ids for 100000 h; nothing was logged.
	it.each([
		[-3, 1, 'Dedupe Window (Hours) -3 is outside 1–720; 1 is used'],
		[100_000, 720, 'Dedupe Window (Hours) 100000 is outside 1–720; 720 is used'],
		['abc', 24, 'Dedupe Window (Hours) "abc" is not a number; 24 is used'],
	])(
		'webhook() with dedupeWindowHours %p → ids remembered %p h + 300 s, the note logged once',
		async (given, usedHours, note) => {
			const logs = captureLogs();
			const workflow = { ...ownWorkflow(), nodeName: 'Invoices in' };
			const windowMs = usedHours * HOUR + 300_000;
			const send = async () =>
				await deliver({
					...fresh(event('evt_window')),
					workflow,
					options: { dedupeWindowHours: given },
				});
			expect((await send()).started).toHaveLength(1);
			now = NOW_MS + windowMs - 1;
			expect(await send()).toEqual(DUPLICATE);
			now = NOW_MS + windowMs + MINUTE; // the built-in store counts whole minutes
			expect((await send()).started).toHaveLength(1);
			expect(optionNotes(logs.warn)).toEqual([
				`GST Compliance Trigger "Invoices in" (workflow ${workflow.id}): ${note}`,
			]);
		},
	);
});

/**
 * The dedupe lifecycle as a delivery sees it, the same with either store: the built-in one (in
 * process, whole minutes) and Redis (a real redis-server, times to the millisecond).
 */
interface StoreCase {
	name: string;
	setUp(): Promise<void>;
	tearDown(): Promise<void>;
	request(): Partial<DeliveryRequest>;
	/** How long after its start an id of a `windowMs` window is first forgotten. */
	forgottenAfterMs(windowMs: number): number;
	/** Time passes for the store (Redis counts it on its own clock, not the stubbed one). */
	passTime(ms: number): Promise<void>;
	/**
	 * How close to a lease's or window's end a test looks: the built-in store reads the stubbed
	 * clock (exact to the millisecond); Redis's clock also runs on while a request is made.
	 */
	edgeMs: number;
	/** The store keeps each accepted delivery until its start, to deliver a lost one again. */
	keepsDeliveries: boolean;
}

const REDIS_PASSWORD = 'redis-webhook-Pa55word';
let redis: RunningRedis | undefined;
let redisClock: Redis | undefined;
const redisAddress = () => ({ host: redis!.host, port: redis!.port });
const STORES: StoreCase[] = [
	{
		name: 'built-in store',
		setUp: async () => {},
		tearDown: async () => {},
		request: () => ({}),
		forgottenAfterMs: (windowMs) => Math.ceil(windowMs / MINUTE) * MINUTE + MINUTE,
		passTime: async () => {},
		edgeMs: 1,
		keepsDeliveries: false,
	},
	{
		name: 'Redis store',
		setUp: async () => {
			redis = await startRedis('unit-webhook-redis', { password: REDIS_PASSWORD });
			redisClock = new Redis({ ...redisAddress(), db: 4, password: REDIS_PASSWORD });
		},
		tearDown: async () => {
			redisClock?.disconnect();
			await redisClients.close();
			await redis?.dispose();
		},
		passTime: async (ms) => await passRedisTime(redisClock!, `${REDIS_PREFIX}:*`, ms),
		edgeMs: 250,
		keepsDeliveries: true,
		request: () => ({
			redis: { host: redis!.host, port: redis!.port, database: 4, password: REDIS_PASSWORD },
		}),
		forgottenAfterMs: (windowMs) => windowMs,
	},
];

describe.each(STORES)('the dedupe lifecycle with the $name', (store) => {
	beforeAll(async () => await store.setUp());
	afterAll(async () => await store.tearDown());
	useFixedClock();
	/**
	 * The stubbed clock and the store's own move together. Redis has counted the real time since
	 * the last move itself, so it is given only the rest.
	 */
	let realAt = performance.now();
	beforeEach(() => (realAt = performance.now()));
	const moveTo = async (ms: number) => {
		const real = performance.now() - realAt;
		await store.passTime(ms - now - real);
		realAt = performance.now();
		now = ms;
	};

	it(`an execution n8n lost after the 202 (a crash, a database error)${store.keepsDeliveries ? ', and n8n cannot reach its own Production URL' : ''} → said overdue after the Start Deadline on the next started item; its replay then starts it once`, async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		// The Redis store's trigger would deliver the event again itself (the next test).
		const unreachable = store.keepsDeliveries
			? { webhookBaseUrl: 'http://127.0.0.1:9/webhook' }
			: {};
		const send = async (id: string, extra: Partial<DeliveryRequest> = {}) =>
			await deliver({
				...fresh(event(id)),
				workflow,
				...store.request(),
				...unreachable,
				...extra,
			});

		const lost = await send('evt_lost', { execution: 'later' });
		expect(lost).toMatchObject(ACCEPTED);
		// The service got its 2xx; a replay within the Start Deadline is on its way.
		await moveTo(NOW_MS + 30 * MINUTE - store.edgeMs);
		expect(await send('evt_lost')).toEqual(ON_ITS_WAY);
		// The next started event names it, once (the replay looked, and found nothing yet, within
		// OVERDUE_LOOK_EVERY_MS before).
		await moveTo(NOW_MS + 30 * MINUTE + store.edgeMs + OVERDUE_LOOK_EVERY_MS);
		const next = await send('evt_next');
		expect(next.started).toEqual([
			expect.objectContaining({
				id: 'evt_next',
				// The time is the store's: the stubbed clock's, or Redis's own.
				dedupeNotice: expect.stringMatching(/^Event "evt_lost" was accepted at \d{4}-\d\d-\d\dT/),
			}),
		]);
		expect(logs.warn.filter((m) => m.includes('"evt_lost" was accepted'))).toHaveLength(1);
		expect(next.started![0].dedupeNotice).toContain('Replay it from the Developer hub');
		// The replay starts it, once; its lost execution, should n8n run it after all, ends empty.
		const replay = await send('evt_lost');
		expect(replay).toMatchObject(ACCEPTED);
		expect(replay.started).toEqual([expect.objectContaining({ id: 'evt_lost' })]);
		expect((await lost.execution!()).items).toEqual([]);
		expect(await send('evt_lost')).toEqual(DUPLICATE);
	});

	it(`an execution n8n lost after the 202, the Missed Event Warning passed → ${store.keepsDeliveries ? 'the next delivery delivers it to the trigger’s own Production URL again, and that delivery’s execution starts it once' : 'named on the next started item, to replay'}`, async () => {
		const workflow = ownWorkflow();
		// n8n's Production URL: each request to it is a delivery to this workflow's trigger.
		const again: DeliveryResult[] = [];
		const self = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				void deliver({
					body: Buffer.concat(chunks),
					headers: req.headers,
					workflow,
					...store.request(),
				}).then((result) => {
					// The built-in store's probes of what the database holds are not deliveries.
					if (!req.headers[PROBE_HEADER]) again.push(result);
					res.writeHead(result.status, { 'content-type': 'application/json' });
					res.end(JSON.stringify(result.body ?? {}));
				});
			});
		});
		await new Promise<void>((resolve) => self.listen(0, '127.0.0.1', resolve));
		try {
			const webhookBaseUrl = `http://127.0.0.1:${(self.address() as AddressInfo).port}/webhook`;
			const send = async (id: string, extra: Partial<DeliveryRequest> = {}) =>
				await deliver({
					...fresh(event(id)),
					workflow,
					webhookBaseUrl,
					...store.request(),
					...extra,
				});
			const lost = await send('evt_lost_again', { execution: 'later' });
			expect(lost).toMatchObject(ACCEPTED);
			await moveTo(NOW_MS + 30 * MINUTE + store.edgeMs + OVERDUE_LOOK_EVERY_MS);
			const next = await send('evt_after_it');
			if (store.keepsDeliveries) {
				expect(again).toEqual([
					expect.objectContaining({
						...ACCEPTED,
						started: [expect.objectContaining({ id: 'evt_lost_again' })],
					}),
				]);
				expect(next.started![0].dedupeNotice).toContain(
					'The trigger delivered it to its own Production URL again: that delivery starts it once.',
				);
				// The lost execution, should n8n run it after all, ends empty.
				expect((await lost.execution!()).items).toEqual([]);
			} else {
				expect(again).toEqual([]);
				expect(next.started![0].dedupeNotice).toContain('Replay it from the Developer hub');
			}
		} finally {
			self.close();
		}
	});

	it('an execution n8n runs again after a restart → it starts the event once; its first step again with the same item (a start retried, a Retry from the list) → started again, and the event’s copies are duplicates', async () => {
		const workflow = ownWorkflow();
		const first = await deliver({
			...fresh(event('evt_recovered')),
			workflow,
			...store.request(),
			execution: 'later',
		});
		dedupeRegistry.clear(); // the process restarts while the execution waits
		expect((await first.execution!()).items).toEqual([
			expect.objectContaining({ id: 'evt_recovered' }),
		]);
		expect(await first.execution!()).toEqual({
			items: [expect.objectContaining({ id: 'evt_recovered' })],
			hints: [],
		});
		expect(
			await deliver({ ...fresh(event('evt_recovered')), workflow, ...store.request() }),
		).toEqual(DUPLICATE);
	});

	it('webhook() with Respond "When the Execution Is Recorded" → n8n answers 200 after creating the execution; a copy meanwhile gets its own, which ends empty', async () => {
		const workflow = ownWorkflow();
		const options = { acknowledge: 'afterExecutionCreated' };
		const send = async (extra: Partial<DeliveryRequest> = {}) =>
			await deliver({
				...fresh(event('evt_deferred')),
				workflow,
				options,
				...store.request(),
				...extra,
			});
		let copy: DeliveryResult | undefined;
		// The copy arrives while the first waits for n8n to read its answer (a concurrency slot).
		const first = await send({
			execution: 'later',
			beforeAnswer: async () => (copy = await send({ execution: 'later' })),
		});
		expect(first).toMatchObject({ status: 200, body: { received: true } });
		expect(copy).toMatchObject({ status: 200, body: { received: true } });
		const runs = [await first.execution!(), await copy!.execution!()];
		expect(runs.map((run) => run.items.length).sort()).toEqual([0, 1]);
		expect(await send()).toEqual(DUPLICATE);
	});

	it('webhook() with Respond "When the Execution Is Recorded", answered, then a restart → a copy is a duplicate and creates no execution', async () => {
		const workflow = ownWorkflow();
		const options = { acknowledge: 'afterExecutionCreated' };
		const send = async (extra: Partial<DeliveryRequest> = {}) =>
			await deliver({
				...fresh(event('evt_deferred_restart')),
				workflow,
				options,
				...store.request(),
				...extra,
			});
		expect((await send()).started).toHaveLength(1);
		dedupeRegistry.clear();
		expect(await send()).toEqual(DUPLICATE);
	});

	// The old code passed 4.1 × 3600 + 300 s as 15059999.999999998 ms: Redis refused it as PX (the
	// built-in store rounds it up to the same whole minutes either way).
	it('webhook() with dedupeWindowHours 4.1 → remembered Math.round(4.1 h) + 300 s, no note', async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		const windowMs = Math.round(4.1 * HOUR) + 300_000;
		const send = async () =>
			await deliver({
				...fresh(event('evt_decimal')),
				workflow,
				options: { dedupeWindowHours: 4.1 },
				...store.request(),
			});
		expect((await send()).started).toHaveLength(1);
		await moveTo(NOW_MS + windowMs - store.edgeMs);
		expect(await send()).toEqual(DUPLICATE);
		await moveTo(NOW_MS + store.forgottenAfterMs(windowMs) - store.edgeMs);
		expect(await send()).toEqual(DUPLICATE);
		await moveTo(NOW_MS + store.forgottenAfterMs(windowMs) + store.edgeMs - 1);
		expect((await send()).started).toHaveLength(1);
		expect(optionNotes(logs.warn)).toEqual([]);
	});
});

/**
 * Refetch Latest State for an event whose resource id is not the id it looks like (a lone UTF-16
 * surrogate, an invisible character): the workflow starts with the reason, and nothing is sent to
 * the API (the emulator counts no token and no call).
 */
describe('refetching an event whose resource id is not the id it looks like', () => {
	const emulator = useEmulatorForPackage(
		{},
		{ tokenRequestTimeoutMs: 10_000, apiRequestTimeoutMs: 30_000 },
	);
	let client: ClientInfo;
	let apiCredential: ICredentialDataDecryptedObject;

	beforeEach(() => {
		dedupeRegistry.clear();
		client = emulator().control.createClient({ environment: 'sandbox', plan: 'einvoice' });
		apiCredential = credentialData(emulator(), client);
	});

	// Before checkResourceId refused them, the lone surrogate made encodeURIComponent throw (the
	// delivery failed after its id was marked) and the others were sent to the API as ids.
	it.each([
		['einv_\udc00', 'a lone low surrogate'],
		['einv_1\u200b', 'a zero-width space'],
		['einv_1\u00ad', 'a soft hyphen'],
	])(
		'webhook() with data.id %j (%s), refetch on → 202, started once with refetched null and the reason; redelivery → duplicate',
		async (resourceId) => {
			const workflow = ownWorkflow();
			const reads: Record<string, number> = {};
			const send = async () =>
				await deliver({
					...signed(
						event('evt_hidden', { data: { id: resourceId, object: 'einvoice' } }),
						Math.floor(Date.now() / 1000),
					),
					refetch: true,
					apiCredential,
					workflow,
					reads,
				});

			const result = await send();
			expect(result).toMatchObject(ACCEPTED);
			expect(result.started).toHaveLength(1);
			const [item] = result.started!;
			expect(item).toMatchObject({ id: 'evt_hidden', data: { id: resourceId }, refetched: null });
			expect(item.refetchError).toContain(`E-invoice ID ${JSON.stringify(resourceId)}`);
			expect(item.refetchError).toMatch(
				/invisible character \(such as a zero-width space or a soft hyphen\) or an unpaired UTF-16 surrogate/,
			);

			expect(await send()).toEqual(DUPLICATE);
			const counters = emulator().control.counters();
			expect(counters.tokenMints[client.clientId] ?? 0).toBe(0);
			expect(counters.apiCalls[client.clientId] ?? 0).toBe(0);
			expect(reads.gstComplianceApi ?? 0).toBe(0);
		},
	);
});

/**
 * The emulator's real signed deliveries, over real HTTP: a tiny local server hands each request's
 * exact bytes and headers to n8n's webhook handling and answers with what the node decided. Every
 * attempt is sent twice (duplicateRate 1) and batches are shuffled.
 */
describe('deliveries from the service emulator', () => {
	interface Received {
		eventId: string;
		result: DeliveryResult;
	}

	let emu: RunningEmulator;
	let server: Server;
	let url: string;
	let workflow = newWorkflow('wf-emulator');
	let credentials = { signingSecret: '', previousSigningSecret: '' };
	const received: Received[] = [];
	/** Answer 503 after the node accepted, as if n8n's acknowledgement were lost: forces a retry. */
	let loseAcks = 0;

	beforeAll(async () => {
		emu = await startEmulator({ clock: 'manual', retryBaseMs: 1000 });
		jest.spyOn(Date, 'now').mockImplementation(() => emu.control.now());
		server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const body = Buffer.concat(chunks);
				void deliver({ body, headers: req.headers, credentials, workflow, events: ['*'] }).then(
					(result) => {
						received.push({
							eventId: String((JSON.parse(body.toString('utf8')) as { id: string }).id),
							result,
						});
						const lost = result.started !== undefined && loseAcks > 0 && loseAcks--;
						res.writeHead(lost ? 503 : result.status, { 'Content-Type': 'application/json' });
						res.end(JSON.stringify(lost ? { error: 'lost' } : result.body));
					},
				);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/gst`;
	});

	afterAll(async () => {
		jest.restoreAllMocks();
		await emu.stop();
		await new Promise((resolve) => server.close(resolve));
	});

	beforeEach(() => {
		dedupeRegistry.clear();
		workflow = newWorkflow(`wf-${Math.random()}`);
		received.length = 0;
		loseAcks = 0;
	});

	/** Each test owns one subscription: the earlier ones would sign with secrets it does not hold. */
	afterEach(() => {
		for (const sub of emu.control.subscriptions()) emu.control.setSubscriptionActive(sub.id, false);
	});

	function startsPerEvent(): Map<string, number> {
		const starts = new Map<string, number>();
		for (const { eventId, result } of received) {
			if (result.started) starts.set(eventId, (starts.get(eventId) ?? 0) + 1);
		}
		return starts;
	}

	async function subscribe(): Promise<{
		subscriptionId: string;
		clientId: string;
		organizationId: string;
	}> {
		const { clientId, organizationId } = emu.seeded!.production;
		const sub = emu.control.createSubscription({
			clientId,
			url,
			events: EVENT_TYPES.map((e) => e.value),
		});
		credentials = { signingSecret: sub.signingSecret, previousSigningSecret: '' };
		return { subscriptionId: sub.id, clientId, organizationId };
	}

	async function emitEvents(organizationId: string): Promise<string[]> {
		const ids: string[] = [];
		const environment = 'production' as const;
		for (let i = 0; i < 8; i++) {
			const einvoice = emu.control.createEinvoice({ organizationId, environment });
			if (i % 2 === 0) ids.push(emu.control.setEinvoiceStatus(einvoice.id, 'cancelled').id);
			if (i === 3) ids.push(emu.control.setEinvoiceStatus(einvoice.id, 'failed_terminal').id);
		}
		for (let i = 0; i < 4; i++) {
			const ewaybill = emu.control.createEwaybill({ organizationId, environment });
			ids.push(emu.control.setEwaybillStatus(ewaybill.id, i % 2 ? 'expired' : 'cancelled').id);
		}
		return ids;
	}

	it('webhook() under duplicates, reordering and lost acks → exactly one execution per event id', async () => {
		const { subscriptionId, organizationId } = await subscribe();
		emu.control.setDeliveryFaults({ duplicateRate: 1, reorderWindow: 5 });
		loseAcks = 3;
		const explicit = await emitEvents(organizationId);
		await emu.control.settle();
		await emu.control.advance(10 * 60_000); // the retries of the lost acknowledgements

		const deliveries = emu.control.deliveries({ subscriptionId });
		const eventIds = deliveries.map((d) => d.eventId);
		expect(new Set(eventIds).size).toBe(eventIds.length);
		expect(eventIds.length).toBeGreaterThan(explicit.length); // creations emit "generated" too
		expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
		expect(deliveries.some((d) => d.attempts > 1)).toBe(true);

		const starts = startsPerEvent();
		expect([...starts.keys()].sort()).toEqual([...eventIds].sort());
		expect([...starts.values()].every((n) => n === 1)).toBe(true);
		expect(received.length).toBeGreaterThanOrEqual(2 * eventIds.length); // every attempt came twice
		expect(received.filter((r) => r.result.status !== 200 && r.result.status !== 202)).toEqual([]);

		// Shuffled: the order of first arrival is not the order of emission.
		const firstArrival = [...new Set(received.map((r) => r.eventId))];
		expect(firstArrival).not.toEqual(eventIds);
	});

	it('webhook() with the dashboard replay of a delivered event → a duplicate with no execution, also after a restart', async () => {
		const { subscriptionId, organizationId } = await subscribe();
		emu.control.setDeliveryFaults({});
		await emitEvents(organizationId);
		await emu.control.settle();
		const deliveries = emu.control.deliveries({ subscriptionId });
		const startedBefore = received.filter((r) => r.result.started).length;
		expect(startedBefore).toBe(deliveries.length);

		// n8n restarts: the in-process store is gone, static data comes back from the database.
		dedupeRegistry.clear();
		workflow.staticData = JSON.parse(JSON.stringify(workflow.staticData));
		await emu.control.advance(60_000);
		for (const delivery of deliveries) {
			const replayed = await emu.control.replay(delivery.id);
			// 202 for the events whose start the store saves with the next accepted event.
			expect([200, 202]).toContain(replayed.lastStatusCode);
			expect(JSON.parse(replayed.lastResponseBody ?? '{}')).toEqual({
				received: true,
				duplicate: true,
			});
		}
		expect(received.filter((r) => r.result.started)).toHaveLength(startedBefore);
	});

	it('webhook() during a signing-secret rotation → every delivery accepted', async () => {
		const { subscriptionId, organizationId } = await subscribe();
		emu.control.setDeliveryFaults({});
		const oldSecret = credentials.signingSecret;
		const { signingSecret } = emu.control.rotateSigningSecret(subscriptionId);

		// Not yet updated in n8n: the old secret's v1 is still in the header.
		await emitEvents(organizationId);
		await emu.control.settle();
		// Updated, with the old secret kept as the previous one.
		credentials = { signingSecret, previousSigningSecret: oldSecret };
		await emitEvents(organizationId);
		await emu.control.settle();
		// After the overlap the service signs with the new secret only.
		credentials = { signingSecret, previousSigningSecret: '' };
		await emu.control.advance(25 * 3_600_000);
		await emitEvents(organizationId);
		await emu.control.settle();

		expect(received.length).toBeGreaterThan(0);
		expect(received.every((r) => r.result.status === 202 && r.result.started)).toBe(true);
		expect(emu.control.deliveries({ subscriptionId }).every((d) => d.state === 'delivered')).toBe(
			true,
		);
	});

	it('webhook() with a secret the credential does not hold → 401 each time; the service keeps them pending', async () => {
		const { subscriptionId, organizationId } = await subscribe();
		emu.control.setDeliveryFaults({});
		credentials = {
			signingSecret: 'whsec_not_the_right_one_0123456789',
			previousSigningSecret: '',
		};
		await emitEvents(organizationId);
		await emu.control.settle();
		expect(received.length).toBeGreaterThan(0);
		expect(received.every((r) => r.result.status === 401 && !r.result.started)).toBe(true);
		expect(emu.control.deliveries({ subscriptionId }).every((d) => d.state === 'pending')).toBe(
			true,
		);
	});
});

describe('signing secrets that break the credential rules (saved although their Test failed)', () => {
	useFixedClock();
	const BODY = JSON.stringify(envelope({ id: 'evt_signed_with_a_weak_secret' }));

	it.each(['-', 'none', ' ', 'short-secret'])(
		'a Previous Signing Secret %j is never used: a body signed with it → 401, nothing started',
		async (previous) => {
			const forged = await deliver({
				...signed(BODY, NOW_S, previous),
				credentials: { signingSecret: SECRET, previousSigningSecret: previous },
			});
			expect(forged).toMatchObject({ status: 401, started: undefined });
			const genuine = await deliver({
				...signed(JSON.stringify(envelope({ id: `evt_prev_${previous.length}` }))),
				credentials: { signingSecret: SECRET, previousSigningSecret: previous },
			});
			expect(genuine.started).toHaveLength(1);
		},
	);

	it('an ignored Previous Signing Secret is logged once, naming the field and never the value', async () => {
		const logs = captureLogs();
		const workflow = newWorkflow('wf-previous-logged-once');
		for (let i = 0; i < 3; i++)
			await deliver({
				...signed(BODY),
				workflow,
				credentials: { signingSecret: SECRET, previousSigningSecret: 'nope-' },
			});
		const lines = logs.warn.filter((line) => line.includes('Previous Signing Secret'));
		expect(lines).toEqual([
			expect.stringContaining(
				'Previous Signing Secret is shorter than 16 characters: was it copied whole?: it is ignored',
			),
		]);
		expect(JSON.stringify(logs)).not.toContain('nope-');
	});

	it.each([
		['"-"', '-'],
		['with a leading space', ' whsec_current_0123456789abcdefghij'],
		['of 513 characters', 'x'.repeat(513)],
		['with a zero-width space', 'whsec_current_\u200b0123456789abcdefghij'],
	])(
		'a Signing Secret %s → every delivery 500 "Trigger is not configured", even one signed with it; logged once',
		async (label, current) => {
			const logs = captureLogs();
			const workflow = newWorkflow(`wf-current-${label}`);
			for (let i = 0; i < 2; i++) {
				const result = await deliver({
					...signed(JSON.stringify(envelope({ id: `evt_cur_${i}` })), NOW_S, current),
					workflow,
					credentials: { signingSecret: current, previousSigningSecret: '' },
				});
				expect(result).toEqual({
					status: 500,
					body: { error: 'Trigger is not configured' },
					started: undefined,
				});
			}
			const lines = logs.warn.filter((line) => line.includes('Signing Secret'));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(
				/Signing Secret (is shorter|has leading|is longer|contains).*every delivery is refused/,
			);
			if (current.length > 1) expect(JSON.stringify(logs)).not.toContain(current.trim());
		},
	);
});

describe('saying in the n8n log why deliveries are refused (before the service gives up after 50)', () => {
	useFixedClock();
	/** The refusal lines: `GST Compliance Trigger "<name>" … refused …`. */
	const refusals = (warnings: string[]) => warnings.filter((line) => / refused/.test(line));
	let seq = 0;
	const body = () => JSON.stringify(envelope({ id: `evt_refused_${++seq}` }));

	it('webhook() signed with another secret × 5 in a minute → one warning at once naming the mismatch and what to check; a minute on, one more counting them', async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		const wrong = 'whsec_not_the_subscription_secret_000';
		for (let i = 0; i < 5; i++) {
			now = NOW_MS + i * 10_000;
			const result = await deliver({ ...signed(body(), nowS(), wrong), workflow });
			expect(result.status).toBe(401);
		}
		expect(refusals(logs.warn)).toEqual([
			expect.stringMatching(
				/GST Compliance Trigger "GST Compliance Trigger" \(workflow wf-webhook-\d+\): a delivery was refused \(401\): its signature does not match the Signing Secret\. Check .*Signing Secret.*Previous Signing Secret/,
			),
		]);
		now = NOW_MS + 60_000;
		await deliver({ ...signed(body(), nowS(), wrong), workflow });
		expect(refusals(logs.warn)).toHaveLength(2);
		expect(refusals(logs.warn)[1]).toMatch(/5 deliveries were refused \(401\) since 04:30:00/);
		expect(JSON.stringify(logs)).not.toContain(wrong);
		expect(JSON.stringify(logs)).not.toContain(SECRET);
	});

	it('webhook() without a readable Service-Signature header × 3 → one warning at once saying so and what sends such requests; no credential read', async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		for (const headers of [
			{},
			{ 'service-signature': 'garbage' },
			{ 'service-signature': 't=1' },
		]) {
			const reads: Record<string, number> = {};
			const result = await deliver({ body: body(), headers, workflow, reads });
			expect(result.status).toBe(401);
			expect(reads).toEqual({});
		}
		expect(refusals(logs.warn)).toEqual([
			expect.stringMatching(
				/a delivery was refused \(401\): it has no readable Service-Signature header.*not from the service/,
			),
		]);
	});

	it('webhook() with a timestamp outside the tolerance → a warning naming the clock and the Timestamp Tolerance option', async () => {
		const logs = captureLogs();
		const result = await deliver({ ...signed(body(), NOW_S - 3_600), workflow: ownWorkflow() });
		expect(result.status).toBe(401);
		expect(refusals(logs.warn)).toEqual([
			expect.stringMatching(
				/refused \(401\): its timestamp is 3600 s from this server's clock.*clock.*Timestamp Tolerance/,
			),
		]);
	});

	it('webhook() on a trigger whose Signing Secret is unusable → a warning at once and again a minute on, with the count', async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		const credentials = { signingSecret: 'short', previousSigningSecret: '' };
		for (let i = 0; i < 3; i++) await deliver({ ...signed(body()), workflow, credentials });
		now = NOW_MS + 60_000;
		await deliver({ ...signed(body()), workflow, credentials });
		const lines = refusals(logs.warn);
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/a delivery was refused \(500\): Signing Secret is shorter than 16/);
		expect(lines[1]).toMatch(/3 deliveries were refused \(500\) since/);
	});

	it('webhook() while the Redis dedupe store does not answer → 503 each time, one warning at once naming Redis and what to check', async () => {
		const logs = captureLogs();
		const workflow = ownWorkflow();
		const { port } = new URL(await closedPortUrl());
		for (let i = 0; i < 3; i++) {
			const result = await deliver({
				...signed(body()),
				workflow,
				redis: { host: '127.0.0.1', port: Number(port), password: '' },
			});
			expect(result.status).toBe(503);
		}
		expect(refusals([...logs.warn, ...logs.error])).toEqual([
			expect.stringMatching(
				/a delivery was refused \(503\): Redis dedupe store at 127\.0\.0\.1:\d+ .*unavailable: connect ECONNREFUSED.*\. Check that Redis runs/,
			),
		]);
	}, 30_000);
});

describe('a Redis credential whose Host holds a URL with a password', () => {
	useFixedClock();

	it('every delivery → 500 "Trigger is not configured", nothing started; the log names the field, never the password', async () => {
		const logs = captureLogs();
		const result = await deliver({
			...signed(JSON.stringify(envelope({ id: 'evt_redis_url_host' }))),
			workflow: newWorkflow('wf-redis-url-host'),
			redis: { host: 'redis://:hunter2-pass@127.0.0.1:6379', port: 6379, password: '' },
		});
		expect(result).toEqual({
			status: 500,
			body: { error: 'Trigger is not configured' },
			started: undefined,
		});
		expect(logs.warn.join('\n')).toMatch(/Redis credential's Host is a URL/);
		expect(JSON.stringify(logs)).not.toContain('hunter2-pass');
	});
});

describe('before any credential is read', () => {
	it('a missing or malformed Service-Signature header is refused with 401 and no credential read', async () => {
		for (const headers of [
			{},
			{ 'service-signature': 'garbage' },
			{ 'service-signature': 't=1' },
		]) {
			const reads: Record<string, number> = {};
			const result = await deliver({ body: body('evt_h'), headers, reads, redis: { host: 'x' } });
			expect(result).toEqual({
				status: 401,
				body: { error: 'Signature verification failed' },
				started: undefined,
			});
			expect(reads).toEqual({});
		}
	});

	it('the trigger’s own probe (its header, no signature) → 204, nothing started, logged or read; the static data it loaded shows the acceptances saved', async () => {
		const logs = captureLogs();
		const reads: Record<string, number> = {};
		const result = await deliver({ body: '', headers: { [PROBE_HEADER]: '1' }, reads });
		expect(result).toMatchObject({ status: 204, body: undefined, started: undefined });
		expect(reads).toEqual({});
		expect([...logs.warn, ...logs.error]).toEqual([]);
	});

	it('a probe header on the Test URL → an ordinary delivery: refused for its signature, and shown', async () => {
		const result = await deliver({
			body: '',
			headers: { [PROBE_HEADER]: '1' },
			mode: 'manual',
			execution: 'later',
		});
		expect(result.status).toBe(401);
		await expect(result.execution!()).rejects.toThrow(
			'The delivery has no readable Service-Signature header',
		);
	});

	function body(id: string) {
		return JSON.stringify(envelope({ id }));
	}
});
