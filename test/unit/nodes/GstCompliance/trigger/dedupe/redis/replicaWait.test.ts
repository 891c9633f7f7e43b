/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Redis Cluster's hash slot of a key, which picks the master a start waits on. */
import { keySlot } from '@/nodes/GstCompliance/trigger/dedupe/redis/replicaWait';

describe('keySlot', () => {
	it("matches Redis Cluster's slots (CLUSTER KEYSLOT), hash tags included", () => {
		expect(keySlot('somekey')).toBe(11058);
		expect(keySlot('foo')).toBe(12182);
		expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
		expect(keySlot('user1000')).toBe(3443);
		// CRC16 (XMODEM)'s check value: 0x31c3 for "123456789", mod 16384.
		expect(keySlot('123456789')).toBe(0x31c3 % 16384);
		// The cluster specification's examples: an empty first tag hashes the whole key, a tag ends
		// at the first "}" after the first "{", only the first tag counts.
		expect(keySlot('foo{}{bar}')).toBe(8363);
		expect(keySlot('foo{{bar}}zap')).toBe(keySlot('{bar'));
		expect(keySlot('{bar')).toBe(4015);
		expect(keySlot('foo{bar}{zap}')).toBe(keySlot('bar'));
		expect(keySlot('bar')).toBe(5061);
	});
});
