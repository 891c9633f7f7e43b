/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * What the editor shows for the trigger before any event: the trigger panel, the activation message
 * and the canvas text say where the subscription is made, which URL to paste and where the
 * signing secret goes; the parameters carry no setup notice.
 */
import type { INode, INodeTypeDescription, TriggerPanelDefinition } from 'n8n-workflow';
import { NodeHelpers, validateNodeCredentials } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import { GstComplianceTrigger } from '@/nodes/GstCompliance/GstComplianceTrigger.node';

const trigger = new GstComplianceTrigger();
/** The description the editor adds a new trigger with (version 3); the parameters are every version's. */
const { description } = trigger.getNodeType();
const panel = description.triggerPanel as TriggerPanelDefinition;
const both = (text: string | { active: string; inactive: string } | undefined) =>
	typeof text === 'object' ? [text.inactive, text.active] : [text ?? ''];

describe('GST Compliance Trigger in the editor', () => {
	it('has a trigger panel with a header, executions help and activation hint for both states', () => {
		expect(typeof panel).toBe('object');
		expect(panel.header).toMatch(/Developer hub/);
		expect(typeof panel.executionsHelp).toBe('object');
		expect(typeof panel.activationHint).toBe('object');
	});

	it('says where to subscribe, which URL to paste in which state, and where the secret goes', () => {
		const [helpInactive, helpActive] = both(panel.executionsHelp);
		const [hintInactive, hintActive] = both(panel.activationHint);
		for (const text of [helpInactive, helpActive, hintInactive, hintActive]) {
			expect(text).toMatch(/Developer hub/);
			expect(text).toMatch(/signing secret/);
			expect(text).toMatch(/credential/);
		}
		// While building: the Test URL; once published: the Production URL.
		expect(hintInactive).toMatch(/<b>Test URL<\/b>[\s\S]*published[\s\S]*<b>Production URL<\/b>/);
		expect(helpInactive).toMatch(
			/Test URL[\s\S]*Execute step[\s\S]*Test Event → Send[\s\S]*Production URL/,
		);
		expect(hintActive).toMatch(/Production URL/);
		expect(helpActive).toMatch(/Production URL[\s\S]*data-key="executions"/);
		expect(description.activationMessage).toMatch(/Production URL[\s\S]*Developer hub/);
		expect(description.eventTriggerDescription).toMatch(/Test URL/);
	});

	it('before publishing, says the service calls the URL over the internet: a local or private address cannot be reached, use WEBHOOK_URL or a tunnel', () => {
		const [helpInactive] = both(panel.executionsHelp);
		expect(helpInactive).toMatch(/over the internet/);
		expect(helpInactive).toMatch(
			/cannot reach .*http:\/\/localhost, 127\.0\.0\.1 or a private address/,
		);
		expect(helpInactive).toMatch(/public address.*WEBHOOK_URL.*tunnel/);
	});

	it('says one secret per subscription: the Production URL is a subscription of its own, its secret goes into the credential', () => {
		const [helpInactive] = both(panel.executionsHelp);
		const [hintInactive] = both(panel.activationHint);
		for (const text of [helpInactive, hintInactive])
			expect(text).toMatch(/<b>Production URL<\/b>.*(own|its) signing secret/);
		expect(helpInactive).toMatch(/second subscription/);
	});

	it("once published, says where refused deliveries show: the subscription's delivery log in the Developer hub", () => {
		const [, helpActive] = both(panel.executionsHelp);
		expect(helpActive).toMatch(
			/refused for their signing secret or clock.*delivery log.*Developer hub/,
		);
	});

	it('once published, sends operators to docs/deployments.md (several processes, a concurrency limit) and says Redis for several processes', () => {
		const [, helpActive] = both(panel.executionsHelp);
		expect(helpActive).toMatch(/several n8n processes.*concurrency limit.*docs\/deployments\.md/);
		expect(description.activationMessage).toMatch(
			/Several n8n processes.*Redis.*docs\/deployments\.md/,
		);
	});

	it('has no notice parameter; a saved workflow that still carries one loads without it', () => {
		expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
		const saved = {
			setupNotice: '',
			events: ['einvoice.failed'],
			refetch: false,
			options: {},
		};
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			saved,
			false,
			false,
			{ typeVersion: 1 },
			description,
		);
		expect(resolved).toEqual({ events: ['einvoice.failed'], options: {} });
		const node: INode = {
			id: 't1',
			name: 'GST Compliance Trigger',
			type: 'n8n-nodes-gst-compliance.gstComplianceTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: saved,
		};
		expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBe(
			null,
		);
	});
});

