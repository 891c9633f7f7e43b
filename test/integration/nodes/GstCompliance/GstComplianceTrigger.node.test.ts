/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The trigger's description checked by what it does: each event type the editor offers starts the
 * workflow for that type only, the editor asks for the API credential only with refetch on, each
 * credential's Test button is wired.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { NodeHelpers, type INode } from 'n8n-workflow';

import { dedupeRegistry } from '@/nodes/GstCompliance/trigger/dedupe/memory/registry';
import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';
import {
	deliver,
	envelope,
	hookContext,
	SECRET,
	newWorkflow,
	NOW_MS,
	NOW_S,
	signed,
} from '@/test/integration/helpers/deliverToTrigger';

const trigger = new GstComplianceTrigger();
// The nodes these tests save are version 1; the hooks and methods are every version's.
const node = trigger.getNodeType(1);
const { description } = node;
const hooks = node.webhookMethods!.default!;

beforeEach(() => {
	jest.spyOn(Date, 'now').mockImplementation(() => NOW_MS);
	dedupeRegistry.clear();
});
afterEach(() => jest.restoreAllMocks());

const offered = (): string[] =>
	(description.properties.find((p) => p.name === 'events')?.options ?? []).map((o) =>
		String('value' in o ? o.value : ''),
	);
let seq = 0;
const send = async (events: string[], type: string) =>
	await deliver({
		...signed(JSON.stringify(envelope({ id: `evt_${++seq}`, type })), NOW_S),
		events,
	});

describe('event types the editor offers', () => {
	const types = offered().filter((value) => value !== '*');

	it('offers more than one event type and an All Events choice', () => {
		expect(types.length).toBeGreaterThan(1);
		expect(offered()).toContain('*');
	});

	it('each, selected alone, starts the workflow for that type and for no other', async () => {
		for (const [index, type] of types.entries()) {
			const other = types[(index + 1) % types.length];
			expect({ type, started: (await send([type], type)).started?.length }).toEqual({
				type,
				started: 1,
			});
			expect({ type, other, started: (await send([type], other)).started }).toEqual({
				type,
				other,
				started: undefined,
			});
		}
	});

	it('All Events starts the workflow for every offered type and for a type added later', async () => {
		for (const type of [...types, 'einvoice.archived']) {
			expect({ type, started: (await send(['*'], type)).started?.length }).toEqual({
				type,
				started: 1,
			});
		}
	});
});

describe('what the editor shows', () => {
	const nodeWith = (refetch: boolean): INode => ({
		id: 'n',
		name: 'GST Compliance Trigger',
		type: 'n8n-nodes-gst-compliance.gstComplianceTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { refetch },
	});
	const shown = (name: string, refetch: boolean) => {
		const credential = description.credentials!.find((c) => c.name === name)!;
		return NodeHelpers.displayParameter(
			{ refetch },
			credential as never,
			nodeWith(refetch),
			description,
		);
	};

	it('asks for the webhook credential always, and for the API credential only with refetch on', () => {
		expect(shown('gstComplianceWebhookApi', false)).toBe(true);
		expect(shown('gstComplianceWebhookApi', true)).toBe(true);
		expect(shown('gstComplianceApi', false)).toBe(false);
		expect(shown('gstComplianceApi', true)).toBe(true);
		expect(shown('gstComplianceRedisApi', false)).toBe(true);
	});

	it("wires each credential's Test button to a method the node has, in every version and on the node type itself", () => {
		// n8n's Credential Test reads a versioned node's versions, or, where the package brings its
		// own copy of n8n-workflow (`instanceof` fails), the node type's own description and methods.
		const holders = [...Object.entries(trigger.nodeVersions), ['node type', trigger] as const];
		for (const [holder, { description: slots, methods }] of holders) {
			const credentialTest = methods?.credentialTest as Record<string, unknown>;
			const credentials = (slots as { credentials?: Array<{ name: string; testedBy?: unknown }> })
				.credentials;
			expect(credentials?.map((slot) => slot.name)).toEqual([
				'gstComplianceWebhookApi',
				'gstComplianceApi',
				'gstComplianceRedisApi',
			]);
			for (const credential of credentials ?? []) {
				expect({
					holder,
					credential: credential.name,
					method: typeof credentialTest[credential.testedBy as string],
				}).toEqual({ holder, credential: credential.name, method: 'function' });
			}
		}
	});
});

