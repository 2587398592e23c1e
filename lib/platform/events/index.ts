import { defineModule } from '@/lib/platform/manifest';
import { eventOperations } from './operations';

export {
  type CataloguedEventType,
  EVENT_CATALOGUE,
  EVENT_TYPES,
  type EventType,
  INTERNAL_EVENT_TYPES,
  type InternalEventType,
  isEventType,
  isInternalEventType,
  NOT_EMITTED_YET,
} from './catalogue';
export { EventListQuery, getEvent, listEvents, mergeEventObject, publicEvent, recordEvent, recordEvents, recordInternalEvent } from './events';
export { eventOperations } from './operations';
export { redactEventObjects } from './redact';
export { type EmittedEvent, type EventSchemas, eventRegistry, type Subscription, subscribe } from './registry';

export const manifest = defineModule({ name: 'events', operations: eventOperations });
export { getEventOperation, listEventsOperation } from './operations';
