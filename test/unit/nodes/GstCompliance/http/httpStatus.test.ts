/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: imports the package through the @/ alias (jest.config.js), never inside n8n */
/** The one status classifier: every class at its edges, and which classes are worth retrying. */
import { classifyStatus } from '@/nodes/GstCompliance/http/httpStatus';

describe('classifyStatus', () => {
	it.each([
		[199, 'otherClientError'],
		[200, 'success'],
		[204, 'success'],
		[299, 'success'],
		[300, 'otherClientError'],
		[302, 'otherClientError'],
		[400, 'badRequest'],
		[401, 'unauthorized'],
		[403, 'forbidden'],
		[404, 'notFound'],
		[405, 'otherClientError'],
		[409, 'otherClientError'],
		[410, 'otherClientError'],
		[422, 'otherClientError'],
		[429, 'rateLimited'],
		[499, 'otherClientError'],
		[500, 'serverError'],
		[503, 'serverError'],
		[599, 'serverError'],
	])('%i is %s', (status, kind) => {
		expect(classifyStatus(status)).toBe(kind);
	});
});
