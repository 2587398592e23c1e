import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATUSES } from '@/db/schema/webhooks';
import { isEventType } from '@/lib/platform/events';
import { PageQuery } from '@/lib/platform/http';
import { PathId, pageOf, Timestamp, wellFormed } from '@/lib/platform/contract';

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
    id: z.uuid().meta({ description: 'The endpoint’s id.' }),
    url: z.string().meta({ description: 'Where the deliveries are POSTed.' }),
    events: z.array(z.string()).meta({ description: 'The event tokens it receives; ["*"] for all.' }),
    enabled: z.boolean().meta({ description: 'False once disabled (by you, or by a 410 answer): nothing is delivered.' }),
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
    enabled: z.boolean({ error: 'must be a boolean' }).default(true).meta({ description: 'Whether it receives deliveries; true when omitted.' }),
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.output<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = z
  .strictObject({
    url: Url.optional(),
    events: EventList.optional(),
    enabled: z.boolean({ error: 'must be a boolean' }).optional().meta({ description: 'true enables it again (clearing disabled_reason); false stops the deliveries.' }),
  })
  .meta({ id: 'WebhookEndpointUpdate' });
export type WebhookEndpointUpdate = z.output<typeof WebhookEndpointUpdate>;

export const WebhookEndpointList = pageOf(WebhookEndpoint, 'WebhookEndpointList');
export const EndpointListQuery = z.strictObject(PageQuery.shape);

export const WebhookDelivery = z
  .object({
    id: z.uuid().meta({ description: 'The delivery’s id.' }),
    endpoint_id: z.uuid().meta({ description: 'The endpoint it goes to.' }),
    event_id: z.uuid().meta({ description: 'The event id, also the `webhook-id` header of every attempt.' }),
    event_type: z.string().meta({ description: 'The event token delivered.' }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ description: 'pending (retries to come), succeeded (a 2xx) or failed (given up).' }),
    attempt: z.number().int().meta({ description: 'Attempts made so far.' }),
    response_status: z.number().int().nullable().meta({ description: 'HTTP status of the last response; null when none came.' }),
    response_duration_ms: z.number().int().nullable().meta({ description: 'Milliseconds the last attempt took; null before any.' }),
    response_body: z.string().nullable().meta({ description: 'The first 1 KB of the last response.' }),
    error: z.string().nullable().meta({ description: 'Why the last attempt got no response (timeout, refused address…).' }),
    last_attempt_at: Timestamp.nullable(),
    next_attempt_at: Timestamp.nullable().meta({ description: 'When the next retry is due; null once succeeded or failed.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = pageOf(WebhookDelivery, 'WebhookDeliveryList');
export const DeliveryParams = z.object({ id: PathId, delivery_id: PathId.meta({ description: 'The delivery’s id.' }) });
export const NoQuery = z.strictObject({});
