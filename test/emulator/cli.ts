/* eslint-disable no-console -- a command-line tool: its output is the console */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the service emulator is a Node server for tests, never loaded by n8n */
/**
 * `npm run emulator [-- --json] [--host=…] [--auth-port=…] [--production-port=…] [--sandbox-port=…]
 * [--control-port=…] [--elsewhere-port=…] [--clock=real|manual] [--token-ttl=…]
 * [--retry-base-ms=…]` Every flag also reads an env var: EMULATOR_HOST, EMULATOR_AUTH_PORT,
 * EMULATOR_PRODUCTION_PORT, EMULATOR_SANDBOX_PORT, EMULATOR_CONTROL_PORT, EMULATOR_ELSEWHERE_PORT,
 * EMULATOR_CLOCK, EMULATOR_TOKEN_TTL, EMULATOR_RETRY_BASE_MS. Runs until SIGINT/SIGTERM. Port 0
 * picks a free port.
 */
import { SEED } from './seed';
import { startEmulator } from './';

export const DEFAULT_PORTS = {
	auth: 8780,
	production: 8781,
	sandbox: 8782,
	control: 8783,
	elsewhere: 8784,
};

function setting(flag: string, fallback: string): string {
	const arg = process.argv.find((a) => a.startsWith(`--${flag}=`));
	return (
		arg?.slice(flag.length + 3) ??
		process.env[`EMULATOR_${flag.toUpperCase().replace(/-/g, '_')}`] ??
		fallback
	);
}

function port(name: keyof typeof DEFAULT_PORTS): number {
	const value = Number(setting(`${name}-port`, String(DEFAULT_PORTS[name])));
	if (!Number.isInteger(value) || value < 0 || value > 65535)
		throw new Error(`invalid ${name} port`);
	return value;
}

async function main(): Promise<void> {
	const clock = setting('clock', 'real');
	if (clock !== 'real' && clock !== 'manual') throw new Error('--clock must be real or manual');
	const emulator = await startEmulator({
		host: setting('host', '127.0.0.1'),
		ports: {
			auth: port('auth'),
			production: port('production'),
			sandbox: port('sandbox'),
			control: port('control'),
			elsewhere: port('elsewhere'),
		},
		clock,
		tokenTtlSeconds: Number(setting('token-ttl', '900')),
		retryBaseMs: Number(setting('retry-base-ms', '1000')),
		seed: true,
	});
	const { seeded, stop } = emulator;
	const { tokenUrl, authUrl, realm, productionUrl, sandboxUrl, controlUrl, elsewhereUrl } =
		emulator;
	const urls = { tokenUrl, authUrl, realm, productionUrl, sandboxUrl, controlUrl, elsewhereUrl };
	if (process.argv.includes('--json')) {
		console.log(JSON.stringify({ ...urls, seeded, resources: SEED }));
	} else {
		const client = (
			label: string,
			c: { clientId: string; clientSecret: string; organizationId: string },
		) =>
			`  ${label.padEnd(11)} client_id=${c.clientId}\n              client_secret=${c.clientSecret}\n              organization_id=${c.organizationId}`;
		console.log(
			[
				'GST compliance service emulator (emulator assumptions: test/emulator/README.md)',
				`  Token URL   ${urls.tokenUrl}`,
				`  Auth URL    ${urls.authUrl}   realm=${urls.realm}`,
				`  Production  ${urls.productionUrl}`,
				`  Sandbox     ${urls.sandboxUrl}`,
				`  Control     ${urls.controlUrl}/control/<method>  (POST a JSON array of arguments)`,
				`  Elsewhere   ${urls.elsewhereUrl}  (redirect target of control setRedirect)`,
				client('Sandbox', seeded!.sandbox),
				client('Production', seeded!.production),
				`  Resources   sandbox: ${[...SEED.sandbox.einvoices, ...SEED.sandbox.ewaybills].join(', ')}`,
				`              production: ${[...SEED.production.einvoices, ...SEED.production.ewaybills].join(', ')}`,
				`  Clock       ${clock}. Press Ctrl-C to stop.`,
			].join('\n'),
		);
	}
	const shutdown = (signal: string) => {
		if (!process.argv.includes('--json')) console.log(`\n${signal}: stopping emulator`);
		stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
}

main().catch((error: Error) => {
	console.error(`emulator failed to start: ${error.message}`);
	process.exit(1);
});
