/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/**
 * How a message becomes n8n's error title and description: at the first sentence end a capital
 * letter follows, outside parentheses and quotes. (That every message splits into what happened
 * and what to do: messages.test.ts.)
 */
import { messageParts } from '@/nodes/GstCompliance/errors/messageParts';

describe('messageParts: the title is what happened, the remedy what to do', () => {
	it.each<[string, string, { title: string; remedy?: string }]>([
		[
			'two sentences',
			'The token endpoint rejected the client. Check Client ID.',
			{ title: 'The token endpoint rejected the client.', remedy: 'Check Client ID.' },
		],
		[
			'three sentences',
			'It failed. Try again. Ask support.',
			{ title: 'It failed.', remedy: 'Try again. Ask support.' },
		],
		[
			'a host with dots',
			'Could not reach auth.example.com: refused. Check the URL.',
			{ title: 'Could not reach auth.example.com: refused.', remedy: 'Check the URL.' },
		],
		[
			'a sentence end inside parentheses',
			'Not found (a sandbox ID. Not in Production). Check the ID.',
			{ title: 'Not found (a sandbox ID. Not in Production).', remedy: 'Check the ID.' },
		],
		[
			'a sentence end inside quotes',
			'It answered (body: "no. Token") and "x. Y". Check the realm.',
			{ title: 'It answered (body: "no. Token") and "x. Y".', remedy: 'Check the realm.' },
		],
		[
			'a full stop before a lower-case word',
			'Use e.g. the Test button. Then save.',
			{ title: 'Use e.g. the Test button.', remedy: 'Then save.' },
		],
		['one sentence', 'It failed.', { title: 'It failed.' }],
		['no full stop', 'It failed', { title: 'It failed' }],
		['a full stop at the end only', 'It failed: x.y.', { title: 'It failed: x.y.' }],
	])('messageParts(%s) → split there', (_case, message, parts) => {
		expect(messageParts(message)).toEqual(parts);
	});

	it('messageParts(an unclosed parenthesis) → the whole message as the title', () => {
		expect(messageParts('It failed (see. The log. Check it.')).toEqual({
			title: 'It failed (see. The log. Check it.',
		});
	});

	it('messageParts(a closing parenthesis without its opening) → later sentence ends still split', () => {
		expect(messageParts('It failed) here. Check it.')).toEqual({
			title: 'It failed) here.',
			remedy: 'Check it.',
		});
	});
});
