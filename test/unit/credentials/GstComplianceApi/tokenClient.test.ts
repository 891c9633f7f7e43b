/** Token endpoint failures: clear errors, counted bounded attempts, nothing secret in the text. */
import { gstApiRequest } from '../../../../transport/apiRequest';
import { configureSettings } from '../../../../transport/settings';
import type { ClientInfo, TokenFault } from '../../../emulator';
import { executeContext } from '../../helpers/executeNode';
import {
	closedPortUrl,
	credentialData,
	FAST_RETRIES,
	recordingSleep,
	useEmulatorForPackage,
} from '../../helpers/emulatorForPackage';

const JWT_LIKE = /eyJ[\w-]*\.[\w-]*\.[\w-]*/;

describe('token endpoint failures', () => {
	const emulator = useEmulatorForPackage();
	let client: ClientInfo;

	beforeEach(() => {
		client = emulator().control.createClient({ environment: 'sandbox' });
	});

	const context = (overrides = {}) =>
		executeContext({
			parameters: {},
			credentials: { gstComplianceApi: credentialData(emulator(), client, overrides) },
		}).context;
	const failure = async (ctx = context()) => {
		const error = await gstApiRequest.call(ctx, 'GET', '/v1/einvoices/einv_x').then(
			() => undefined,
			(caught: Error) => caught,
		);
		expect(error).toBeInstanceOf(Error);
		return error as Error & { description?: string; context: Record<string, unknown> };
	};
	const tokenRequests = () => emulator().control.counters().tokenRequests[client.clientId] ?? 0;
	const expectNothingLeaked = (error: Error & { description?: string }) => {
		const text = `${error.message} ${error.description ?? ''} ${JSON.stringify(error)}`;
		expect(text).not.toContain(client.clientSecret);
		expect(text).not.toMatch(JWT_LIKE);
	};
	const maxAttempts = FAST_RETRIES.tokenRetry!.maxAttempts;

	it.each<[string, TokenFault, RegExp]>([
		[
			'500',
			{ kind: 'status', status: 500 },
			/token endpoint at .* failed with HTTP 500.*gave up after 3 attempts/,
		],
		[
			'timeout',
			{ kind: 'timeout' },
			/Could not reach the token endpoint at .*: no answer within the time limit.*gave up after 3 attempts/,
		],
		['non-JSON', { kind: 'garbage' }, /without a usable access token.*gave up after 3 attempts/],
	])(
		'token %s on every attempt: clear error after exactly maxAttempts requests',
		async (_name, fault, message) => {
			// The count of attempts is the point, not the time limit: a short one keeps this test fast.
			configureSettings({ tokenRequestTimeoutMs: 300 });
			emulator().control.injectTokenFaults(Array.from({ length: maxAttempts }, () => fault));
			const error = await failure();
			expect(error.message).toMatch(message);
			expect(tokenRequests()).toBe(maxAttempts);
			expect(emulator().control.counters().apiRequestsTotal).toBe(0);
			expectNothingLeaked(error);
		},
	);

	it('recovers when the token endpoint fails once with 500', async () => {
		emulator().control.injectTokenFaults([{ kind: 'status', status: 500 }]);
		const einvoice = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		const ctx = context();
		await expect(
			gstApiRequest.call(ctx, 'GET', `/v1/einvoices/${einvoice.id}`),
		).resolves.toMatchObject({ id: einvoice.id });
		expect(tokenRequests()).toBe(2);
	});

	it('reports a wrong secret as rejected, without retrying and without echoing the secret', async () => {
		const error = await failure(context({ clientSecret: 'wrong-secret-value' }));
		expect(error.message).toMatch(/rejected the client id or secret \(HTTP 401: invalid_client/);
		expect(error.message).not.toContain('wrong-secret-value');
		expect(error.context.gstCode).toBe('CREDENTIALS_REJECTED');
		expect(tokenRequests()).toBe(1);
		expectNothingLeaked(error);
	});

	it('honours Retry-After on 429 and lets concurrent callers share the wait (no hammering)', async () => {
		const recorder = recordingSleep();
		configureSettings({ sleep: recorder.sleep });
		const einvoice = emulator().control.createEinvoice({
			organizationId: client.organizationId,
			environment: 'sandbox',
		});
		emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 1 }]);
		const ctx = context();
		const results = await Promise.all(
			Array.from(
				{ length: 20 },
				async () => await gstApiRequest.call(ctx, 'GET', `/v1/einvoices/${einvoice.id}`),
			),
		);
		expect(results.every((result) => result.id === einvoice.id)).toBe(true);
		expect(recorder.waits).toEqual([1000]);
		expect(tokenRequests()).toBe(2);
	});

	it('fails fast on a 429 whose Retry-After exceeds the bound, and keeps later callers off the endpoint until then', async () => {
		emulator().control.injectTokenFaults([{ kind: 'status', status: 429, retryAfterSeconds: 120 }]);
		const first = await failure();
		expect(first.message).toMatch(
			/rate-limiting this client \(HTTP 429\) and asks to wait 120 s, longer than this node waits; gave up after 1 attempt/,
		);
		expect(first.context.gstCode).toBe('TOKEN_RATE_LIMITED');
		const second = await failure();
		expect(second.message).toMatch(
			/rate-limiting this client \(HTTP 429\); new token requests with this credential are paused for/,
		);
		expect(tokenRequests()).toBe(1);
		expectNothingLeaked(first);
	});

	it('names an unreachable token host', async () => {
		const authUrl = await closedPortUrl();
		const error = await failure(context({ authUrl }));
		expect(error.message).toContain(
			`Could not reach the token endpoint at ${new URL(authUrl).host}: the connection was refused`,
		);
		expect(error.message).toContain('gave up after 3 attempts');
		expect(error.context.gstCode).toBe('TOKEN_ENDPOINT_UNREACHABLE');
	});

	it('points at Auth URL and Realm when the token path does not exist', async () => {
		const error = await failure(context({ realm: 'nope' }));
		expect(error.message).toMatch(/answered HTTP 404.*Check Auth URL and Realm/);
		expect(tokenRequests()).toBe(0);
	});
});
