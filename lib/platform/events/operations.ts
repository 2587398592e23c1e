import { z } from 'zod';
import { IdParams, operation, pageOf, Timestamp } from '@/lib/platform/contract';
import { PageQuery } from '@/lib/platform/http';
import { EventListQuery } from './events';

export const Event = z
  .object({
    id: z.uuid().meta({ description: 'The event id (the webhook-id of its deliveries).' }),
    type: z.string().meta({ description: 'Event token, e.g. contact.created.' }),
    created_at: Timestamp,
    data: z
      .object({ object: z.unknown().meta({ description: 'The resource as the API shows it, at the time of the event.' }) })
      .meta({ description: 'The event’s subject.' }),
  })
  .meta({ id: 'Event' });

export const listEventsOperation = operation({
  method: 'get',
  path: '/v1/events',
  tag: 'Events',
  summary: 'List events (the outbox), newest first',
  description: 'Every change that emits a webhook is also recorded here, in the same transaction as the change.',
  scope: 'events:read',
  query: PageQuery.extend(EventListQuery.shape),
  responses: { 200: { description: 'A page of events.', schema: pageOf(Event, 'EventPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const getEventOperation = operation({
  method: 'get',
  path: '/v1/events/{id}',
  tag: 'Events',
  summary: 'Retrieve an event',
  scope: 'events:read',
  params: IdParams,
  responses: { 200: { description: 'The event.', schema: Event } },
});

export const eventOperations = [listEventsOperation, getEventOperation];
