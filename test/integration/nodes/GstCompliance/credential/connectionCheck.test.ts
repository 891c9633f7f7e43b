/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The credential's "Test" button (`testedBy` on the nodes): OK only when a token is issued AND the
 * environment's API host accepts it; otherwise the reason, in words the user can act on. Run by
 * n8n-core's CredentialTestContext against the emulator.
 */
import { Container } from '@n8n/di';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialTestFunction } from 'n8n-workflow';

import { GstCompliance } from '@/nodes/GstCompliance/GstCompliance.node';
import type { ClientInfo } from '@/test/emulator';
import {
	closedPortUrl,
	credentialData,
	useEmulatorForPackage,
} from '@/test/integration/helpers/emulatorForPackage';

const emulator = useEmulatorForPackage();
let client: ClientInfo;

beforeEach(() => {
	client = emulator().control.createClient({ environment: 'sandbox' });
});

const node = new GstCompliance();
/** Clicks Test on the node's credential, with `overrides` on the emulator client's data. */
const run = async (overrides: ICredentialDataDecryptedObject = {}) => {
	const credential = node.description.credentials?.find((c) => c.name === 'gstComplianceApi');
	const tests: Record<string, ICredentialTestFunction> = node.methods.credentialTest;
	const test = tests[credential?.testedBy as string];
	return await test.call(new CredentialTestContext(), {
		id: 'cred-1',
		name: 'GST',
		type: 'gstComplianceApi',
		data: credentialData(emulator(), client, overrides),
	});
};

describe("passes only when a token is issued and the environment's API host accepts it", () => {
	it('Test of a sandbox credential → OK with environment, API host and organization, after one mint and one API call', async () => {
		const result = await run();
		expect(result).toEqual({
			status: 'OK',
			message: `Connected to Sandbox (${new URL(emulator().sandboxUrl).host}) as organization ${client.organizationId}`,
		});
		const counters = emulator().control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1);
	});

	it('Test of a production credential → OK, connected to Production', async () => {
		client = emulator().control.createClient({ environment: 'production' });
		const result = await run();
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^Connected to Production .* as organization /);
	});

	it('Test with the API URL of the other environment → Error: the token was issued but the host rejected it', async () => {
		const result = await run({ sandboxApiUrl: emulator().productionUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/token was issued for organization .* rejected it \(HTTP 401\)/);
	});

	it('Test with an API host nobody listens on → Error: the token was issued, the host could not be reached', async () => {
		const result = await run({ sandboxApiUrl: await closedPortUrl() });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/token was issued, but the Sandbox API host .* could not be reached: the connection was refused/,
		);
	});
});

