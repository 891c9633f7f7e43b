/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The digest both dedupe stores key an event id by. */
import { createHash } from 'crypto';

import { eventDigest, eventIdBytes } from '@/nodes/GstCompliance/trigger/dedupe/eventDigest';

describe('eventDigest: SHA-256 of the id exactly as received', () => {
	it('a well-formed id → its UTF-8 bytes, as ids remembered by earlier versions were keyed', () => {
		expect(eventIdBytes('evt_é')).toEqual(Buffer.from('evt_é', 'utf8'));
		expect(eventDigest('evt_1')).toBe(
			createHash('sha256').update('evt_1', 'utf8').digest('base64url'),
		);
		expect(eventDigest('evt_1')).toHaveLength(43);
	});

	it('ids differing only in lone surrogates → distinct digests (UTF-8 would make them all U+FFFD)', () => {
		const digests = ['evt_\ud800', 'evt_\udc00', 'evt_\ufffd'].map(eventDigest);
		expect(new Set(digests).size).toBe(3);
		expect(eventIdBytes('evt_\ud800')[0]).toBe(0xff);
		expect(eventIdBytes('evt_\ud800').subarray(1)).toEqual(Buffer.from('evt_\ud800', 'utf16le'));
	});
});

describe('eventDigest on a Node without the one-shot crypto.hash (before 20.12)', () => {
	it('→ the same digests through createHash', () => {
		const ids = ['evt_1', 'evt_é', 'evt_\ud800'];
		const withHash = ids.map(eventDigest);
		let without: string[] = [];
		jest.isolateModules(() => {
			jest.doMock('crypto', () => {
				const actual = jest.requireActual<Record<string, unknown>>('crypto');
				return Object.fromEntries(Object.entries(actual).filter(([name]) => name !== 'hash'));
			});
			const reloaded = jest.requireActual<{ eventDigest: (id: string) => string }>(
				'../../../../../../nodes/GstCompliance/trigger/dedupe/eventDigest',
			);
			without = ids.map(reloaded.eventDigest);
		});
		jest.dontMock('crypto');
		expect(without).toEqual(withHash);
	});
});