describe('publishing with a Production URL the service cannot reach', () => {
	const checkExists = hooks.checkExists;
	const LOCAL = 'http://localhost:5678/webhook';

	it('publish with WEBHOOK_URL unset (a localhost URL) → fails, naming the URL, WEBHOOK_URL and the option', async () => {
		await expect(checkExists.call(hookContext('activate', undefined, {}, LOCAL))).rejects.toThrow(
			/^The Production URL http:\/\/localhost:5678\/webhook\/.+ is localhost, which the service cannot reach: it calls the URL over the internet\. Set WEBHOOK_URL .* Allow Local Production URL option/,
		);
	});

	it('publish on a LAN address (192.168.1.20) → fails, naming the private address', async () => {
		await expect(
			checkExists.call(hookContext('update', undefined, {}, 'http://192.168.1.20:5678/webhook')),
		).rejects.toThrow(/is the private address 192\.168\.1\.20, which the service cannot reach/);
	});

	it('n8n starting with the workflow published (init) → stays active, the log says why deliveries cannot arrive', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn').mockImplementation(() => undefined);
		await expect(checkExists.call(hookContext('init', undefined, {}, LOCAL))).resolves.toBe(true);
		expect(warn).toHaveBeenCalledWith(
			expect.stringMatching(/is localhost, which the service cannot reach/),
		);
	});

	it('listening on a localhost Test URL → listens: this n8n’s own test sender reaches it', async () => {
		await expect(checkExists.call(hookContext('manual', undefined, {}, LOCAL))).resolves.toBe(true);
	});

	it('publish with Allow Local Production URL on → publishes', async () => {
		await expect(
			checkExists.call(
				hookContext('activate', undefined, { options: { allowLocalUrl: true } }, LOCAL),
			),
		).resolves.toBe(true);
	});

	it('publish with a public WEBHOOK_URL → publishes', async () => {
		await expect(
			checkExists.call(hookContext('activate', undefined, {}, 'https://n8n.example.com/webhook')),
		).resolves.toBe(true);
	});
});

describe('node lifecycle', () => {
	it('activation or listening with a Signing Secret that breaks the rules → fails, naming the rule and the fix', async () => {
		const context = hookContext('activate', { signingSecret: 'short' });
		await expect(hooks.checkExists.call(context)).rejects.toThrow(
			'The Signing Secret cannot be used: Signing Secret is shorter than 16 characters: was it copied whole? Fix it in the GST Compliance Webhook Signing Secret credential',
		);
	});

	it('publishing version 3 with Dedupe Store Redis and no Redis credential → fails, saying what to select', async () => {
		const context = hookContext(
			'activate',
			{ signingSecret: SECRET },
			{ typeVersion: 3, dedupeStore: 'redis' },
		);
		await expect(hooks.checkExists.call(context)).rejects.toThrow(
			/no Shared Dedupe Store \(Redis\) credential: select one, or set Dedupe Store to Built-In/,
		);
	});

	it('registers nothing remotely: the lifecycle hooks are local no-ops', async () => {
		const context = hookContext('activate');
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});

	it('deactivation (a publish) keeps the trigger’s built-in store: its ids stay in memory', async () => {
		const row = newWorkflow();
		const deliverId = async (id: string) =>
			await deliver({ ...signed(JSON.stringify(envelope({ id }))), workflow: row });
		expect((await deliverId('evt_kept')).started).toHaveLength(1);
		expect(dedupeRegistry.size).toBe(1);
		await hooks.delete.call(hookContext('activate'));
		expect(dedupeRegistry.size).toBe(1);
		expect(await deliverId('evt_kept')).toMatchObject({
			status: 200,
			body: { received: true, duplicate: true },
		});
	});
});

describe('the trigger versions', () => {
	it('the editor adds version 3; versions 1 and 2 stay loadable for saved workflows, under one description of their own', () => {
		expect(trigger.description.defaultVersion).toBe(3);
		expect(trigger.getNodeType().description.version).toBe(3);
		expect(Object.keys(trigger.nodeVersions)).toEqual(['1', '2', '3']);
		expect(trigger.getNodeType(2)).toBe(trigger.getNodeType(1));
		expect(trigger.getNodeType(1).description.version).toEqual([1, 2]);
		// n8n's loader lists each description once, by its version list, and names each after the
		// node type; the editor merges descriptions by version, so no version may be in two.
		for (const version of Object.values(trigger.nodeVersions))
			expect(version.description).toMatchObject({
				name: trigger.description.name,
				displayName: trigger.description.displayName,
				defaultVersion: 3,
			});
	});
});

describe('the trigger webhook', () => {
	it('is the one webhook of the node: POST, answered onReceived with responseData "" (so n8n reads webhookResponse)', () => {
		const { webhooks } = trigger.getNodeType(3).description;
		expect(webhooks).toHaveLength(1);
		expect(webhooks?.[0]).toMatchObject({
			httpMethod: 'POST',
			responseMode: 'onReceived',
			responseData: '',
		});
	});
});