describe('each credential slot says what it is for', () => {
	const slot = (name: string, typeVersion: number) =>
		trigger.getNodeType(typeVersion).description.credentials!.find((c) => c.name === name)!;
	const shown = (name: string, parameters: Record<string, unknown>, typeVersion: number) =>
		NodeHelpers.displayParameter(
			parameters as never,
			slot(name, typeVersion),
			{ typeVersion },
			trigger.getNodeType(typeVersion).description,
			parameters as never,
		);

	it.each([1, 2, 3])(
		'version %i: labels every slot (n8n shows "Credential" for a slot without one)',
		(typeVersion) => {
			expect(
				trigger
					.getNodeType(typeVersion)
					.description.credentials!.map((c) => [c.name, c.displayName]),
			).toEqual([
				['gstComplianceWebhookApi', 'Webhook Signing Secret'],
				['gstComplianceApi', 'API Access (for Refetch Latest State)'],
				['gstComplianceRedisApi', 'Shared Dedupe Store (Redis)'],
			]);
		},
	);

	it('version 3: the Redis slot only when Dedupe Store is Redis, and required there; versions 1 and 2 keep showing it, optional', () => {
		expect(shown('gstComplianceRedisApi', { dedupeStore: 'builtIn' }, 3)).toBe(false);
		expect(shown('gstComplianceRedisApi', { dedupeStore: 'redis' }, 3)).toBe(true);
		expect(slot('gstComplianceRedisApi', 3).required).toBe(true);
		for (const typeVersion of [1, 2]) {
			expect(shown('gstComplianceRedisApi', { events: ['*'] }, typeVersion)).toBe(true);
			expect(slot('gstComplianceRedisApi', typeVersion).required).toBe(false);
		}
		const store = description.properties.find((p) => p.name === 'dedupeStore')!;
		expect(store.default).toBe('builtIn');
		expect(NodeHelpers.displayParameter({}, store, { typeVersion: 2 }, description)).toBe(false);
		expect(NodeHelpers.displayParameter({}, store, { typeVersion: 3 }, description)).toBe(true);
	});

	it('Refetch Latest State on → the API slot is shown and required, so n8n flags it while empty', () => {
		for (const typeVersion of [1, 2, 3]) {
			expect(slot('gstComplianceApi', typeVersion).required).toBe(true);
			expect(shown('gstComplianceApi', { refetch: true }, typeVersion)).toBe(true);
			expect(shown('gstComplianceApi', { refetch: false }, typeVersion)).toBe(false);
			expect(shown('gstComplianceApi', { events: ['*'] }, typeVersion)).toBe(false);
		}
	});

	/** n8n 2.x's publish check on a node as n8n saves it (a default left out), against its version. */
	const publishIssues = (
		typeVersion: number,
		parameters: Record<string, unknown>,
		credentials: string[] = ['gstComplianceWebhookApi'],
	) =>
		validateNodeCredentials(
			{
				id: 'n',
				name: 'GST Compliance Trigger',
				type: 'n8n-nodes-gst-compliance.gstComplianceTrigger',
				typeVersion,
				position: [0, 0],
				parameters: parameters as never,
				credentials: Object.fromEntries(credentials.map((name) => [name, { id: '1', name }])),
			},
			trigger.getNodeType(typeVersion),
		).map((issue) => `${issue.type}: ${issue.displayName}`);

	it("a saved node with Refetch left at its default → n8n's publish check asks for no API credential", () => {
		expect(publishIssues(3, { events: ['*'] })).toEqual([]);
		expect(publishIssues(3, { events: ['*'], refetch: true })).toEqual([
			'missing: API Access (for Refetch Latest State)',
		]);
	});

	it("a saved version-3 node with Dedupe Store Redis and no Redis credential → n8n's publish check asks for it; the built-in store (left out as the default) and versions 1 and 2 → no Redis credential asked", () => {
		expect(publishIssues(3, { events: ['*'], dedupeStore: 'redis' })).toEqual([
			'missing: Shared Dedupe Store (Redis)',
		]);
		expect(
			publishIssues(3, { events: ['*'], dedupeStore: 'redis' }, [
				'gstComplianceWebhookApi',
				'gstComplianceRedisApi',
			]),
		).toEqual([]);
		expect(publishIssues(3, { events: ['*'] })).toEqual([]);
		expect(publishIssues(3, { events: ['*'], dedupeStore: 'builtIn' })).toEqual([]);
		for (const typeVersion of [1, 2])
			expect(publishIssues(typeVersion, { events: ['*'] })).toEqual([]);
	});
});

