/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** Text that may be JSON, read without a try/catch at each reader. */
import { isJsonObject, jsonObject, parseJsonOr } from '@/nodes/GstCompliance/text/json';

describe('parseJsonOr: what the text parses to, else the fallback', () => {
	it.each([
		['{"a":1}', { a: 1 }],
		['[1,2]', [1, 2]],
		['"text"', 'text'],
		['null', null],
	])('%s → its value', (text, value) => {
		expect(parseJsonOr(text, 'fallback')).toEqual(value);
	});

	it.each(['', 'not json', '{"a":', '<html>'])('%j → the fallback', (text) => {
		expect(parseJsonOr(text, text)).toBe(text);
		expect(parseJsonOr(text, undefined)).toBeUndefined();
	});
});

describe('jsonObject: the fields of a JSON object, nothing else', () => {
	it('an object → its fields', () => {
		expect(jsonObject('{"id":"evt_1","data":{}}')).toEqual({ id: 'evt_1', data: {} });
	});

	it.each(['[{"id":1}]', 'null', '"{}"', '42', 'not json', ''])('%j → undefined', (text) => {
		expect(jsonObject(text)).toBeUndefined();
	});
});

describe('isJsonObject: fields to read, nothing else', () => {
	it.each([{}, { id: 'evt_1' }, Object.create(null)])('%j → true', (value) => {
		expect(isJsonObject(value)).toBe(true);
	});

	it.each([null, undefined, [], [{ id: 1 }], '{}', 42, true])('%j → false', (value) => {
		expect(isJsonObject(value)).toBe(false);
	});
});
