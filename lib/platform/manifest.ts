import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import type { EmittedEvent, EventSchemas, Subscription } from '@/lib/platform/events';
import type { JobDefinition } from '@/lib/platform/jobs';
import type { SandboxTask } from '@/lib/platform/sandbox';
import type { Operation } from '@/lib/platform/contract';

/**
 * A column of a module's records that points at a contact. A contact merge repoints every one of them from the
 * sources to the target in its transaction and the merge preview counts them (unless `merge: false`), and the GDPR
 * export lists the rows (unless `export: false`, for the ones the export already shows in its own shape).
 */
export interface ContactReference {
  /** Name shown in the merge preview's `moves` and as the key of the export's `related`. */
  resource: string;
  table: PgTable;
  /** The contact id column. Its TS property name must equal its SQL name (db/schema convention). */
  column: PgColumn;
  export?: boolean;
  /** The columns the GDPR export shows, when not every column may leave the server (provider ids); default all. */
  exportColumns?: Record<string, PgColumn>;
  /**
   * false: a merge leaves these rows with the contact merged away, and does not count them among its moves; their
   * module acts on `contact.merged` instead (a SEPA mandate is revoked, not moved). Default true.
   */
  merge?: boolean;
}

/**
 * What a module brings to the app, exported by its `index.ts` as `manifest`. The composition root
 * (lib/composition/modules.ts) lists the manifests; the API, the OpenAPI document, the job workers, the event fan-out and the
 * contact merge read these lists instead of importing modules.
 */
export interface ModuleManifest {
  name: string;
  /** The /v1 endpoints it serves. */
  operations?: readonly Operation[];
  /** Its job kinds (subscription jobs included). */
  jobs?: readonly JobDefinition<never>[];
  /** The payload schema of each event it emits (tokens of lib/platform/events/catalogue.ts it owns). */
  events?: EventSchemas;
  /**
   * What it does when an event happens: a job written in the event's transaction. The one way a module reacts to
   * another's change (an internal event, lib/platform/events/catalogue.ts, when no public one fits).
   */
  subscriptions?: readonly Subscription[];
  /**
   * The one named exception to subscriptions: lib/domain/webhooks' outbox fan-out, the delivery rows of every public
   * event written synchronously in the event's transaction (one per endpoint, then delivered by its jobs). No other
   * module declares it: a hook must not write another module's rows, record events, or change the emitted object.
   */
  onEvents?: (tx: Db, events: readonly EmittedEvent[]) => Promise<void>;
  /**
   * What it runs on untrusted files in lib/platform/sandbox: compiled at the production start, which stops if one
   * cannot be (rather than at the first file).
   */
  sandboxTasks?: readonly SandboxTask<never, unknown>[];
  /** Its records that point at contacts. */
  contactReferences?: readonly ContactReference[];
}

export function defineModule(manifest: ModuleManifest): ModuleManifest {
  return manifest;
}

// On globalThis: Next.js may load this file in several bundles of one process, and all must see the same list.
const key = Symbol.for('paraphe.modules');
type G = typeof globalThis & { [key]?: readonly ModuleManifest[] };

/** Called once, by the composition root (lib/composition/modules.ts), when it is imported. */
export function installModules(manifests: readonly ModuleManifest[]) {
  (globalThis as G)[key] = manifests;
}

/** The modules of the app, for the code that serves them all (event fan-out, contact merge). */
export function installedModules(): readonly ModuleManifest[] {
  const manifests = (globalThis as G)[key];
  // A programming error, not a request's: every entry point (server, worker, CLI, tests) loads the composition root.
  if (!manifests) throw new Error('No modules installed: import "@/lib/composition/modules" in the entry point (server, worker, CLI, test setup).');
  return manifests;
}
