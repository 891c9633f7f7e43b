/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: runs in Node under jest, never inside n8n */
import { spawn, type ChildProcess } from 'child_process';
import { once } from 'events';
import { join } from 'path';
import { createInterface } from 'readline';
import { startReceiver, verifySignature } from './receiver';

/** What `npm run emulator -- --json` prints on its first line (the fields this test uses). */
interface CliInfo {
	tokenUrl: string;
	sandboxUrl: string;
	controlUrl: string;
	seeded: { sandbox: { clientId: string; clientSecret: string } };
	resources: { sandbox: { einvoices: string[] } };
}

/**
 * The CLI as `npm run emulator` runs it, on free ports: token, GET and a signed delivery, then
 * SIGTERM.
 */
describe('emulator: npm run emulator', () => {
	let child: ChildProcess;
	let info: CliInfo;

	beforeAll(async () => {
		const root = join(__dirname, '../../..');
		child = spawn(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', 'test/emulator/cli.ts', '--json'],
			{
				cwd: root,
				env: {
					...process.env,
					EMULATOR_AUTH_PORT: '0',
					EMULATOR_PRODUCTION_PORT: '0',
					EMULATOR_SANDBOX_PORT: '0',
					EMULATOR_CONTROL_PORT: '0',
				},
				stdio: ['ignore', 'pipe', 'inherit'],
			},
		);
		const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
		info = JSON.parse(line) as CliInfo;
	}, 20_000);

	afterAll(() => {
		if (child.exitCode === null) child.kill('SIGKILL');
	});

	it('serves a token, a GET and a signed delivery, and stops cleanly on SIGTERM', async () => {
		const sandbox = info.seeded.sandbox;
		const tokenRes = await fetch(info.tokenUrl, {
			method: 'POST',
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: sandbox.clientId,
				client_secret: sandbox.clientSecret,
			}),
		});
		const { access_token: token } = (await tokenRes.json()) as { access_token: string };
		const id = info.resources.sandbox.einvoices[0];
		const got = await fetch(`${info.sandboxUrl}/v1/einvoices/${id}`, {
			headers: { Authorization: `Bearer ${token}` },
		});
		expect(got.status).toBe(200);
		const invoice = (await got.json()) as Record<string, unknown>;
		expect(invoice).toMatchObject({ id, object: 'einvoice' });

		const receiver = await startReceiver();
		try {
			const control = async (method: string, ...args: unknown[]) => {
				const res = await fetch(`${info.controlUrl}/control/${method}`, {
					method: 'POST',
					body: JSON.stringify(args),
				});
				return ((await res.json()) as { result: unknown }).result;
			};
			const sub = (await control('createSubscription', {
				clientId: sandbox.clientId,
				url: receiver.url,
				events: ['einvoice.cancelled'],
			})) as { signingSecret: string };
			await control('setEinvoiceStatus', id, 'cancelled');
			await control('settle');
			const [{ headers, raw, body }] = receiver.received;
			expect(
				verifySignature(String(headers['service-signature']), raw, sub.signingSecret, Date.now()),
			).toBe(true);
			expect(body.data).toEqual({ ...invoice, status: 'cancelled' });
		} finally {
			await receiver.close();
		}

		child.kill('SIGTERM');
		const [code] = (await once(child, 'exit')) as [number];
		expect(code).toBe(0);
	}, 20_000);
});
