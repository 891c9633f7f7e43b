/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** A promise's outcome as a value. */
import { settle } from '@/nodes/GstCompliance/settle';

describe('settle: what a promise gave, or what it threw', () => {
	it('a resolved promise → ok with its value', async () => {
		expect(await settle(Promise.resolve(42))).toEqual({ ok: true, value: 42 });
	});

	it('a rejected promise → not ok, with the very error thrown (not wrapped)', async () => {
		const error = new Error('boom');
		const result = await settle(Promise.reject(error));
		expect(result).toEqual({ ok: false, error });
		expect(!result.ok && result.error).toBe(error);
	});

	it('a promise resolving to undefined → ok (a value, not a failure)', async () => {
		expect(await settle(Promise.resolve(undefined))).toEqual({ ok: true, value: undefined });
	});
});