describe('passes only when the API host answers as the API does, not any web page or JSON 404', () => {
	/**
	 * A host answering every request with `status`, `contentType` and `body`; with `withoutToken`,
	 * a request without a bearer token gets that status instead (as the API answers 401).
	 */
	const host = async (status: number, contentType: string, body: string, withoutToken?: number) => {
		const server = createServer((req, res) => {
			const answer = withoutToken && !req.headers.authorization ? withoutToken : status;
			res.writeHead(answer, { 'content-type': contentType });
			res.end(body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		servers.push(server);
		return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	};
	const servers: Server[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map(async (s) => await new Promise((r) => s.close(r))));
	});
	const HTML = '<!doctype html><html><body><h1>Page not found</h1></body></html>';

	it.each([
		['an HTML 404 page (the Developer hub, a mistyped host)', 404, 'text/html', HTML],
		['an HTML 200 page', 200, 'text/html; charset=utf-8', HTML],
		['an HTML 403 page', 403, 'text/html', HTML],
		['a 404 in plain text', 404, 'text/plain', 'Not Found'],
	])(
		'Test with an API URL answering %s → Error: not the API, check the URL',
		async (_, status, type, body) => {
			const result = await run({ sandboxApiUrl: await host(status, type, body) });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(`answered HTTP ${status} with .*not the API's JSON.*Check the Sandbox API URL`),
			);
		},
	);

	it('Test with an API URL answering 200 JSON that is not an e-invoice → Error: not the API', async () => {
		const result = await run({
			sandboxApiUrl: await host(200, 'application/json', '{"status":"ok"}'),
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/answered HTTP 200 with JSON that is not an e-invoice/);
	});

	// The error body is not shown (docs/service-api.md): any JSON passes, so long as the token
	// made the difference.
	it.each([
		['404 JSON (the id does not exist), 401 without a token', 404, 401],
		['403 JSON (the plan lacks e-invoices), 401 without a token', 403, 401],
		['404 JSON, 403 without a token', 404, 403],
	])('Test with an API answering %s → OK', async (_, status, withoutToken) => {
		const result = await run({
			sandboxApiUrl: await host(status, 'application/json', '{"message":"whatever"}', withoutToken),
		});
		expect(result.status).toBe('OK');
	});

	it.each([
		['an API gateway: JSON 404 on every unknown path, token or not', 404, undefined],
		['JSON 403 with the token and without', 403, undefined],
		['JSON 404 with the token, 200 without', 404, 200],
	])(
		'Test with an API URL answering %s → Error: not the API, check the URL',
		async (_, status, withoutToken) => {
			const result = await run({
				sandboxApiUrl: await host(
					status,
					'application/json',
					'{"error":{"code":"not_found","message":"no route"}}',
					withoutToken,
				),
			});
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(
					`answered HTTP ${status} with JSON.*without a token.*not the GST Compliance API.*Check the Sandbox API URL`,
				),
			);
		},
	);

	it("Test with the token server's own host as the API URL (JSON 404 on its unknown paths) → Error: not the API", async () => {
		const result = await run({ sandboxApiUrl: emulator().authUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/answered HTTP 404 with JSON.*without a token.*Check the Sandbox API URL/,
		);
	});

	it('Test with an API host whose answer without a token is 429 → Error: the rate limit, not "connected"', async () => {
		const result = await run({
			sandboxApiUrl: await host(404, 'application/json', '{}', 429),
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/HTTP 429/);
	});
});

describe('reports why no token could be had, never the secret', () => {
	it('Test with a wrong secret → Error: the client id or secret rejected, the secret not shown', async () => {
		const result = await run({ clientSecret: 'nope-nope' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the client id or secret/);
		expect(result.message).not.toContain('nope-nope');
	});

	it('Test with a client id of the other environment → Error naming both, no token request', async () => {
		const result = await run({ environment: 'production' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/"svc_test_", which is a Sandbox client, but the credential's Environment is Production/,
		);
		expect(emulator().control.counters().tokenRequestsTotal).toBe(0);
	});

	it('Test with a token host nobody listens on → Error: the token endpoint could not be reached', async () => {
		const result = await run({ authUrl: await closedPortUrl() });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/Could not reach the token service .*the connection was refused/,
		);
	});

	it('Test while the token endpoint rate-limits, on the first click and while paused → Error: the rate limit, one token request', async () => {
		emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 120 }]);
		for (let click = 0; click < 2; click++) {
			const result = await run();
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/rate-limiting this client.*The answer was HTTP 429/);
			expect(result.message).not.toMatch(/could not be checked/i);
		}
		expect(emulator().control.counters().tokenRequests[client.clientId]).toBe(1);
	});
});

describe('mints a fresh token on every click, so a revoked secret is noticed', () => {
	it('Test twice with a token cached → two mints', async () => {
		await run();
		await run();
		expect(emulator().control.counters().tokenMints[client.clientId]).toBe(2);
	});
});

describe("runs outside n8n's outbound request policy (docs/security.md): fetch, not n8n's helpers", () => {
	// Protection on: loopback IPs, the emulator's, are in its default blocked ranges. n8n-core reads
	// the policy when it first builds its outbound client, so the client is dropped on entry and on
	// exit, and the next request builds it again.
	beforeAll(() => {
		process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
		Container.reset();
	});
	afterAll(() => {
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
		Container.reset();
	});

	it('Test with the token and API hosts on a loopback IP the policy blocks → OK, both reached', async () => {
		const result = await run();
		expect(result.status).toBe('OK');
		const counters = emulator().control.counters();
		expect(counters.tokenMints[client.clientId]).toBe(1);
		expect(counters.apiCalls[client.clientId]).toBe(1);
	});
});
