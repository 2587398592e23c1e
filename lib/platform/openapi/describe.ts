/*
 * Where the OpenAPI document leaves a field undescribed: every property of every schema (components, request and
 * response bodies, webhook payloads) and every parameter. lib/platform/openapi/descriptions.test.ts fails on any. Tests only.
 */

type Schema = {
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Media = { schema?: Schema };
type OperationObject = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; description?: string; $ref?: string }>;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};
type OpenApiDocument = {
  components?: { schemas?: Record<string, Schema> };
  paths?: Record<string, Record<string, OperationObject>>;
  webhooks?: Record<string, Record<string, OperationObject>>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Each undescribed property (`Invoice.items[].vat_rate`, `createInvoice request.items[].unit`) and parameter. */
export function undescribed(document: OpenApiDocument): string[] {
  const components = document.components?.schemas ?? {};
  const target = (ref: string) => components[ref.replace('#/components/schemas/', '')];
  const missing: string[] = [];
  // A property is described by its own description, or by the one of the schema it refers to (alone or made nullable).
  const described = (s: Schema): boolean => {
    if (s.description) return true;
    if (s.$ref) return Boolean(target(s.$ref)?.description);
    const variants = (s.anyOf ?? s.oneOf ?? []).filter((v) => (v as { type?: string }).type !== 'null');
    return variants.length > 0 && variants.every(described);
  };
  const walk = (s: Schema | boolean | undefined, where: string): void => {
    if (!s || typeof s === 'boolean' || s.$ref) return;
    for (const [name, p] of Object.entries(s.properties ?? {})) {
      if (!described(p)) missing.push(`${where}.${name}`);
      walk(p, `${where}.${name}`);
    }
    for (const item of [s.items ?? [], s.prefixItems ?? []].flat()) walk(item, `${where}[]`);
    walk(s.additionalProperties, `${where}{}`);
    for (const v of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(v, where);
  };
  for (const [name, schema] of Object.entries(components)) walk(schema, name);
  for (const [kind, items] of [['paths', document.paths], ['webhooks', document.webhooks]] as const) {
    for (const [path, item] of Object.entries(items ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const name = op.operationId ?? `${kind} ${method} ${path}`;
        for (const p of op.parameters ?? []) if (!p.$ref && !p.description) missing.push(`${name} ${p.in} parameter ${p.name}`);
        for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, `${name} request`);
        for (const [status, r] of Object.entries(op.responses ?? {})) for (const media of Object.values(r.content ?? {})) walk(media.schema, `${name} ${status}`);
      }
    }
  }
  return [...new Set(missing)];
}
