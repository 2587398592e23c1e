import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES } from '@/db/schema/webhooks';
import { isEventType } from '@/lib/events';
import { PageQuery } from '@/lib/http/pagination';
import { PathId, pageOf, Timestamp, wellFormed } from '@/lib/openapi/schemas';

/** The token of the event `POST …/test` sends; not in the catalogue (no change emits it), never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const EventToken = z.string().refine((t) => t === '*' || isEventType(t), 'must be a documented event token or *');

const EventList = z
  .array(EventToken, { error: 'must be an array of strings' })
  .min(1, 'required (at least one event token, or *)')
  .max(100, 'at most 100 tokens')
  .transform((list) => [...new Set(list)])
  .meta({ description: 'Event tokens to receive (see the event catalogue), or `*` for every event.' });

const Url = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'required')
  .max(2048, 'at most 2048 characters')
  .refine(wellFormed, 'contains an invalid character')
  .meta({ description: 'Absolute https URL the deliveries are POSTed to; it must resolve to public addresses only.' });

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the service disabled it: gone (the receiver answered 410) or failing (5 days of failures); null otherwise.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: 'Signing secret (`whsec_…`), returned only here, never again.' }),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const WebhookEndpointCreate = z
  .strictObject({
    url: Url,
    events: EventList,
    enabled: z.boolean({ error: 'must be a boolean' }).default(true),
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.output<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = z
  .strictObject({
    url: Url.optional(),
    events: EventList.optional(),
    enabled: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .meta({ id: 'WebhookEndpointUpdate' });
export type WebhookEndpointUpdate = z.output<typeof WebhookEndpointUpdate>;

export const WebhookEndpointList = pageOf(WebhookEndpoint, 'WebhookEndpointList');
export const EndpointListQuery = z.strictObject(PageQuery.shape);

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    endpoint_id: z.uuid(),
    event_id: z.uuid().meta({ description: 'The event id, also the `webhook-id` header of every attempt.' }),
    event_type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempt: z.number().int().meta({ description: 'Attempts made so far.' }),
    response_status: z.number().int().nullable(),
    response_duration_ms: z.number().int().nullable(),
    response_body: z.string().nullable().meta({ description: 'The first 1 KB of the last response.' }),
    error: z.string().nullable().meta({ description: 'Why the last attempt got no response (timeout, refused address…).' }),
    last_attempt_at: Timestamp.nullable(),
    next_attempt_at: Timestamp.nullable().meta({ description: 'When the next retry is due; null once succeeded or failed.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = pageOf(WebhookDelivery, 'WebhookDeliveryList');
export const DeliveryParams = z.object({ id: PathId, delivery_id: PathId });
export const NoQuery = z.strictObject({});
