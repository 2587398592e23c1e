import type { z } from 'zod';
import type { JobDefinition } from '@/lib/platform/jobs';
import { installedModules, type ModuleManifest } from '@/lib/platform/manifest';
import type { CataloguedEventType } from './catalogue';

/** What a subscriber's job receives to build its data: the event as written (before `created_at` is known). */
export interface EmittedEvent {
  id: string;
  org_id: string;
  type: CataloguedEventType;
  object: unknown;
}

/** A module's reaction to events: for each, one job of `job`, written in the transaction that records the event. */
export interface Subscription<T extends object = object> {
  events: readonly CataloguedEventType[];
  job: JobDefinition<T>;
  data(event: EmittedEvent): T;
  /** Only the events this returns true for (an update that cannot concern the subscriber writes no job). */
  when?(event: EmittedEvent): boolean;
}

export function subscribe<T extends object>(subscription: Subscription<T>): Subscription {
  return subscription as unknown as Subscription;
}

export type EventSchemas = Partial<Record<CataloguedEventType, z.ZodType>>;

interface Registry {
  schemas: EventSchemas;
  subscriptions: Map<CataloguedEventType, Subscription[]>;
  /** The modules' `onEvents` (webhooks' fan-out, the one exception to subscriptions), run for every batch of public events. */
  hooks: NonNullable<ModuleManifest['onEvents']>[];
}

let cache: { modules: readonly ModuleManifest[]; registry: Registry } | undefined;

/** The payload schemas and subscribers of every installed module, indexed by event type. */
export function eventRegistry(): Registry {
  const modules = installedModules();
  if (cache?.modules !== modules) {
    const schemas: EventSchemas = {};
    const subscriptions = new Map<CataloguedEventType, Subscription[]>();
    const hooks: Registry['hooks'] = [];
    for (const m of modules) {
      if (m.onEvents) hooks.push(m.onEvents);
      Object.assign(schemas, m.events);
      for (const s of m.subscriptions ?? []) for (const type of s.events) subscriptions.set(type, [...(subscriptions.get(type) ?? []), s]);
    }
    cache = { modules, registry: { schemas, subscriptions, hooks } };
  }
  return cache.registry;
}
