import openapiDiff from 'openapi-diff';

/**
 * The breaking-change check of docs/api-versioning.md: openapi-diff between the committed snapshot
 * (lib/platform/openapi/snapshot.json) and the document the code generates. Used by lib/platform/openapi/versioning.test.ts and by
 * `npm run openapi:snapshot`, never by the app (openapi-diff is a dev dependency).
 *
 * openapi-diff reads OpenAPI 3.0 only (its parser refuses 3.1), so both documents are first given the 3.0 spelling of
 * what they say — `type: [x, 'null']` as `nullable`, `const` as a one-value enum, numeric exclusive bounds as boolean
 * ones — and the 3.1-only parts it cannot read (the `webhooks` section, JSON Schema keywords 3.0 lacks) are left out.
 * Webhook bodies are checked apart (lib/platform/openapi/webhooks.test.ts: every emitted token's real example parses strictly).
 */

type Json = Record<string, unknown>;

/** The Schema Object keywords of OpenAPI 3.0; anything else is dropped from the diff view. */
const SCHEMA_KEYWORDS = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'example',
  'deprecated',
  '$ref',
]);

function schema30(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const s = input as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(s)) {
    if (!SCHEMA_KEYWORDS.has(key) && !key.startsWith('x-')) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, schema30(v)]));
    else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) out[key] = schema30(value);
    else if (key === 'allOf' || key === 'oneOf' || key === 'anyOf') out[key] = (value as unknown[]).map(schema30);
    else out[key] = value;
  }
  if ('const' in s) out.enum = [s.const];
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    if (types.length < s.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      out.anyOf = types.map((type) => ({ type }));
    }
  } else if (s.type === 'null') {
    delete out.type;
    out.nullable = true;
    out.enum = [null];
  }
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof s[exclusive] === 'number') {
      out[bound] = s[exclusive];
      out[exclusive] = true;
    }
  }
  return out;
}

/** Every `schema` of the document (parameters, headers, bodies) and every component schema, in their 3.0 spelling. */
function walk(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(walk);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, k === 'schema' ? schema30(v) : walk(v)]));
}

/** The document as openapi-diff can read it: OpenAPI 3.0.3, paths and components only. */
export function diffView(document: unknown): Json {
  const { webhooks: _webhooks, jsonSchemaDialect: _dialect, components = {}, ...rest } = document as Json;
  const { schemas = {}, ...otherComponents } = components as Json;
  // 3.0 has no license identifier; a copy, not the document's own license object (it is written as the snapshot after).
  const info = { ...(rest.info as Json) };
  if (info.license) {
    const { identifier: _identifier, ...license } = info.license as Json;
    info.license = license;
  }
  return {
    ...(walk(rest) as Json),
    openapi: '3.0.3',
    info,
    components: {
      ...(walk(otherComponents) as Json),
      schemas: Object.fromEntries(Object.entries(schemas as Json).map(([name, s]) => [name, schema30(s)])),
    },
  };
}

export interface BreakingChange {
  code: string;
  /** Where, in the older document: `paths./v1/contacts.get`, `paths./v1/invoices.post.requestBody…`. */
  location: string;
  /** What docs/api-changelog.md must contain to acknowledge it. */
  mention: string;
}

export interface DocumentDiff {
  breaking: BreakingChange[];
  /** Any difference at all (additive or not): the snapshot is out of date. */
  changed: boolean;
}

/** The component schemas `node` refers to, transitively. */
function referenced(node: unknown, schemas: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) referenced(n, schemas, found);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!found.has(name)) {
          found.add(name);
          referenced(schemas[name], schemas, found);
        }
      } else referenced(v, schemas, found);
    }
  }
  return found;
}

/** Each path with what it means: its item and every schema it reaches, so that a change in a shared schema counts. */
function pathMeanings(document: Json): Map<string, string> {
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  return new Map(
    Object.entries((document.paths ?? {}) as Json).map(([path, item]) => [
      path,
      JSON.stringify([item, [...referenced(item, schemas)].sort().map((name) => [name, schemas[name]])]),
    ]),
  );
}

/** `document` with only `paths` and the component schemas they reach. */
function only(document: Json, paths: ReadonlySet<string>): Json {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  const kept = Object.fromEntries(Object.entries((document.paths ?? {}) as Json).filter(([path]) => paths.has(path)));
  const reached = referenced(kept, schemas);
  return { ...document, paths: kept, components: { ...components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))) } };
}

/**
 * openapi-diff from `before` (the snapshot) to `after` (the generated document). openapi-diff takes minutes over the
 * whole document (it compares JSON Schemas as sets), so it is given only the paths whose meaning changed.
 */
export async function diffDocuments(before: unknown, after: unknown): Promise<DocumentDiff> {
  if (JSON.stringify(before) === JSON.stringify(after)) return { breaking: [], changed: false };
  const [a, b] = [pathMeanings(before as Json), pathMeanings(after as Json)];
  const changedPaths = new Set([...a.keys(), ...b.keys()].filter((path) => a.get(path) !== b.get(path)));
  const spec = (doc: unknown, location: string) => ({ content: JSON.stringify(diffView(only(doc as Json, changedPaths))), location, format: 'openapi3' as const });
  const result = await openapiDiff.diffSpecs({ sourceSpec: spec(before, 'snapshot'), destinationSpec: spec(after, 'generated') });
  const breaking = result.breakingDifferencesFound
    ? result.breakingDifferences.map((d) => {
        const location = (d.sourceSpecEntityDetails[0] ?? d.destinationSpecEntityDetails[0])?.location ?? '';
        return { code: d.code, location, mention: `\`${d.code}\` \`${location}\`` };
      })
    : [];
  return { breaking, changed: true };
}

/** The breaking changes docs/api-changelog.md does not name (each must appear as its `mention`). */
export const unannounced = (diff: DocumentDiff, changelog: string) => diff.breaking.filter((b) => !changelog.includes(b.mention));
