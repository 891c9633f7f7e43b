/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import { acknowledgeMode } from '@/nodes/GstCompliance/trigger/acknowledgement';

describe('the acknowledgement by n8n version (Automatic)', () => {
	it.each([
		['1.123.81', 'atOnce'],
		['1.122.48', 'atOnce'],
		['2.0.0', 'afterExecutionCreated'],
		['2.8.1', 'afterExecutionCreated'],
		['2.33.9', 'afterExecutionCreated'],
		['2.34.0', 'atOnce'],
		['2.41.1', 'atOnce'],
		['3.0.0', 'atOnce'],
		['2.34.0-rc.1', 'atOnce'],
		['02.8.4', 'afterExecutionCreated'],
	])('acknowledgeMode(auto, %s) → %s', (version, mode) => {
		expect(acknowledgeMode('auto', version)).toBe(mode);
	});

	it.each([[undefined], [''], ['next'], ['2'], ['2.x.1'], ['v2.8.4'], ['n8n 2.8.4']])(
		'acknowledgeMode(auto, %p: no version read) → atOnce, as on every current n8n',
		(version) => {
			expect(acknowledgeMode('auto', version)).toBe('atOnce');
		},
	);

	it.each([['2.0.0'], ['2.8.4'], ['2.33.9'], ['2.41.1'], ['1.123.81'], [undefined]])(
		'acknowledgeMode(auto, %p, a store that delivers stranded events again: Redis) → atOnce',
		(version) => {
			expect(acknowledgeMode('auto', version, true)).toBe('atOnce');
		},
	);

	it('acknowledgeMode(atOnce | afterExecutionCreated, any version) → the option as chosen', () => {
		expect(acknowledgeMode('atOnce', '2.8.4')).toBe('atOnce');
		expect(acknowledgeMode('afterExecutionCreated', '2.41.1')).toBe('afterExecutionCreated');
		expect(acknowledgeMode('afterExecutionCreated', undefined)).toBe('afterExecutionCreated');
		expect(acknowledgeMode('afterExecutionCreated', '2.8.4', true)).toBe('afterExecutionCreated');
	});
});