describe("no parameter is taken for the node's authentication field (n8nCompat.ts, 15.)", () => {
	/**
	 * n8n 2.8's editor (`findAlternativeAuthField`, 1.x alike): among the parameters the slots'
	 * `displayOptions.show` name, the first whose every string option value is named there (a
	 * boolean has none) is the authentication field, and the node's panel leaves it out.
	 */
	const authenticationField = (node: INodeTypeDescription) => {
		const named: Record<string, string[]> = {};
		for (const slot of node.credentials ?? [])
			for (const [field, values] of Object.entries(slot.displayOptions?.show ?? {}))
				named[field] = [...(named[field] ?? []), ...(values ?? []).map((v) => String(v ?? ''))];
		return node.properties.find(
			(field) =>
				field.name in named &&
				(field.options ?? []).every(
					(option) =>
						!('value' in option) ||
						typeof option.value !== 'string' ||
						named[field.name].includes(option.value),
				),
		);
	};

	it.each([
		['GST Compliance Trigger version 3', description],
		['GST Compliance Trigger versions 1 and 2', trigger.getNodeType(1).description],
		['GST Compliance', new GstCompliance().description],
	])('%s → none: every parameter stays in the panel on n8n 1.x and 2.0–2.33', (_, node) => {
		expect(authenticationField(node)?.name).toBeUndefined();
	});

	it("a slot shown by a boolean → that boolean is taken (the rule's own check)", () => {
		const withShow: INodeTypeDescription = {
			...description,
			credentials: [{ name: 'gstComplianceApi', displayOptions: { show: { refetch: [true] } } }],
		};
		expect(authenticationField(withShow)?.name).toBe('refetch');
	});
});

describe('words a user knows', () => {
	const option = (name: string) =>
		(description.properties.find((p) => p.name === 'options')!.options as Array<{
			name: string;
			displayName: string;
			options?: Array<{ name: string; value: string }>;
		}>)!.find((o) => o.name === name)!;

	it('the subtitle says "All Events" for *, else the selected types', () => {
		expect(description.subtitle).toBe(
			'={{$parameter["events"].includes("*") ? "All Events" : $parameter["events"].join(", ")}}',
		);
	});

	it('is found by searching e-invoice, IRN, e-way bill or GST (codex aliases)', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the codex file n8n reads beside the node
		const codex = require('@/nodes/GstCompliance/GstComplianceTrigger.node.json') as {
			alias?: string[];
			resources?: object;
		};
		expect(codex.resources).toBeDefined();
		expect(codex.alias).toEqual(expect.arrayContaining(['e-invoice', 'IRN', 'e-way bill', 'GST']));
	});

	it('the answer option is "Respond", as in n8n\'s Webhook node, with the saved values unchanged', () => {
		const respond = option('acknowledge');
		expect(respond.displayName).toBe('Respond');
		expect(respond.options!.map((o) => [o.value, o.name])).toEqual([
			['auto', 'Automatically'],
			['atOnce', 'Immediately'],
			['afterExecutionCreated', 'When the Execution Is Recorded'],
		]);
		expect(option('outputShape').displayName).toBe('Output');
	});

	it('the panel and the activation message are short, with a docs link for operators', () => {
		const [helpInactive, helpActive] = both(panel.executionsHelp);
		for (const text of [helpActive, description.activationMessage as string]) {
			const sentences = text
				.replace(/<[^>]+>/g, '')
				.split(/(?<=[.!?])\s+/)
				.filter(Boolean);
			expect(sentences.length).toBeLessThanOrEqual(3);
			expect(text).not.toMatch(/static data|N8N_CONCURRENCY_PRODUCTION_LIMIT/);
		}
		expect(helpActive).toMatch(/docs\/deployments\.md/);
		expect(helpActive).toMatch(/Retry/);
		expect(helpInactive).toMatch(/send-test-event/);
	});

	/** Every text of a parameter the editor shows, its options' and sub-options' included. */
	const TEXT_KEYS = ['displayName', 'name', 'description', 'placeholder', 'hint', 'action'];
	const texts = (properties: readonly object[]): string[] =>
		properties.flatMap((property) => {
			const entries = Object.entries(property);
			const own = entries.filter(
				([key, value]) => TEXT_KEYS.includes(key) && typeof value === 'string',
			);
			const options = (property as { options?: unknown }).options;
			return [
				...own.map(([, value]) => value as string),
				...(Array.isArray(options) ? texts(options) : []),
			];
		});

	it('no parameter text speaks HTTP or promises n8n Cloud (the package is not verified yet)', () => {
		const shown = texts(description.properties);
		expect(shown.length).toBeGreaterThan(20);
		expect(
			shown.filter((text) =>
				/\bGET\b|\b\dxx\b|(?<![.\d])[1-5]\d\d(?![.\d])|\bHTTP\b|endpoint|\bmint|Cloud/.test(text),
			),
		).toEqual([]);
	});

	it('every collection offers "Add option", as n8n\'s own nodes do', () => {
		const collections = description.properties.filter((p) => p.type === 'collection');
		expect(collections.length).toBeGreaterThan(0);
		for (const collection of collections) expect(collection.placeholder).toBe('Add option');
	});

	it('the Dedupe Window says how to run an event again', () => {
		expect(option('dedupeWindowHours')).toMatchObject({
			description: expect.stringMatching(/Retry.*executions list/),
		});
	});
});
