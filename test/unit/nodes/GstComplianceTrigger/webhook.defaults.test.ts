/**
 * The trigger's shipped defaults and limits, through the node's real webhook() with no options set
 * (README: Guarantees and limits): the 300 s timestamp tolerance, the 24 h dedupe window (plus the
 * tolerance) and the 1 MiB body limit, at their exact edges.
 */
import { dedupeRegistry } from '../../../../nodes/GstComplianceTrigger/dedupe/persistence';
import { deliver, envelope, newWorkflow, NOW_MS, signed } from '../../helpers/deliverToTrigger';

const MIB = 1024 * 1024;
let now = NOW_MS;
beforeEach(() => {
	now = NOW_MS;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	dedupeRegistry.clear();
});
afterEach(() => jest.restoreAllMocks());

const nowS = () => Math.floor(now / 1000);
const event = (id: string) => JSON.stringify(envelope({ id }));

describe('timestamp tolerance (default 300 s)', () => {
	it.each([
		['300 s old', 200, -300],
		['300 s ahead', 200, 300],
		['301 s old', 401, -301],
		['301 s ahead', 401, 301],
	])('a delivery signed %s is answered %s', async (_name, status, offset) => {
		const result = await deliver({ ...signed(event('evt_t'), nowS() + offset), options: {} });
		expect(result.status).toBe(status);
		expect(result.started !== undefined).toBe(status === 200);
	});
});

describe('dedupe window (default 24 h plus the 300 s tolerance)', () => {
	const HOUR = 3_600_000;
	it('answers a redelivery 24 h 5 min later as a duplicate, and one a minute after that starts again', async () => {
		const workflow = newWorkflow();
		const send = async () =>
			await deliver({ ...signed(event('evt_w'), nowS()), workflow, options: {} });
		expect((await send()).started).toHaveLength(1);
		now = NOW_MS + 24 * HOUR + 300_000;
		expect(await send()).toMatchObject({ status: 200, body: { duplicate: true } });
		now = NOW_MS + 24 * HOUR + 360_000;
		expect((await send()).started).toHaveLength(1);
	});
});

describe('body limit (1 MiB)', () => {
	/** A signed envelope of exactly `bytes` bytes: the padding is inside `data`. */
	const ofSize = (bytes: number) => {
		const bare = JSON.stringify(envelope({ id: 'evt_big', data: { id: 'einv_1', pad: '' } }));
		const body = bare.replace('"pad":""', `"pad":"${'x'.repeat(bytes - bare.length)}"`);
		expect(Buffer.byteLength(body)).toBe(bytes);
		return signed(body, nowS());
	};

	it('accepts a delivery of exactly 1 MiB', async () => {
		const result = await deliver({ ...ofSize(MIB), options: {} });
		expect(result.status).toBe(200);
		expect(result.started).toHaveLength(1);
	});

	it('answers 413 to 1 MiB + 1 byte and starts nothing', async () => {
		const result = await deliver({ ...ofSize(MIB + 1), options: {} });
		expect(result).toEqual({
			status: 413,
			body: { error: 'Payload too large' },
			started: undefined,
		});
	});
});
