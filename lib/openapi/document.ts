import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { installedModules } from '@/lib/manifest';
import type { Operation } from './operation';
import { ErrorBody } from './schemas';
import { webhookEntries } from './webhooks';

/** Every operation the API serves: those of the installed modules (lib/modules.ts). */
export function apiOperations(): Operation[] {
  return installedModules().flatMap((m) => m.operations ?? []) as Operation[];
}

/**
 * What every call can answer: a secret in the query string, no or a bad key, a missing scope (no_active_org: a staff
 * session without an org), the quota (or too many bad keys from the address), a failure.
 */
const STANDARD_ERRORS: Array<[number, string]> = [
  [400, 'credentials_in_query'],
  [401, 'unauthorized'],
  [403, 'forbidden'],
  [403, 'no_active_org'],
  [429, 'rate_limited'],
  [500, 'internal_error'],
];

function toOpenApi(op: Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject['responses'] = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status as '200'] = {
      description: r.description,
      ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}),
    };
  }
  const errors: Array<[number, string]> = [...STANDARD_ERRORS, ...(op.errors ?? [])];
  if (op.params) errors.push([404, 'not_found']);
  if (op.query || op.body) errors.push([422, 'validation_error']);
  if (op.body) errors.push([400, 'invalid_json'], [413, 'payload_too_large']);
  // Writes: a body is JSON or nothing; the back-office's session cookie is honoured from its own origin only.
  if (op.method !== 'get') errors.push([415, 'unsupported_media_type'], [403, 'cross_origin_request']);
  // Idempotency-Key on POST: a replay while the first runs, or the key reused for another request.
  if (op.method === 'post') errors.push([409, 'idempotency_in_progress'], [422, 'idempotency_key_reused']);
  const byStatus = new Map<number, string[]>();
  for (const [status, code] of errors) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const [status, codes] of byStatus) {
    responses[String(status) as '400'] = {
      description: `Error: ${[...new Set(codes)].join(', ')}.`,
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return {
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: op.summary,
    description: `${op.description ? `${op.description}\n\n` : ''}Scope: \`${op.scope}\`.`,
    tags: [op.tag],
    // OpenAPI 3.1 lets a non-OAuth requirement list the roles it needs: the scope of the call.
    security: [{ apiKey: [op.scope] }],
    'x-scope': op.scope,
    ...(op.params || op.query ? { requestParams: { ...(op.params ? { path: op.params } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    // A body every field of which is optional may be omitted altogether (send, manual reminder).
    ...(op.body && op.method !== 'get'
      ? { requestBody: { required: !op.body.safeParse(undefined).success, content: { 'application/json': { schema: op.body } } } }
      : {}),
    ...(op.method === 'post' ? { parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Replays the first response for 24 h.' }] } : {}),
    responses,
  } as ZodOpenApiOperationObject;
}

export function buildOpenApiDocument(baseUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of apiOperations()) {
    paths[op.path] = { ...paths[op.path], [op.method]: toOpenApi(op) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Paraphe API',
      version: '1.0.0',
      description:
        'Contacts, quotes and invoices that are legally sound in France, payments, reminders, e-invoicing and electronic signature. ' +
        'Authenticate with `Authorization: Bearer paraphe_pk_live_…`. Errors are `{code, message, field}`. Lists are cursor-paginated: ' +
        '`{data, meta: {next_cursor}}`. POST accepts `Idempotency-Key`.',
    },
    servers: [{ url: baseUrl }],
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'paraphe_pk_<env>_<32 base62>' } } },
    paths,
    webhooks: webhookEntries(),
  });
}
