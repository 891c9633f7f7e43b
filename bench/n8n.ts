/** Items 5–6 (real n8n): not written yet. */
import type { Section } from './result';
import type { BenchOptions } from './run';

export async function n8nBench(_options: BenchOptions): Promise<Section> {
	return { title: 'Real n8n (items 5–6)', rows: [], skipped: 'not implemented yet' };
}
