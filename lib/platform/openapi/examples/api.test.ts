import '@/lib/composition/modules';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { apiOperations } from '../document';
import { declaredErrors } from '../errors';
import { stableDocument } from '../generated';
import { operationId } from '../names';
import { apiExamples, normaliseExample, SCHEMA_MISMATCHES, WITHOUT_EXAMPLES } from './api';

/*
 * The committed API examples (api.json, recorded from the API tests by `npm run openapi:record-examples`,
 * docs/api-examples.md) cover every operation and still validate against the document's schemas. Cheap: no test
 * is run again here, the examples are read and checked.
 */
const examples = apiExamples();
const operations = apiOperations();
const byId = new Map(operations.map((op) => [operationId(op), op]));
const isSuccess = (status: string) => Number(status) < 400;

describe('the API examples', () => {
  it('cover every operation with a success example (but the few listed in WITHOUT_EXAMPLES, with why)', () => {
    const missing = operations
      .map(operationId)
      .filter((id) => !(id in WITHOUT_EXAMPLES) && !Object.keys(examples[id]?.responses ?? {}).some(isSuccess));
    expect(missing, 'call the operation in a test through lib/testing/http.ts, then npm run openapi:record-examples -- <test file>').toEqual([]);
    const recorded = Object.keys(WITHOUT_EXAMPLES).filter((id) => !byId.has(id) || Object.keys(examples[id]?.responses ?? {}).some(isSuccess));
    expect(recorded, 'WITHOUT_EXAMPLES names only operations that exist and have no success example: remove these').toEqual([]);
  });

  it('are of operations, statuses and codes the document declares', () => {
    const undeclared: string[] = [];
    for (const [id, ex] of Object.entries(examples)) {
      const op = byId.get(id);
      if (!op) {
        undeclared.push(`${id}: no such operation`);
        continue;
      }
      for (const [status, value] of Object.entries(ex.responses)) {
        if (isSuccess(status)) {
          if (!op.responses[Number(status)]) undeclared.push(`${id} ${status}`);
          continue;
        }
        for (const code of Object.keys(value as object)) if (!declaredErrors(op).get(Number(status))?.includes(code)) undeclared.push(`${id} ${status} ${code}`);
      }
    }
    expect(undeclared, 'record the examples again: npm run openapi:record-examples').toEqual([]);
  });

  it('are in the document, each one valid against its schema', () => {
    const document = stableDocument() as unknown as { paths: Record<string, Record<string, OpenApiOperation>>; components: unknown };
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    const invalid: string[] = [];
    let shown = 0;
    const check = (where: string, content: Record<string, MediaType> | undefined) => {
      for (const media of Object.values(content ?? {})) {
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          shown++;
          const validate = ajv.compile({ ...media.schema, components: document.components });
          const known = `${where} ${name}` in SCHEMA_MISMATCHES;
          if (validate(example.value) === known) invalid.push(`${where} ${name}: ${known ? 'fits now: remove it from SCHEMA_MISMATCHES' : ajv.errorsText(validate.errors)}`);
        }
      }
    };
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        check(`${op.operationId} request`, op.requestBody?.content);
        for (const [status, response] of Object.entries(op.responses)) check(`${op.operationId} ${status}`, response.content);
      }
    }
    expect(invalid, 'an example no longer fits its schema: npm run openapi:record-examples').toEqual([]);
    // Every recorded body is shown: the request, each JSON success body, one per error code.
    const recorded = Object.values(examples).reduce(
      (n, ex) =>
        n +
        (ex.request != null ? 1 : 0) +
        Object.entries(ex.responses).reduce((m, [status, v]) => m + (isSuccess(status) ? (v != null ? 1 : 0) : Object.keys(v as object).length), 0),
      0,
    );
    expect(shown).toBe(recorded);
  });
});

it('normalises ids, dates and secrets to stable placeholders, the ids alike on both sides', () => {
  const id = '3f2b8c1e-9d4a-4c6b-8e2f-1a2b3c4d5e6f';
  const [request, response] = normaliseExample(
    [
      { contact_id: id },
      {
        id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
        contact_id: id,
        url: `http://localhost:3000/v1/contacts/${id}`,
        issue_date: '2026-11-26',
        due_date: '2026-12-26',
        created_at: '2026-11-26T14:03:11.123Z',
        key: 'paraphe_pk_live_Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF',
        siret: '55203253400646',
        label: 'Prestation de conseil',
      },
    ],
    '2026-11-26',
  );
  expect(request).toEqual({ contact_id: '00000000-0000-4000-8000-000000000001' });
  expect(response).toEqual({
    id: '00000000-0000-4000-8000-000000000002',
    contact_id: '00000000-0000-4000-8000-000000000001',
    url: 'http://localhost:3000/v1/contacts/00000000-0000-4000-8000-000000000001',
    issue_date: '2026-01-15',
    due_date: '2026-02-14',
    created_at: '2026-01-15T09:30:00.000Z',
    key: 'paraphe_pk_live_0123456789abcdef0123456789abcdef',
    siret: '55203253400646',
    label: 'Prestation de conseil',
  });
});

interface MediaType {
  schema: object;
  examples?: Record<string, { value: unknown }>;
}
interface OpenApiOperation {
  operationId: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
