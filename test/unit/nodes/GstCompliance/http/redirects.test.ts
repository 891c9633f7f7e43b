/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
import type { Hop } from '@/nodes/GstCompliance/http/redirects';
import {
	followRedirects,
	MAX_REDIRECTS,
	nextHop,
	requestUrl,
} from '@/nodes/GstCompliance/http/redirects';

const API = 'https://api.example.com';
const get = (url = `${API}/v1/einvoices/einv_1`, authenticated = true): Hop => ({
	url,
	method: 'GET',
	authenticated,
});
const post: Hop = { url: `${API}/v1/x`, method: 'POST', body: { a: 1 }, authenticated: true };

describe('nextHop: only a redirect status with an http(s) Location is followed', () => {
	it.each([200, 204, 300, 304, 305, 306, 400, 401, 404, 500])(
		'HTTP %i → not followed',
		(status) => {
			expect(nextHop(status, `${API}/elsewhere`, get(), API)).toBeUndefined();
		},
	);

	it.each([undefined, null, '', '   ', 42, ['']])('Location %p → not followed', (location) => {
		expect(nextHop(302, location, get(), API)).toBeUndefined();
	});

	it.each(['http://[::1', 'ftp://api.example.com/x', 'javascript:alert(1)', 'data:,x'])(
		'Location %s (unparsable, or not http/https) → not followed',
		(location) => {
			expect(nextHop(302, location, get(), API)).toBeUndefined();
		},
	);

	it('a relative Location resolves against the current URL; a header given as a list uses its first value', () => {
		expect(nextHop(302, '/v1/einvoices/einv_2?x=1', get(), API)?.url).toBe(
			`${API}/v1/einvoices/einv_2?x=1`,
		);
		expect(nextHop(302, ['einv_3', 'ignored'], get(), API)?.url).toBe(`${API}/v1/einvoices/einv_3`);
	});
});

describe('nextHop: the token stays on the API origin', () => {
	it('a hop on the API origin carries it', () => {
		expect(nextHop(307, `${API}/v2/x`, get(), API)?.authenticated).toBe(true);
	});

	it.each([
		'https://elsewhere.example.com/v1/x',
		'http://api.example.com/v1/x',
		'https://api.example.com:8443/v1/x',
	])('a hop to %s (another origin) does not', (location) => {
		expect(nextHop(302, location, get(), API)?.authenticated).toBe(false);
	});

	it('a hop back to the API origin after leaving it does not either', () => {
		const away = get('https://elsewhere.example.com/v1/x', false);
		expect(nextHop(302, `${API}/v1/x`, away, API)).toMatchObject({
			url: `${API}/v1/x`,
			authenticated: false,
		});
	});
});

describe('nextHop: the method and body, as browsers and n8n follow', () => {
	it.each([301, 302, 303])('HTTP %i after a POST → GET without a body', (status) => {
		expect(nextHop(status, '/v1/y', post, API)).toMatchObject({ method: 'GET', body: undefined });
	});

	it.each([307, 308])('HTTP %i after a POST → the same POST with its body', (status) => {
		expect(nextHop(status, '/v1/y', post, API)).toMatchObject({ method: 'POST', body: { a: 1 } });
	});

	it('HTTP 303 after a PUT → GET; HTTP 301 after a PUT → the same PUT; HEAD stays HEAD', () => {
		const put: Hop = { ...post, method: 'PUT' };
		expect(nextHop(303, '/y', put, API)).toMatchObject({ method: 'GET', body: undefined });
		expect(nextHop(301, '/y', put, API)).toMatchObject({ method: 'PUT', body: { a: 1 } });
		expect(nextHop(303, '/y', { ...get(), method: 'HEAD' }, API)?.method).toBe('HEAD');
	});
});

describe('followRedirects: the request and the redirects it leads to', () => {
	/** A server answering each hop from a list; records what was sent and how many were followed. */
	function server(answers: Array<{ statusCode: number; headers?: { location?: unknown } }>) {
		const sent: Array<[Hop, number]> = [];
		const send = async (hop: Hop, followed: number) => {
			sent.push([hop, followed]);
			return answers[Math.min(sent.length - 1, answers.length - 1)];
		};
		return { sent, send };
	}

	it('an answer that is not a redirect → that answer, from the first hop, nothing more sent', async () => {
		const { sent, send } = server([{ statusCode: 200 }]);
		const result = await followRedirects(get(), API, send);
		expect(result).toEqual({ hop: get(), answer: { statusCode: 200 }, redirectedTooOften: false });
		expect(sent).toEqual([[get(), 0]]);
	});

	it('two redirects → the third hop answers; each hop told how many were followed before it', async () => {
		const { sent, send } = server([
			{ statusCode: 302, headers: { location: '/v1/a' } },
			{ statusCode: 307, headers: { location: 'https://files.example.net/b' } },
			{ statusCode: 200 },
		]);
		const result = await followRedirects(get(), API, send);
		expect(sent.map(([hop, followed]) => [hop.url, hop.authenticated, followed])).toEqual([
			[`${API}/v1/einvoices/einv_1`, true, 0],
			[`${API}/v1/a`, true, 1],
			['https://files.example.net/b', false, 2],
		]);
		expect(result.hop.url).toBe('https://files.example.net/b');
		expect(result.answer).toEqual({ statusCode: 200 });
		expect(result.redirectedTooOften).toBe(false);
	});

	it(`${MAX_REDIRECTS} redirects are followed; one more → the last redirect, said as too many`, async () => {
		const loop = { statusCode: 302, headers: { location: '/v1/again' } };
		const exactly = server([...Array(MAX_REDIRECTS).fill(loop), { statusCode: 200 }]);
		expect((await followRedirects(get(), API, exactly.send)).redirectedTooOften).toBe(false);
		expect(exactly.sent).toHaveLength(MAX_REDIRECTS + 1);

		const endless = server([loop]);
		const result = await followRedirects(get(), API, endless.send);
		expect(result.redirectedTooOften).toBe(true);
		expect(result.answer).toBe(loop);
		expect(endless.sent).toHaveLength(MAX_REDIRECTS + 1);
		expect(endless.sent.at(-1)?.[1]).toBe(MAX_REDIRECTS);
	});

	it('a failing send → the rejection, as it is', async () => {
		const error = new Error('refused');
		await expect(followRedirects(get(), API, async () => await Promise.reject(error))).rejects.toBe(
			error,
		);
	});
});

describe('requestUrl: the URL axios sends to, for resolving a relative Location', () => {
	it('joins the path to the API URL, keeping its own path, with or without a trailing slash', () => {
		expect(requestUrl('https://h.example/gst', '/v1/a')).toBe('https://h.example/gst/v1/a');
		expect(requestUrl('https://h.example/gst/', 'v1/a')).toBe('https://h.example/gst/v1/a');
		expect(requestUrl('https://h.example/gst//', '//v1/a')).toBe('https://h.example/gst/v1/a');
	});

	it('adds the query, leaving out undefined and null values', () => {
		expect(requestUrl(API, '/v1/a', { view: 'full', n: 2, no: undefined, none: null })).toBe(
			`${API}/v1/a?view=full&n=2`,
		);
	});
});
