import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { billingOperations } from '@/lib/billing/operations';
import { contactOperations } from '@/lib/contacts/operations';
import { eventOperations } from '@/lib/events/operations';
import { pdfOperations } from '@/lib/pdf/operations';
import { reminderOperations } from '@/lib/reminders/operations';
import type { Operation } from './operation';
import { ErrorBody } from './schemas';

/** Every operation the API serves; a module adds its list here. */
export const operations: Operation[] = [...eventOperations, ...contactOperations, ...billingOperations, ...pdfOperations, ...reminderOperations] as Operation[];

const STANDARD_ERRORS: Array<[number, string, string]> = [
  [401, 'unauthorized', 'Missing or invalid API key.'],
  [403, 'forbidden', 'The key lacks the required scope (or no_active_org for a session without an org).'],
  [429, 'rate_limited', 'Quota of the key spent; see Retry-After.'],
];

function toOpenApi(op: Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject['responses'] = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status as '200'] = {
      description: r.description,
      ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}),
    };
  }
  const errors: Array<[number, string, string?]> = [...STANDARD_ERRORS, ...(op.errors ?? [])];
  if (op.params) errors.push([404, 'not_found', 'Not found, or belongs to another organisation.']);
  if (op.query || op.body) errors.push([422, 'validation_error', 'A field is invalid; `field` names it.']);
  if (op.body) errors.push([400, 'invalid_json', 'The body is not JSON.']);
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
    security: [{ apiKey: [] }],
    ...(op.params || op.query ? { requestParams: { ...(op.params ? { path: op.params } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    ...(op.body && op.method !== 'get' ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    ...(op.method === 'post' ? { parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Replays the first response for 24 h.' }] } : {}),
    responses,
  } as ZodOpenApiOperationObject;
}

export function buildOpenApiDocument(baseUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
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
  });
}
