/* eslint-disable no-console -- also a command-line tool: it reports what it wrote */
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: runs in Node, never inside n8n */
/**
 * Sample output for the templates: each trigger template carries pinned data (`pinData`) made of
 * real event envelopes from the emulator, shaped by the trigger's own output code, so a builder can
 * map fields in the editor before the first real delivery arrives. `sampleEnvelopes` keeps only
 * the documented resource fields.
 *
 *   npx ts-node --transpile-only test/emulator/sampleEvents.ts   # rewrites pinData in
 * examples/*.json
 *
 * test/integration/examples/sampleOutput.test.ts checks the pinned items against fresh emulator
 * events. Pinned event ids start with `evt_sample_`, so a template can mark what a sample sends.
 */
import * as fs from 'fs';
import * as path from 'path';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { buildOutput, type OutputShape } from '../../nodes/GstCompliance/trigger/output';
import type { EventEnvelope } from '../../nodes/GstCompliance/trigger/delivery';
import { startEmulator } from './';

export const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');

/** The event types each trigger template pins, in order (one item per type). */
export const PINNED_EVENTS: Record<string, string[]> = {
	'einvoice-failed-alert.json': ['einvoice.failed'],
	'status-sheet-upsert.json': ['einvoice.generated', 'ewaybill.expired'],
	'status-data-table-upsert.json': ['einvoice.generated', 'ewaybill.expired'],
};

/**
 * The resource fields docs/service-api.md ("Resources") lists. Samples keep only these, so a
 * template does not suggest fields the service may not send (the emulator's other e-way bill
 * fields are its own invention); the action node's output schemas (__schema__) list the same.
 */
export const DOCUMENTED_FIELDS: Record<'einvoice' | 'ewaybill', string[]> = {
	einvoice: [
		'id',
		'object',
		'status',
		'irn',
		'ackNumber',
		'ackDate',
		'sellerGstin',
		'invoiceNumber',
		'totalInvoiceValue',
	],
	ewaybill: ['id', 'object', 'status'],
};

const NO_IRN = { irn: '', ackNumber: '', ackDate: '' };

const STATUS_OF: Record<string, { resource: 'einvoice' | 'ewaybill'; status: string }> = {
	'einvoice.generated': { resource: 'einvoice', status: 'generated' },
	'einvoice.cancelled': { resource: 'einvoice', status: 'cancelled' },
	'einvoice.failed': { resource: 'einvoice', status: 'failed_terminal' },
	'ewaybill.generated': { resource: 'ewaybill', status: 'generated' },
	'ewaybill.cancelled': { resource: 'ewaybill', status: 'cancelled' },
	'ewaybill.expired': { resource: 'ewaybill', status: 'expired' },
	'ewaybill.rejected': { resource: 'ewaybill', status: 'rejected' },
};

/**
 * One real envelope per event type, as the emulator's resources move through their states (an
 * e-way bill is generated, then expires). A failed e-invoice never got an IRN: it is created failed,
 * its IRN and acknowledgement empty (the fields stay strings, as docs/service-api.md types them).
 */
export async function sampleEnvelopes(types: string[]): Promise<EventEnvelope[]> {
	const emu = await startEmulator({ clock: 'manual', seed: false });
	try {
		const { control } = emu;
		const client = control.createClient({ environment: 'sandbox', plan: 'einvoice+ewaybill' });
		const scope = { organizationId: client.organizationId, environment: 'sandbox' as const };
		const envelopes: EventEnvelope[] = [];
		for (const type of types) {
			const target = STATUS_OF[type];
			if (!target) throw new Error(`no sample for event type ${type}`);
			await control.advance(7 * 60_000);
			const created =
				target.resource === 'einvoice'
					? control.createEinvoice(
							target.status === 'failed_terminal'
								? { ...scope, status: 'failed_terminal', fields: NO_IRN }
								: scope,
						)
					: control.createEwaybill(scope);
			if (created.status === target.status) {
				// Creating a resource emits its first state's event; set the status again to get it back.
				envelopes.push(setStatus(control, target.resource, created.id, target.status));
				continue;
			}
			await control.advance(3 * 60_000);
			envelopes.push(setStatus(control, target.resource, created.id, target.status));
		}
		return envelopes;
	} finally {
		await emu.stop();
	}
}

/** The envelope with only the documented fields of its resource. */
function documentedOnly(envelope: EventEnvelope, resource: 'einvoice' | 'ewaybill'): EventEnvelope {
	const data: Record<string, unknown> = {};
	for (const field of DOCUMENTED_FIELDS[resource]) data[field] = envelope.data[field];
	return { ...envelope, data };
}

function setStatus(
	control: Awaited<ReturnType<typeof startEmulator>>['control'],
	resource: 'einvoice' | 'ewaybill',
	id: string,
	status: string,
): EventEnvelope {
	const envelope =
		resource === 'einvoice'
			? control.setEinvoiceStatus(id, status as never)
			: control.setEwaybillStatus(id, status as never);
	return documentedOnly(envelope as unknown as EventEnvelope, resource);
}

/** The item the trigger starts the workflow with for this envelope (no refetch). */
export async function triggerItem(
	envelope: EventEnvelope,
	shape: OutputShape,
): Promise<IDataObject> {
	// Without refetch, buildOutput makes no call through the context.
	return await buildOutput({} as IWebhookFunctions, envelope, { shape, refetch: false });
}

/** The envelope under an id that says it is a sample (`evt_sample_…`). */
function asSample(envelope: EventEnvelope): EventEnvelope {
	return { ...envelope, id: envelope.id.replace(/^evt_/, 'evt_sample_') };
}

interface Template {
	nodes: Array<{ name: string; type: string; parameters: IDataObject }>;
	pinData?: Record<string, Array<{ json: IDataObject }>>;
	[key: string]: unknown;
}

export function triggerOf(template: Template) {
	return template.nodes.find((node) => node.type.endsWith('.gstComplianceTrigger'));
}

export function outputShapeOf(parameters: IDataObject): OutputShape {
	const options = (parameters.options ?? {}) as IDataObject;
	return options.outputShape === 'data' ? 'data' : 'envelope';
}

async function writePinData(): Promise<void> {
	for (const [file, types] of Object.entries(PINNED_EVENTS)) {
		const filePath = path.join(EXAMPLES_DIR, file);
		const template = JSON.parse(fs.readFileSync(filePath, 'utf8')) as Template;
		const trigger = triggerOf(template);
		if (!trigger) throw new Error(`${file} has no GST Compliance Trigger`);
		const shape = outputShapeOf(trigger.parameters);
		const items = [];
		for (const envelope of await sampleEnvelopes(types))
			items.push({ json: await triggerItem(asSample(envelope), shape) });
		template.pinData = { [trigger.name]: items };
		// Compact JSON through Prettier keeps the templates' formatting (short objects on one line).
		// Loaded here only: Prettier's module cannot be loaded inside jest, which imports this file.
		const prettier = await import('prettier');
		const options = (await prettier.resolveConfig(filePath)) ?? {};
		fs.writeFileSync(
			filePath,
			await prettier.format(JSON.stringify(template), { ...options, filepath: filePath }),
		);
		console.log(`${file}: pinned ${items.length} sample item(s) on "${trigger.name}"`);
	}
}

if (require.main === module) {
	writePinData().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
