/**
 * Whether the service, which calls the trigger's URL over the internet, can reach the URL n8n
 * shows. n8n builds the URL from `WEBHOOK_URL`, or from its own host and port where that is unset:
 * on a laptop, a Docker desktop or a LAN install that is a loopback or private address, which the
 * service never reaches; it deactivates the subscription after 50 failed deliveries.
 */

/** Why the service cannot reach `url` ("localhost", "the private address 10.0.0.5"), or undefined. */
export function unreachableHost(url: string): string | undefined {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return undefined; // not a URL n8n would show: nothing to say about it
	}
	if (host.startsWith('[') && host.endsWith(']')) return privateIPv6(host.slice(1, -1));
	const v4 = ipv4(host);
	if (v4) return privateIPv4(v4, host);
	const name = host.endsWith('.') ? host.slice(0, -1) : host;
	if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost';
	if (name.endsWith('.local') || name.endsWith('.internal') || name.endsWith('.lan'))
		return `the local network name ${name}`;
	// A name with no dot (a Docker service, a machine's own name) resolves only inside its network.
	if (!name.includes('.')) return `the local network name ${name}`;
	return undefined;
}

/** The octets of a dotted IPv4 host: the URL parser has already written any IPv4 form so. */
function ipv4(host: string): number[] | undefined {
	const dotted = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
	return dotted ? dotted.slice(1).map(Number) : undefined;
}

function privateIPv4([a, b]: number[], host: string): string | undefined {
	if (a === 127) return 'localhost';
	if (a === 0) return `the address ${host}`;
	const local =
		a === 10 ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 169 && b === 254) || // link-local
		(a === 100 && b >= 64 && b <= 127); // carrier-grade NAT, VPN meshes such as Tailscale
	return local ? `the private address ${host}` : undefined;
}

function privateIPv6(host: string): string | undefined {
	if (host === '::1') return 'localhost';
	if (host === '::') return `the address [${host}]`;
	// An IPv4 address in IPv6 form: the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
	const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
	if (mapped) {
		const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
		const octets = [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
		return privateIPv4(octets, octets.join('.'));
	}
	const first = parseInt(host.split(':')[0], 16);
	// fc00::/7 (unique local), fe80::/10 (link-local)
	if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80)
		return `the private address [${host}]`;
	return undefined;
}

/**
 * What publishing says when the Production URL is one the service cannot reach: why, and the two
 * ways out (n8n's public address, or the option for a proxy or tunnel n8n does not know about).
 */
export function unreachableUrlMessage(url: string, reason: string): string {
	return `The Production URL ${url} is ${reason}, which the service cannot reach: it calls the URL over the internet. Set WEBHOOK_URL to n8n's public address (or a tunnel's), restart n8n and publish again. If a proxy or tunnel already forwards a public address here, turn on the trigger's Allow Local Production URL option and subscribe that public address`;
}
