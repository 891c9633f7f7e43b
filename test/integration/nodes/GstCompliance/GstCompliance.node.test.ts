/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- fixed secrets of the tests, not credentials; test code: runs in Node under jest, never inside n8n (the subtitle expression is evaluated as the editor would) */
/**
 * The action node's description checked by what it does, not by restating its literals: what the
 * editor offers runs, what it shows resolves, and the limits it shows are the limits enforced.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';
import { concurrencyOf } from '@/nodes/GstCompliance/actions/getResources';
import type { ClientInfo } from '@/test/emulator';
import {
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';
import { executeContext } from '@/test/integration/helpers/executeNode';

const node = new GstCompliance();
const { description } = node;
const NODE_DIR = join(__dirname, '../../../../nodes/GstCompliance');

const property = (name: string, resource?: string): INodeProperties => {
	const found = description.properties.find(
		(p) =>
			p.name === name &&
			(resource === undefined ||
				(p.displayOptions?.show?.resource ?? [resource]).includes(resource)),
	);
	if (!found) throw new Error(`no ${name} parameter${resource ? ` for ${resource}` : ''}`);
	return found;
};
const values = (p: INodeProperties) =>
	(p.options as INodePropertyOptions[]).map((option) => String(option.value));

describe('what the editor offers runs', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;
	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});

	it('every resource and operation in the editor that reads the API gets the resource named by its ID field', async () => {
		const { control } = emulator();
		const created: Record<string, string> = {
			einvoice: control.createEinvoice({
				organizationId: client.organizationId,
				environment: 'sandbox',
			}).id,
			ewaybill: control.createEwaybill({
				organizationId: client.organizationId,
				environment: 'sandbox',
			}).id,
		};
		// Test Event sends to a trigger, not to the API: its own test file runs it
		// (actions/testEvent/send.operation.test.ts).
		const resources = values(property('resource')).filter((value) => value !== 'testEvent');
		expect(resources).toEqual(['einvoice', 'ewaybill']);
		for (const resource of resources) {
			for (const operation of values(property('operation', resource))) {
				// The required string field shown for this resource and operation is where the ID goes.
				const idField = description.properties.find(
					(p) =>
						p.type === 'string' &&
						p.required &&
						p.displayOptions?.show?.resource?.includes(resource) &&
						p.displayOptions?.show?.operation?.includes(operation),
				);
				expect({ resource, operation, idField: idField?.name }).toEqual({
					resource,
					operation,
					idField: expect.any(String),
				});
				const { context } = executeContext({
					credentials: { gstComplianceApi: credentialData(emulator(), client) },
					parameters: { resource, operation, [idField!.name]: created[resource], options: {} },
				});
				const [output] = await node.execute.call(context);
				expect(output.map((item) => item.json.id)).toEqual([created[resource]]);
			}
		}
	});
});

describe('the credential each resource shows, as n8n-core reads it', () => {
	const emulator = useEmulatorForPackage();
	const shown = (parameters: Record<string, unknown>) =>
		(description.credentials ?? [])
			.filter((credential) =>
				NodeHelpers.displayParameter(parameters as never, credential, null, description),
			)
			.map((credential) => credential.name);

	it.each([
		[{ resource: 'einvoice', operation: 'get' }, ['gstComplianceApi']],
		[{ resource: 'ewaybill', operation: 'get' }, ['gstComplianceApi']],
		// A saved node omits parameters left at their default: the API credential still shows.
		[{ operation: 'get' }, ['gstComplianceApi']],
		[{}, ['gstComplianceApi']],
		[{ resource: 'testEvent', operation: 'send' }, ['gstComplianceWebhookApi']],
	])('parameters %j → credential slots %j', (parameters, names) => {
		expect(shown(parameters)).toEqual(names);
	});

	it('Test Event → the slot is labelled as on the trigger, required', () => {
		const trigger = new GstComplianceTrigger()
			.getNodeType(3)
			.description.credentials!.find(
				(credential) => credential.name === 'gstComplianceWebhookApi',
			)!;
		const own = description.credentials!.find(
			(credential) => credential.name === 'gstComplianceWebhookApi',
		)!;
		expect({ displayName: own.displayName, required: own.required }).toEqual({
			displayName: trigger.displayName,
			required: true,
		});
	});

	it('a version-1 node saved without its Resource (the default, e-invoice) → n8n-core gives it the API credential and it gets the e-invoice', async () => {
		const client = emulator().control.createClient({ environment: 'sandbox' });
		const created = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const { context } = executeContext({
			credentials: { gstComplianceApi: credentialData(emulator(), client) },
			parameters: { operation: 'get', einvoiceId: created.id, options: {} },
		});
		const [output] = await node.execute.call(context);
		expect(output.map((item) => item.json.id)).toEqual([created.id]);
	});
});

describe('what the editor shows resolves', () => {
	it('the subtitle under the node reads "<operation>: <resource>"', () => {
		const expression = String(description.subtitle);
		expect(expression.startsWith('={{')).toBe(true);
		const evaluate = new Function('$parameter', `return ${expression.slice(3, -2)};`) as (
			parameters: Record<string, string>,
		) => string;
		expect(evaluate({ operation: 'get', resource: 'einvoice' })).toBe('get: einvoice');
		expect(evaluate({ operation: 'send', resource: 'testEvent' })).toBe('send: testEvent');
	});

	it('the light and dark icons are SVG files in the package', () => {
		const icons = description.icon as { light: string; dark: string };
		for (const icon of [icons.light, icons.dark]) {
			expect(icon.startsWith('file:')).toBe(true);
			const file = join(NODE_DIR, icon.slice('file:'.length));
			expect(existsSync(file)).toBe(true);
			expect(readFileSync(file, 'utf8')).toMatch(/<svg[\s>]/);
		}
		expect(icons.light).not.toBe(icons.dark);
	});

	it('the codex file names this node as n8n looks it up (<package>.<node name>)', () => {
		const pkg = JSON.parse(readFileSync(join(NODE_DIR, '../../package.json'), 'utf8'));
		const codex = JSON.parse(readFileSync(join(NODE_DIR, 'GstCompliance.node.json'), 'utf8'));
		expect(codex.node).toBe(`${pkg.name}.${description.name}`);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
	});

	it("each credential's Test button calls a method the node has", () => {
		expect(description.credentials).toHaveLength(2);
		for (const credential of description.credentials ?? []) {
			expect(credential.testedBy).toBeDefined();
			expect(
				typeof node.methods.credentialTest[credential.testedBy as 'testGstComplianceCredentials'],
			).toBe('function');
		}
	});

	it("the Webhook Signing Secret's Test gives the trigger's verdict, whichever node n8n asks", async () => {
		const trigger = new GstComplianceTrigger();
		for (const data of [
			{ signingSecret: 'whsec_current_0123456789abcdefghij' },
			{ signingSecret: 'short' },
			{ signingSecret: 'whsec_current_0123456789abcdefghij', previousSigningSecret: 'x' },
		]) {
			const credential = { id: '1', name: 'c', type: 'gstComplianceWebhookApi', data };
			const test = (methods: typeof node.methods) =>
				(
					methods.credentialTest as unknown as Record<
						string,
						(this: unknown, c: typeof credential) => Promise<unknown>
					>
				).gstComplianceWebhookSecretCheck.call({}, credential);
			expect(await test(node.methods)).toEqual(await test(trigger.methods as never));
		}
	});
});

describe('the limits the editor shows are the limits enforced', () => {
	const concurrency = (
		property('options').options as Array<INodeProperties & { typeOptions?: { maxValue?: number } }>
	).find((option) => option.name === 'concurrency')!;

	it('Concurrency: the default shown is what an empty field runs with', () => {
		expect(concurrencyOf(undefined)).toBe(concurrency.default);
		expect(concurrencyOf(0)).toBe(concurrency.default);
		expect(concurrencyOf('x')).toBe(concurrency.default);
		expect(concurrencyOf('3')).toBe(3);
	});

	it('Concurrency: the maximum shown is where a larger value is capped', () => {
		const max = concurrency.typeOptions!.maxValue!;
		expect(concurrencyOf(max)).toBe(max);
		expect(concurrencyOf(max + 1)).toBe(max);
		expect(concurrencyOf(1_000_000)).toBe(max);
	});
});

describe("the editor's words are n8n's", () => {
	/** Every text of a parameter the editor shows, its options' and sub-options' included. */
	const TEXT_KEYS = ['displayName', 'description', 'placeholder', 'hint', 'action'];
	const texts = (properties: readonly object[]): string[] =>
		properties.flatMap((property) => {
			const own = Object.entries(property).filter(
				([key, value]) => TEXT_KEYS.includes(key) && typeof value === 'string',
			);
			const options = (property as { options?: unknown }).options;
			return [
				...own.map(([, value]) => value as string),
				...(Array.isArray(options) ? texts(options) : []),
			];
		});

	it('no parameter text speaks HTTP (GET, 2xx, a status, endpoint, minted)', () => {
		const shown = texts(description.properties);
		expect(shown.length).toBeGreaterThan(10);
		expect(
			shown.filter((text) =>
				/\bGET\b|\b\dxx\b|(?<![.\d])[1-5]\d\d(?![.\d])|\bHTTP\b|endpoint|\bmint/.test(text),
			),
		).toEqual([]);
	});

	it('every collection offers "Add option", and every action reads like "Get e-invoice" (no article)', () => {
		const collections = description.properties.filter((p) => p.type === 'collection');
		expect(collections.length).toBeGreaterThan(0);
		for (const collection of collections) expect(collection.placeholder).toBe('Add option');
		const actions = description.properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => (p.options as Array<{ action?: string }>).map((option) => option.action));
		expect(actions).toContain('Get e-invoice');
		expect(actions).toContain('Get e-way bill');
		for (const action of actions) expect(action).not.toMatch(/\b(a|an|the)\b/i);
	});
});
