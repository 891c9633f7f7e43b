/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- fixed secrets of the tests, not credentials */
import type { EmulatorState } from './state';
import type { ClientInfo } from './types';

/**
 * Fixed demo credentials and resources, so the README, the demo and manual n8n setups can rely on
 * them across restarts of `npm run emulator`. Never used by the real service, obviously.
 */
export const SEED = {
	sandbox: {
		clientId: 'svc_test_5eed00000000000000000001',
		clientSecret: 'sandbox-demo-secret-5eed-0001',
		organizationId: 'org_sandbox_demo',
		einvoices: ['einv_5eed_sandbox_0001', 'einv_5eed_sandbox_0002'],
		ewaybills: ['ewb_5eed_sandbox_0001'],
	},
	production: {
		clientId: 'svc_live_5eed00000000000000000001',
		clientSecret: 'production-demo-secret-5eed-0001',
		organizationId: 'org_production_demo',
		einvoices: ['einv_5eed_live_0001'],
		ewaybills: ['ewb_5eed_live_0001'],
	},
} as const;

export function seed(state: EmulatorState): { sandbox: ClientInfo; production: ClientInfo } {
	const out = {} as { sandbox: ClientInfo; production: ClientInfo };
	for (const environment of ['sandbox', 'production'] as const) {
		const s = SEED[environment];
		out[environment] = state.createClient({
			environment,
			organizationId: s.organizationId,
			plan: 'einvoice+ewaybill',
			clientId: s.clientId,
			clientSecret: s.clientSecret,
		});
		s.einvoices.forEach((id, i) =>
			state.createEinvoice({
				organizationId: s.organizationId,
				environment,
				status: i === 1 ? 'cancelled' : 'generated',
				fields: { id },
			}),
		);
		for (const id of s.ewaybills)
			state.createEwaybill({ organizationId: s.organizationId, environment, fields: { id } });
	}
	return out;
}
