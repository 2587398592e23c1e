import { expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { apiOperations, declaredErrors, operationServing } from '@/lib/platform/openapi';
import { checkDeclaredError } from './error-codes';
import { call } from './http';

const url = (path: string) => new URL(path, 'http://localhost:3000');

it('finds the operation serving a concrete path, a literal segment before an id', () => {
  const ops = apiOperations();
  expect(operationServing(ops, 'GET', '/v1/contacts/duplicates')?.path).toBe('/v1/contacts/duplicates');
  expect(operationServing(ops, 'GET', `/v1/contacts/${crypto.randomUUID()}`)?.path).toBe('/v1/contacts/{id}');
  expect(operationServing(ops, 'POST', `/v1/invoices/${crypto.randomUUID()}/finalize`)?.path).toBe('/v1/invoices/{id}/finalize');
  expect(operationServing(ops, 'PUT', '/v1/contacts')).toBeUndefined();
});

it('lets a declared code through and fails on one the operation does not declare for that status', () => {
  expect(() => checkDeclaredError('POST', url('/v1/products'), 422, { code: 'validation_error' })).not.toThrow();
  expect(() => checkDeclaredError('DELETE', url(`/v1/products/${crypto.randomUUID()}`), 404, { code: 'not_found' })).not.toThrow();
  expect(() => checkDeclaredError('POST', url('/v1/products'), 409, { code: 'made_up_conflict' })).toThrow(
    "POST /v1/products answered 409 made_up_conflict, which the operation does not declare: add [409, 'made_up_conflict'] to its errors",
  );
  // A declared code under another status is not declared.
  expect(() => checkDeclaredError('POST', url('/v1/products'), 400, { code: 'validation_error' })).toThrow(/\[400, 'validation_error'\]/);
  // Successes, bodies without a code, and paths no operation serves are not its business.
  expect(() => checkDeclaredError('POST', url('/v1/products'), 201, { code: 'x' })).not.toThrow();
  expect(() => checkDeclaredError('POST', url('/v1/nothing-here'), 409, { code: 'x' })).not.toThrow();
});

it('declares each error status’s codes as an enum on `code`, the same list its description names', async () => {
  const doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  for (const op of apiOperations()) {
    for (const [status, codes] of declaredErrors(op)) {
      const response = doc.paths[op.path][op.method].responses[status];
      const schema = response.content['application/json'].schema;
      const extra = codes.flatMap((code) => Object.keys(op.errorFields?.[code] ?? {}));
      if (extra.length === 0) {
        expect(schema.allOf[0], `${op.method} ${op.path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        expect(schema.allOf[1].properties.code.enum, `${op.method} ${op.path} ${status}`).toEqual(codes);
      } else {
        // A code with fields of its own (errorFields): the Error schema's fields, the narrowed code, and those fields.
        expect(schema.properties.code.enum, `${op.method} ${op.path} ${status}`).toEqual(codes);
        expect(Object.keys(schema.properties), `${op.method} ${op.path} ${status}`).toEqual(expect.arrayContaining(['message', 'field', ...extra]));
        expect(schema.required ?? [], `${op.method} ${op.path} ${status}`).not.toEqual(expect.arrayContaining(extra));
      }
      expect(response.description).toBe(`Error: ${codes.join(', ')}.`);
    }
  }
  const finalize = doc.paths['/v1/invoices/{id}/finalize'].post.responses['409'].content['application/json'].schema;
  expect(finalize.allOf[1].properties.code.enum).toEqual(expect.arrayContaining(['already_finalized', 'idempotency_in_progress']));
});
