import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { call } from '@/lib/testing/http';
import { operations } from './document';

it('serves a valid OpenAPI 3.1 document listing every operation, with no authentication', async () => {
  const res = await call(GET, 'GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  const validator = new Validator();
  const result = await validator.validate(res.body);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');

  for (const op of operations) {
    const documented = res.body.paths[op.path]?.[op.method];
    expect(documented, `${op.method} ${op.path}`).toBeDefined();
    expect(documented.description).toContain(op.scope);
    expect(documented.responses['401']).toBeDefined();
  }
  const ids = operations.map((op) => `${op.method} ${op.path}`);
  expect(new Set(ids).size).toBe(ids.length);
});
