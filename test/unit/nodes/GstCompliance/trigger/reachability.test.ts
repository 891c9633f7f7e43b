/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import { unreachableHost, unreachableUrlMessage } from '@/nodes/GstCompliance/trigger/reachability';

describe('a URL the service cannot reach over the internet', () => {
	it.each([
		['http://localhost:5678/webhook/x', 'localhost'],
		['http://LOCALHOST.:5678/webhook/x', 'localhost'],
		['http://n8n.localhost/webhook/x', 'localhost'],
		['http://127.0.0.1:5678/webhook/x', 'localhost'],
		['http://127.1.2.3/webhook/x', 'localhost'],
		['http://[::1]:5678/webhook/x', 'localhost'],
		['http://[::ffff:127.0.0.1]/webhook/x', 'localhost'],
		['http://0.0.0.0:5678/webhook/x', 'the address 0.0.0.0'],
		['http://[::]:5678/webhook/x', 'the address [::]'],
		['http://10.0.0.5/webhook/x', 'the private address 10.0.0.5'],
		['http://172.16.0.1/webhook/x', 'the private address 172.16.0.1'],
		['http://172.31.255.255/webhook/x', 'the private address 172.31.255.255'],
		['http://192.168.1.20:5678/webhook/x', 'the private address 192.168.1.20'],
		['http://169.254.10.1/webhook/x', 'the private address 169.254.10.1'],
		['http://100.64.0.1/webhook/x', 'the private address 100.64.0.1'],
		['http://100.127.255.1/webhook/x', 'the private address 100.127.255.1'],
		['http://[::ffff:192.168.0.1]/webhook/x', 'the private address 192.168.0.1'],
		['http://[fd12:3456::1]/webhook/x', 'the private address [fd12:3456::1]'],
		['http://[fc00::1]/webhook/x', 'the private address [fc00::1]'],
		['http://[fe80::1]/webhook/x', 'the private address [fe80::1]'],
		['http://n8n:5678/webhook/x', 'the local network name n8n'],
		['http://nas.local/webhook/x', 'the local network name nas.local'],
		['http://n8n.internal/webhook/x', 'the local network name n8n.internal'],
		['http://box.lan/webhook/x', 'the local network name box.lan'],
		['http://nas.local./webhook/x', 'the local network name nas.local'],
		['http://127.1/webhook/x', 'localhost'],
		['http://0x7f000001/webhook/x', 'localhost'],
		['http://0.1.2.3/webhook/x', 'the address 0.1.2.3'],
		['http://10.255.255.255/webhook/x', 'the private address 10.255.255.255'],
		['http://192.168.255.1/webhook/x', 'the private address 192.168.255.1'],
		['http://169.254.0.1/webhook/x', 'the private address 169.254.0.1'],
		['http://[::ffff:10.1.2.3]/webhook/x', 'the private address 10.1.2.3'],
		['http://[::ffff:172.20.3.4]/webhook/x', 'the private address 172.20.3.4'],
		['http://[fdff::1]/webhook/x', 'the private address [fdff::1]'],
		['http://[febf::1]/webhook/x', 'the private address [febf::1]'],
	])('%s → %s', (url, reason) => {
		expect(unreachableHost(url)).toBe(reason);
	});
});

describe('a URL the service can reach', () => {
	it.each([
		'https://n8n.example.com/webhook/x',
		'https://abc123.ngrok-free.app/webhook/x',
		'http://8.8.8.8/webhook/x',
		'http://172.15.0.1/webhook/x',
		'http://172.32.0.1/webhook/x',
		'http://100.63.0.1/webhook/x',
		'http://100.128.0.1/webhook/x',
		'http://192.169.0.1/webhook/x',
		'http://11.0.0.1/webhook/x',
		'http://[2001:db8::1]/webhook/x',
		'http://[::ffff:8.8.8.8]/webhook/x',
		'http://localhost.example.com/webhook/x',
		'http://126.0.0.1/webhook/x',
		'http://128.0.0.1/webhook/x',
		'http://1.2.3.4/webhook/x',
		'http://9.0.0.1/webhook/x',
		'http://169.253.0.1/webhook/x',
		'http://169.255.0.1/webhook/x',
		'http://168.254.0.1/webhook/x',
		'http://192.167.0.1/webhook/x',
		'http://191.168.0.1/webhook/x',
		'http://173.16.0.1/webhook/x',
		'http://101.64.0.1/webhook/x',
		'http://[::2]/webhook/x',
		'http://[::ffff:172.32.0.1]/webhook/x',
		'http://[fbff::1]/webhook/x',
		'http://[fe00::1]/webhook/x',
		'http://[fe7f::1]/webhook/x',
		'http://[fec0::1]/webhook/x',
		'http://example.localhostx/webhook/x',
		'http://local.example.com/webhook/x',
	])('%s → nothing to say', (url) => {
		expect(unreachableHost(url)).toBeUndefined();
	});

	it('a value that is not a URL → nothing to say', () => {
		expect(unreachableHost('not a url')).toBeUndefined();
	});
});

describe('what publishing says', () => {
	it('unreachableUrlMessage(url, reason) → the URL, the reason, WEBHOOK_URL, and the option for a proxy', () => {
		const message = unreachableUrlMessage('http://localhost:5678/webhook/a/webhook', 'localhost');
		expect(message).toMatch(
			/^The Production URL http:\/\/localhost:5678\/webhook\/a\/webhook is localhost, which the service cannot reach/,
		);
		expect(message).toContain('Set WEBHOOK_URL');
		expect(message).toContain('Allow Local Production URL');
	});
});
