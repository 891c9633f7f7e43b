/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import { MANUAL_CLOCK_START, startEmulator } from '..';
import { startReceiver } from './receiver';

describe('emulator: clocks and shutdown', () => {
	it('with the real clock, delivers and retries on its own (settle waits for due work only)', async () => {
		const emu = await startEmulator({ seed: false, retryBaseMs: 5 });
		const receiver = await startReceiver((_r, i) => (i === 0 ? 500 : 200));
		try {
			const client = emu.control.createClient({ environment: 'production' });
			const sub = emu.control.createSubscription({
				clientId: client.clientId,
				url: receiver.url,
				events: ['einvoice.generated'],
			});
			emu.control.createEinvoice({
				organizationId: client.organizationId,
				environment: 'production',
			});
			await emu.control.settle();
			await expect(emu.control.advance(1000)).rejects.toThrow(/manual clock/);
			while (emu.control.deliveries({ subscriptionId: sub.id })[0].state === 'pending') {
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
			expect(emu.control.deliveries({ subscriptionId: sub.id })[0]).toMatchObject({
				state: 'delivered',
				attempts: 2,
			});
		} finally {
			await receiver.close();
			await emu.stop();
		}
	});

	it('starts a manual clock at a fixed time, or at manualClockStart, and only moves on advance()', async () => {
		const fixed = await startEmulator({ clock: 'manual', seed: false });
		const mine = await startEmulator({
			clock: 'manual',
			seed: false,
			manualClockStart: 1_800_000_000_000,
		});
		try {
			expect(new Date(fixed.control.now()).toISOString()).toBe('2025-01-15T04:30:00.000Z');
			expect(fixed.control.now()).toBe(MANUAL_CLOCK_START);
			await fixed.control.advance(1234);
			expect(fixed.control.now()).toBe(MANUAL_CLOCK_START + 1234);
			expect(mine.control.now()).toBe(1_800_000_000_000);
		} finally {
			await Promise.all([fixed.stop(), mine.stop()]);
		}
	});

	it('stop() closes hung token requests, keep-alive API sockets and deliveries in flight', async () => {
		const emu = await startEmulator({ seed: true });
		const hung = createServer(() => undefined);
		await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
		try {
			const { sandbox } = emu.seeded!;
			emu.control.createSubscription({
				clientId: sandbox.clientId,
				url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}/`,
				events: ['einvoice.generated'],
			});
			emu.control.createEinvoice({
				organizationId: sandbox.organizationId,
				environment: 'sandbox',
			});
			emu.control.injectTokenFaults([{ kind: 'timeout' }]);
			const pendingToken = fetch(emu.tokenUrl, {
				method: 'POST',
				body: new URLSearchParams({ client_id: 'x' }),
			}).catch((error: Error) => error);
			await fetch(`${emu.sandboxUrl}/v1/einvoices/x`); // keep-alive socket stays open
			await new Promise((resolve) => setTimeout(resolve, 20));
			await emu.stop();
			expect(String(await pendingToken)).toMatch(/fetch failed/); // the held socket was closed
			expect(emu.control.deliveries()[0]).toMatchObject({
				state: 'pending',
				lastError: 'emulator stopped',
			});
			await emu.stop(); // idempotent
		} finally {
			await new Promise<void>((resolve) => {
				hung.close(() => resolve());
				hung.closeAllConnections();
			});
		}
	});
});
