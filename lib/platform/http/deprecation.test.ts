import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '@/lib/platform/errors';
import { HEADER_COMPONENTS, toOpenApi } from '@/lib/platform/openapi';
import { IdParams, operation } from '@/lib/platform/contract';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { deprecationHeaders } from './deprecation';
import { ok, route } from '@/lib/platform/next';

// A deprecated operation as a module would declare it (docs/api-versioning.md), served by the one route wrapper.
const oldThing = operation({
  method: 'get',
  path: '/v1/old-things/{id}',
  summary: 'Get an old thing',
  tag: 'Contacts',
  scope: 'contacts:read',
  params: IdParams,
  responses: { 200: { description: 'The thing.', schema: z.object({ id: z.string() }) } },
  errors: [[409, 'thing_gone']],
  deprecated: { since: '2027-01-04T00:00:00+01:00', sunset: '2027-07-05T00:00:00+02:00', replacement: 'GET /v1/things/{id}', link: 'https://paraphe.example/docs/api-changelog' },
});
const handler = route(oldThing, async ({ params }) => {
  if (params.id.startsWith('0')) throw new ApiError(409, 'thing_gone', 'Gone.');
  return ok({ id: params.id });
});

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
});

it('formats the notice: Deprecation as @ and Unix seconds, Sunset as an HTTP-date, the Link to the notice', () => {
  expect(deprecationHeaders(oldThing.deprecated)).toEqual({
    Deprecation: '@1799017200',
    Sunset: 'Sun, 04 Jul 2027 22:00:00 GMT',
    Link: '<https://paraphe.example/docs/api-changelog>; rel="deprecation"; type="text/html"',
  });
  expect(deprecationHeaders({ since: '2027-01-04T00:00:00+01:00' })).toEqual({ Deprecation: '@1799017200' });
  expect(deprecationHeaders(undefined)).toEqual({});
  expect(() => deprecationHeaders({ since: '2027-01-04' })).toThrow(/offset/);
});

it('sends the notice on every answer of a deprecated operation, errors included, beside the quota headers', async () => {
  const token = await org.key();
  const id = crypto.randomUUID().replace(/^./, 'a');
  const answers = [
    await call(handler, 'GET', `/v1/old-things/${id}`, { token, params: { id } }),
    await call(handler, 'GET', `/v1/old-things/0${id.slice(1)}`, { token, params: { id: `0${id.slice(1)}` } }),
    await call(handler, 'GET', '/v1/old-things/nope', { token, params: { id: 'nope' } }),
    await call(handler, 'GET', `/v1/old-things/${id}`, { params: { id } }),
  ];
  expect(answers.map((res) => res.status)).toEqual([200, 409, 404, 401]);
  for (const res of answers) {
    expect(res.headers.get('deprecation')).toBe('@1799017200');
    expect(res.headers.get('sunset')).toBe('Sun, 04 Jul 2027 22:00:00 GMT');
    expect(res.headers.get('link')).toContain('rel="deprecation"');
  }
  expect(answers[0]!.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
  const plain = route({ ...oldThing, deprecated: undefined }, async () => ok({ id: 'x' }));
  const current = await call(plain, 'GET', `/v1/old-things/${id}`, { token, params: { id } });
  expect([current.status, current.headers.get('deprecation'), current.headers.get('sunset')]).toEqual([200, null, null]);
});

it('marks the operation deprecated in the document, says since when, until when and what instead, and lists the headers on its responses', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the operation object is inspected as JSON
  const documented = toOpenApi(oldThing) as any;
  expect(documented.deprecated).toBe(true);
  expect(documented.description).toContain('**Deprecated** since 2027-01-04T00:00:00+01:00; it stops being served on 2027-07-05T00:00:00+02:00. Use GET /v1/things/{id} instead.');
  for (const status of ['200', '404', '409', '401']) {
    expect(documented.responses[status].headers.Deprecation, status).toEqual({ $ref: '#/components/headers/Deprecation' });
    expect(documented.responses[status].headers.Sunset, status).toEqual({ $ref: '#/components/headers/Sunset' });
  }
  expect(HEADER_COMPONENTS.Deprecation.schema).toMatchObject({ pattern: '^@\\d+$' });
  // biome-ignore lint/suspicious/noExplicitAny: idem
  const current = toOpenApi({ ...oldThing, deprecated: undefined }) as any;
  expect([current.deprecated, current.responses['200'].headers.Deprecation]).toEqual([undefined, undefined]);
});
