import { z } from 'zod';
import type { ZodOpenApiPathItemObject } from 'zod-openapi';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType, eventRegistry, NOT_EMITTED_YET } from '@/lib/platform/events';
import committedExamples from './examples/events.json';
import { Timestamp } from '@/lib/platform/contract';

/**
 * The committed example of each emitted token: the exact body a receiver got, written by the catalogue walk
 * (`npm run openapi:examples`, lib/platform/events/catalogue-walk.test.ts) from its real operations. lib/platform/openapi/webhooks.test.ts
 * fails when an emitted token has none or when one no longer parses with its payload schema.
 */
export const COMMITTED_EVENT_EXAMPLES: Readonly<Record<string, unknown>> = committedExamples;

/** A token not emitted yet has no real body: its example is built from FutureObject, with fixed ids and date. */
function futureExample(type: EventType) {
  return {
    id: '00000000-0000-7000-8000-000000000001',
    type,
    created_at: '2026-01-01T09:00:00.000Z',
    data: { object: { id: '00000000-0000-7000-8000-000000000002' } },
  };
}

/** The example body of a token in the API reference. */
export function eventExample(type: EventType): unknown {
  return NOT_EMITTED_YET.includes(type) ? futureExample(type) : COMMITTED_EVENT_EXAMPLES[type];
}

/** The object of a token no module emits yet: an id, and the fields its module will document when it arrives. */
const FutureObject = z
  .object({ id: z.uuid() })
  .loose()
  .meta({ description: 'The resource the event concerns; its fields are documented when the module that emits it is built.' });

/**
 * The schema of `data.object` for a token: FutureObject while it is listed as not emitted yet (also while its module,
 * arriving, is installed but its walk steps are not written), its owner's otherwise.
 */
export function eventObjectSchema(type: EventType): z.ZodType {
  if (NOT_EMITTED_YET.includes(type)) return FutureObject;
  const schema = eventRegistry().schemas[type];
  if (!schema) throw new Error(`${type} is emitted but its module declares no payload schema`);
  return schema;
}

/**
 * The body the delivery worker POSTs (lib/domain/webhooks/deliver.ts `deliveryBody`): the outbox row as `GET /v1/events`
 * shows it, `created_at` in UTC with milliseconds.
 */
export function webhookPayload(type: EventType) {
  return z.object({
    id: z.uuid().meta({ description: 'The event id, also sent as the webhook-id header; stable across retries and redeliveries.' }),
    type: z.literal(type).meta({ description: 'The event token: what happened.' }),
    created_at: Timestamp.meta({ description: 'When the change happened (the outbox row’s time), UTC with milliseconds.' }),
    data: z
      .object({ object: eventObjectSchema(type).meta({ description: 'The resource as it stands after the change (for a deletion, as it was).' }) })
      .meta({ description: 'The event’s subject.' }),
  });
}

/** Standard Webhooks headers of every attempt (lib/domain/webhooks/signing.ts). */
const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string', format: 'uuid' },
    description: 'The event id (the body’s `id`): the same on every retry and redelivery. Deduplicate on it: delivery is at least once.',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'Unix seconds of this attempt. Reject a timestamp too far from your clock (replays).',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)?$' },
    description:
      '`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the ' +
      'endpoint’s secret after `whsec_`. For 24 h after a rotation, two of them separated by a space (new secret, then old). ' +
      'Verify with any Standard Webhooks library, e.g. `new Webhook(secret).verify(rawBody, headers)` (npm `standardwebhooks`).',
  },
] as const;

/** `invoice.lifecycle_updated` → `invoiceLifecycleUpdated`. */
const camel = (type: string) => type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase());

/**
 * OpenAPI 3.1 `webhooks`: one entry per catalogued token, tagged by its owner module, its body the delivery payload with
 * the object's schema and the committed example; the tokens of modules not built yet are marked "Not emitted yet".
 */
export function webhookEntries(): Record<string, ZodOpenApiPathItemObject> {
  const entries: Record<string, ZodOpenApiPathItemObject> = {};
  for (const type of EVENT_TYPES) {
    const { meaning, owner } = EVENT_CATALOGUE[type];
    const pending = NOT_EMITTED_YET.includes(type);
    entries[type] = {
      post: {
        operationId: `${camel(type)}Event`,
        summary: pending ? `${type} (not emitted yet)` : type,
        description: [
          meaning,
          pending ? `**Not emitted yet**: the ${owner} module is not built. Endpoints may already subscribe to it; its object’s fields are documented when it is.` : '',
          '`POST` to each enabled endpoint subscribed to this token (or to `*`), `Content-Type: application/json`, ' +
            '`User-Agent: Paraphe-Webhooks/1`, signed per Standard Webhooks. A 2xx within 15 s acknowledges it; 410 disables the ' +
            'endpoint; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (429 and 5xx: a longer `Retry-After` is honoured).',
        ]
          .filter(Boolean)
          .join('\n\n'),
        tags: ['Webhook events'],
        // We call the endpoint: no credential of the integrator's is sent; the body is signed (webhook-signature).
        security: [],
        ...(pending ? { 'x-not-emitted-yet': true } : {}),
        parameters: [...WEBHOOK_HEADERS],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: webhookPayload(type), example: eventExample(type) } },
        },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery (its body is ignored; the first 1 KB is kept in the delivery log).' },
          '410': { description: 'Gone: the endpoint is disabled (`disabled_reason: gone`) until it is enabled again.' },
        },
      },
    } as ZodOpenApiPathItemObject;
  }
  return entries;
}
