/** Redis Cluster's hash slot of a key, which picks the master a start waits on. */
import { keySlot } from '../../../../../../../nodes/GstCompliance/trigger/dedupe/redis/replicaWait';

describe('keySlot', () => {
	it("matches Redis Cluster's slots (CLUSTER KEYSLOT), hash tags included", () => {
		expect(keySlot('somekey')).toBe(11058);
		expect(keySlot('foo')).toBe(12182);
		expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
		expect(keySlot('foo{}{bar}')).toBe(keySlot('foo{}{bar}'));
	});
});
