/**
 * Property test of the signature check over seeded random bodies, secrets and timestamps: what the
 * sender signs verifies, and flipping any one bit of the body, the signature or the timestamp, or
 * signing with another secret, does not. The seed is in each case's name.
 */
import { randomBytes } from 'crypto';

import {
	formatSignatureHeader,
	sign,
	verify,
} from '../../../../nodes/GstComplianceTrigger/signature';

function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('sign → verify', () => {
	it.each(Array.from({ length: 50 }, (_, i) => 2000 + i))('seed %i', (seed) => {
		const random = prng(seed);
		const int = (n: number) => Math.floor(random() * n);
		const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
		const body = bytes(int(2048));
		const secret = `whsec_${bytes(8 + int(40)).toString('base64url')}`;
		const t = 1_600_000_000 + int(400_000_000);
		const check = (
			candidateBody: Buffer,
			signature: string,
			timestamp: string | number = t,
			secrets = [secret],
		) =>
			verify({
				body: candidateBody,
				header: formatSignatureHeader(timestamp, [signature]),
				secrets,
				nowSeconds: t,
				toleranceSeconds: 300,
			}).ok;
		const good = sign(secret, t, body);
		expect(check(body, good)).toBe(true);

		if (body.length > 0) {
			const flipped = Buffer.from(body);
			flipped[int(body.length)] ^= 1 << int(8);
			expect(check(flipped, good)).toBe(false);
		}
		const signature = Buffer.from(good, 'hex');
		signature[int(32)] ^= 1 << int(8);
		expect(check(body, signature.toString('hex'))).toBe(false);
		expect(check(body, good, t + 1 + int(299))).toBe(false);
		expect(check(body, good, t, [`whsec_${randomBytes(16).toString('hex')}`])).toBe(false);
	});
});
