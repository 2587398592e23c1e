import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { SCOPES } from '@/lib/platform/auth';
import { installedModules } from '@/lib/platform/manifest';
import { ErrorBody, type Operation } from '@/lib/platform/contract';
import { HEADER_COMPONENTS, requestHeaders, responseHeaders } from './headers';
import { operationId } from './names';
import { declaredErrors } from './errors';
import { apiExamples } from './examples/api';
import { TAG_DESCRIPTIONS } from './tags';
import { webhookEntries } from './webhooks';

/** Every operation the API serves: those of the installed modules (lib/composition/modules.ts). */
export function apiOperations(): Operation[] {
  return installedModules().flatMap((m) => m.operations ?? []) as Operation[];
}

export function toOpenApi(op: Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject['responses'] = {};
  // Recorded from the API tests (lib/platform/openapi/examples/api.json, docs/api-examples.md).
  const examples = apiExamples()[operationId(op)];
  for (const [status, r] of Object.entries(op.responses)) {
    const contentType = r.contentType ?? 'application/json';
    const example = contentType.includes('json') ? examples?.responses[status] : undefined;
    responses[status as '200'] = {
      description: r.description,
      headers: responseHeaders(op, Number(status)),
      ...(r.schema
        ? { content: { [contentType]: { schema: r.schema, ...(example != null ? { examples: { [operationId(op)]: { value: example } } } : {}) } } }
        : {}),
    };
  }
  for (const [status, codes] of declaredErrors(op)) {
    const byCode = (examples?.responses[status] ?? {}) as Record<string, unknown>;
    const errorExamples = Object.fromEntries(codes.filter((code) => code in byCode).map((code) => [code, { summary: code, value: byCode[code] }]));
    responses[String(status) as '400'] = {
      description: `Error: ${codes.join(', ')}.`,
      headers: responseHeaders(op, status),
      content: { 'application/json': { schema: errorBodyOf(codes, op.errorFields), ...(Object.keys(errorExamples).length ? { examples: errorExamples } : {}) } },
    };
  }
  return {
    operationId: operationId(op),
    summary: op.summary,
    description: `${op.description ? `${op.description}\n\n` : ''}${deprecationNotice(op)}Scope: \`${op.scope}\`.`,
    ...(op.deprecated ? { deprecated: true } : {}),
    tags: [op.tag],
    // OpenAPI 3.1 lets a non-OAuth requirement list the roles it needs: the scope of the call.
    security: [{ apiKey: [op.scope] }],
    'x-scope': op.scope,
    ...(op.params || op.query ? { requestParams: { ...(op.params ? { path: op.params } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    // A body every field of which is optional may be omitted altogether (send, manual reminder).
    ...(op.body && op.method !== 'get'
      ? {
          requestBody: {
            required: !op.body.safeParse(undefined).success,
            content: {
              [op.bodyMediaType ?? 'application/json']: {
                schema: op.body,
                ...(examples?.request != null && !op.bodyMediaType?.startsWith('multipart') ? { examples: { [operationId(op)]: { value: examples.request } } } : {}),
              },
            },
          },
        }
      : {}),
    ...(requestHeaders(op).length ? { parameters: requestHeaders(op) } : {}),
    responses,
  } as ZodOpenApiOperationObject;
}

/**
 * The error body with `code` narrowed to the codes a status of the operation can carry (typed in generated clients).
 * When one of those codes carries fields of its own (`errorFields`), the body is the Error schema's fields plus those,
 * optional, each said to come with its code only: the Error schema itself allows no other property.
 */
function errorBodyOf(codes: string[], errorFields: Operation['errorFields'] = {}) {
  const code = z.enum(codes as [string, ...string[]]).meta({ description: 'The codes this status can carry here.' });
  const extra = Object.fromEntries(
    codes.flatMap((c) =>
      Object.entries(errorFields[c] ?? {}).map(([name, schema]) => {
        const description = (schema as z.ZodType).meta()?.description;
        return [name, (schema as z.ZodType).optional().meta({ description: `\`${c}\` only${description ? `: ${description}` : '.'}` })];
      }),
    ),
  );
  if (!Object.keys(extra).length) return z.intersection(ErrorBody, z.looseObject({ code }));
  return ErrorBody.extend({ code, ...extra });
}

/** The reference's words on a deprecated operation: since when, until when, what replaces it (docs/api-versioning.md). */
function deprecationNotice(op: Operation): string {
  const d = op.deprecated;
  if (!d) return '';
  const until = d.sunset ? `; it stops being served on ${d.sunset}` : '';
  const instead = d.replacement ? ` Use ${d.replacement} instead.` : '';
  const link = d.link ? ` See ${d.link}.` : '';
  return `**Deprecated** since ${d.since}${until}.${instead}${link}\n\n`;
}

/** Every scope, what it grants (lib/platform/auth/scopes: a write scope implies its module's read scope). */
function scopeDescriptions(): Record<string, string> {
  return Object.fromEntries(
    SCOPES.map((scope) => {
      const [module, level] = scope.split(':');
      return [scope, level === 'read' ? `Read ${module}.` : `Create, change and delete ${module}; implies ${module}:read.`];
    }),
  );
}

/** The top-level tags: each one in use (operations, then webhooks), in order, described by lib/platform/openapi/tags.ts. */
function tagsInUse(paths: ZodOpenApiPathsObject, webhooks: Record<string, unknown>) {
  const used = new Set<string>();
  for (const item of [...Object.values(paths), ...Object.values(webhooks)]) {
    for (const operation of Object.values(item as Record<string, { tags?: string[] }>)) for (const tag of operation.tags ?? []) used.add(tag);
  }
  return [...used].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
}

/** The header components some response refers to (Deprecation and Sunset only while an operation is deprecated). */
function headersInUse(paths: ZodOpenApiPathsObject) {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => text.includes(`"#/components/headers/${name}"`)));
}

export function buildOpenApiDocument(baseUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of apiOperations()) {
    paths[op.path] = { ...paths[op.path], [op.method]: toOpenApi(op) };
  }
  const webhooks = webhookEntries();
  const scopes = scopeDescriptions();
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Paraphe API',
      version: '1.0.0',
      description:
        'Contacts, quotes and invoices that are legally sound in France, payments, reminders, e-invoicing and electronic signature. ' +
        'Authenticate with `Authorization: Bearer paraphe_pk_live_…`. Errors are `{code, message, field}`. Lists are cursor-paginated: ' +
        '`{data, meta: {next_cursor}}`. Every response carries `X-Request-Id`, and those to an API key the `RateLimit-*` headers.\n\n' +
        'POST accepts `Idempotency-Key`: a retry with the same key and body gets the first response again (`Idempotent-Replayed: true`). ' +
        'PUT, PATCH and DELETE do not take it: they are idempotent by themselves — PUT replaces and PATCH sets the fields given to the values given, ' +
        'so a retry leaves the same state; a retried DELETE changes nothing more (it answers the same, or 404 `not_found` when the thing is gone).',
      contact: { name: 'Paraphe', url: baseUrl },
      // Not an SPDX-listed licence: a LicenseRef- identifier is SPDX's own form for such a one.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Paraphe-Proprietary' },
    },
    servers: [{ url: baseUrl }],
    tags: tagsInUse(paths, webhooks),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key, \`paraphe_pk_<env>_<32 base62>\`, made in Réglages → Clés API or with the CLI. Each operation names the scope it needs. Scopes:\n\n${Object.entries(scopes)
            .map(([scope, grants]) => `- \`${scope}\`: ${grants}`)
            .join('\n')}`,
          'x-scopes': scopes,
        },
      },
      headers: headersInUse(paths),
    },
    paths,
    webhooks,
  });
}
