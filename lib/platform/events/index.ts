import { defineModule } from '@/lib/platform/manifest';
import { eventOperations } from './operations';

export { EVENT_CATALOGUE, EVENT_TYPES, type EventType, isEventType, NOT_EMITTED_YET } from './catalogue';
export { EventListQuery, getEvent, listEvents, publicEvent, recordEvent, recordEvents } from './events';
export { eventOperations } from './operations';
export { type EmittedEvent, type EventSchemas, eventRegistry, type Subscription, subscribe } from './registry';

export const manifest = defineModule({ name: 'events', operations: eventOperations });
