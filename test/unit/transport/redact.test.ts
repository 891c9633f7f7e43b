/** Taking secrets and tokens out of texts a user or operator could see. */
import { redact } from '../../../transport/redact';

const jwt = (claims: Record<string, unknown>) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('redact', () => {
	it('removes secrets and JWT-shaped strings', () => {
		const text = redact(`secret s3cret-value and token ${jwt({ a: 1 })}`, ['s3cret-value']);
		expect(text).toBe('secret [redacted] and token [redacted token]');
	});
});
