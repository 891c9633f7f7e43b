/**
 * Items 5–6 in a real n8n started by the e2e harness (needs `npm run build` and the e2e runtime),
 * item 6 also in the shape of n8n's own benchmark suite (sweep.ts).
 */
import { runtimeInstalled, startSession } from '../../test/harness';
import type { Section } from '../result';
import { eventsBench } from './events';
import { fetchBench } from './fetch';
import { sweepBench } from './sweep';

export async function n8nBench(options: { runs: number; quick: boolean }): Promise<Section> {
	const title = 'Real n8n 2.41 (e2e harness, packed package)';
	if (!runtimeInstalled()) {
		return {
			title,
			rows: [],
			skipped: 'the e2e runtime is not installed (npm run e2e:install)',
		};
	}
	// The API rate limit is lifted so both sides of item 5 measure speed, not the emulator's budget.
	const session = await startSession(
		{ apiRateLimitPerMinute: 1_000_000 },
		{ name: 'bench', env: { N8N_LOG_LEVEL: 'warn' } },
	);
	try {
		const rows = [
			...(await fetchBench(session, options.runs)),
			...(await eventsBench(session, options.runs, options.quick ? 150 : 300)),
			...(await sweepBench(session, options.runs, options.quick ? 40 : 100)),
		];
		return { title, rows };
	} finally {
		await session.stop();
	}
}
