/** The redirect switch: API hosts answer 302 to another origin, which records Authorization. */
import { useManualClockEmulator } from './helpers';

describe('emulator: cross-origin redirect', () => {
	const emulator = useManualClockEmulator();
	afterEach(() => emulator().control.setRedirect(false));

	it('answers 302 to the same path on elsewhereUrl, another origin, while switched on', async () => {
		const emu = emulator();
		expect(new URL(emu.elsewhereUrl).origin).not.toBe(new URL(emu.sandboxUrl).origin);
		emu.control.setRedirect(true);
		for (const base of [emu.sandboxUrl, emu.productionUrl]) {
			const res = await fetch(`${base}/v1/einvoices/einv_1?x=1`, { redirect: 'manual' });
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe(`${emu.elsewhereUrl}/v1/einvoices/einv_1?x=1`);
		}
		emu.control.setRedirect(false);
		const res = await fetch(`${emu.sandboxUrl}/v1/einvoices/einv_1`, { redirect: 'manual' });
		expect(res.status).toBe(401);
	});

	it('records whether an Authorization header reached elsewhereUrl, never its value', async () => {
		const emu = emulator();
		emu.control.setRedirect(true);
		const withAuth = await fetch(`${emu.elsewhereUrl}/v1/einvoices/a`, {
			headers: { Authorization: 'Bearer secret-token' },
		});
		expect(await withAuth.json()).toEqual({ elsewhere: true, path: '/v1/einvoices/a' });
		await fetch(`${emu.elsewhereUrl}/v1/einvoices/b`);
		expect(emu.control.elsewhereRequests()).toEqual([
			{ method: 'GET', path: '/v1/einvoices/a', authorization: true },
			{ method: 'GET', path: '/v1/einvoices/b', authorization: false },
		]);
		expect(JSON.stringify(emu.control.elsewhereRequests())).not.toContain('secret-token');
		emu.control.setRedirect(true);
		expect(emu.control.elsewhereRequests()).toEqual([]);
	});

	it('is switched over the HTTP control API too', async () => {
		const emu = emulator();
		const post = async (method: string, args: unknown[]) =>
			await fetch(`${emu.controlUrl}/control/${method}`, {
				method: 'POST',
				body: JSON.stringify(args),
			}).then(async (res) => (await res.json()) as { result: unknown });
		await post('setRedirect', [true]);
		const res = await fetch(`${emu.sandboxUrl}/v1/einvoices/einv_1`, { redirect: 'manual' });
		expect(res.status).toBe(302);
		await fetch(res.headers.get('location')!);
		expect((await post('elsewhereRequests', [])).result).toEqual([
			{ method: 'GET', path: '/v1/einvoices/einv_1', authorization: false },
		]);
	});
});
