import '@/lib/composition/modules';
import { describe, expect, it } from 'vitest';
import { DECIMAL_PATTERNS } from '@/lib/platform/money';
import { undescribed } from './describe';
import { stableDocument } from './generated';

/*
 * What an integrator reads beside each field: a description on every property of every schema and on every
 * parameter, and one declared form per decimal (docs/api-reference.md, "Decimals").
 */
type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
type Doc = {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
};
const document = stableDocument() as unknown as Doc;

/** The decimals of the API: quantities, VAT and penalty rates, percentages (spec: "decimal tokens carried as strings"). */
const DECIMAL = /^(quantity|percentage|vat_rate|penalty_rate|[a-z_]+_percentage)$/;

/** Each decimal property reachable from `schema`, with where it is and its schema (refs followed, null variants dropped). */
function decimals(schema: Schema, where: string, seen = new Set<string>()): Array<[string, Schema]> {
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    return decimals(document.components.schemas[schema.$ref.split('/').pop()!]!, where, seen);
  }
  const found: Array<[string, Schema]> = [];
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    if (DECIMAL.test(name)) {
      const variants = p.anyOf?.some((v) => v.type === 'null') ? p.anyOf.filter((v) => v.type !== 'null') : [p];
      for (const v of variants) found.push([`${where}.${name}`, v]);
    }
    found.push(...decimals(p, `${where}.${name}`, seen));
  }
  if (schema.items) found.push(...decimals(schema.items, `${where}[]`, seen));
  for (const v of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...decimals(v, where, seen));
  return found;
}

const isStringForm = (s: Schema) =>
  (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) &&
  [DECIMAL_PATTERNS.quantity, DECIMAL_PATTERNS.rate, DECIMAL_PATTERNS.percentage].includes(s.pattern as never) &&
  Array.isArray(s.examples) &&
  new RegExp(s.pattern as string).test((s.examples as string[])[0]!);
const isInputForm = (s: Schema) =>
  JSON.stringify(s.anyOf) === JSON.stringify([{ type: 'string', pattern: DECIMAL_PATTERNS.input }, { type: 'number' }]) &&
  Array.isArray(s.examples) &&
  typeof s.description === 'string' &&
  s.description.includes('JSON number');

describe('the OpenAPI document, field by field', () => {
  it('describes every property of every schema (components, bodies, webhook payloads) and every parameter', () => {
    expect(undescribed(document as never)).toEqual([]);
  });

  it('declares every decimal one way: answered as a string with a pattern and an example; sent as such a string or a number, said so', () => {
    const requests: Array<[string, Schema]> = [];
    const responses: Array<[string, Schema]> = [];
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) {
        for (const media of Object.values(op.requestBody?.content ?? {})) requests.push(...decimals(media.schema, `${op.operationId} request`));
        for (const [status, r] of Object.entries(op.responses)) for (const media of Object.values(r.content ?? {})) responses.push(...decimals(media.schema, `${op.operationId} ${status}`));
      }
    }
    for (const [type, item] of Object.entries(document.webhooks)) for (const media of Object.values(item.post.requestBody.content)) responses.push(...decimals(media.schema, type));
    // The fields the spec names, in both directions: none may slip out of the walk.
    const names = (list: Array<[string, Schema]>) => new Set(list.map(([where]) => where.split('.').pop()));
    expect([...names(requests)].sort()).toEqual(['deposit_request_percentage', 'penalty_rate', 'percentage', 'quantity', 'vat_rate']);
    expect([...names(responses)].sort()).toEqual(['acompte_percentage', 'deposit_request_percentage', 'penalty_rate', 'percentage', 'quantity', 'vat_rate']);
    expect(requests.filter(([, s]) => !isInputForm(s)).map(([where, s]) => `${where}: ${JSON.stringify(s)}`)).toEqual([]);
    expect(responses.filter(([, s]) => !isStringForm(s)).map(([where, s]) => `${where}: ${JSON.stringify(s)}`)).toEqual([]);
  });
});
