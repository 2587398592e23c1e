import { manifest as contacts } from '@/lib/domain/contacts';
import { manifest as documents } from '@/lib/domain/documents';
import { manifest as einvoicing } from '@/lib/domain/einvoicing';
import { manifest as email } from '@/lib/platform/email';
import { EVENT_CATALOGUE, type EventType, manifest as events, NOT_EMITTED_YET } from '@/lib/platform/events';
import { purgeIdempotencyJob } from '@/lib/platform/http';
import { maintainTablesJob } from '@/lib/platform/jobs';
import { manifest as invoiceSettings } from '@/lib/domain/invoice-settings';
import { defineModule, installModules, type ModuleManifest } from '@/lib/platform/manifest';
import { manifest as payments } from '@/lib/domain/payments';
import { manifest as pdf } from '@/lib/domain/pdf';
import { manifest as products } from '@/lib/domain/products';
import { manifest as recurring } from '@/lib/domain/recurring';
import { manifest as reminders } from '@/lib/domain/reminders';
import { manifest as sending } from '@/lib/domain/sending';
import { manifest as signature } from '@/lib/domain/signature';
import { manifest as signedQuotes } from '@/lib/domain/signed-quotes';
import { manifest as sms } from '@/lib/domain/sms';
import { manifest as stats } from '@/lib/domain/stats';
import { manifest as webhooks } from '@/lib/domain/webhooks';

/**
 * The composition root: the one file that lists the modules. The API's OpenAPI document, the job workers, the
 * event fan-out and the contact merge read these lists; no lower-level file imports a module to build them.
 * A new module writes its `index.ts` manifest and is added here.
 */
const platform = defineModule({ name: 'platform', jobs: [purgeIdempotencyJob, maintainTablesJob] });

export const modules: readonly ModuleManifest[] = [platform, events, contacts, documents, stats, payments, invoiceSettings, products, pdf, email, reminders, sending, webhooks, einvoicing, recurring, signature, sms, signedQuotes];

/** Every event token is declared by exactly the module that owns it, and an owner present declares all of its own. */
function checkEventOwnership(list: readonly ModuleManifest[]) {
  const names = new Set(list.map((m) => m.name));
  const declared = new Map<string, string>();
  for (const m of list) {
    for (const type of Object.keys(m.events ?? {})) {
      const entry = EVENT_CATALOGUE[type as EventType];
      if (!entry) throw new Error(`${m.name} declares ${type}, which is not in the event catalogue`);
      if (entry.owner !== m.name) throw new Error(`${m.name} declares ${type}, which ${entry.owner} owns`);
      declared.set(type, m.name);
    }
  }
  for (const [type, entry] of Object.entries(EVENT_CATALOGUE)) {
    // A module arriving in stages declares its tokens once it emits them (until then they are NOT_EMITTED_YET).
    if (names.has(entry.owner) && !declared.has(type) && !NOT_EMITTED_YET.includes(type as EventType)) throw new Error(`${entry.owner} emits ${type} but declares no payload schema for it`);
  }
}

/** One way to react, a subscription; the one exception is webhooks' synchronous outbox fan-out (lib/platform/manifest.ts). */
function checkReactions(list: readonly ModuleManifest[]) {
  for (const m of list) if (m.onEvents && m.name !== 'webhooks') throw new Error(`${m.name} declares onEvents: a module reacts to events through subscriptions (only webhooks' fan-out is a hook)`);
}

checkEventOwnership(modules);
checkReactions(modules);
installModules(modules);

export const operations = modules.flatMap((m) => m.operations ?? []);
export const jobs = modules.flatMap((m) => m.jobs ?? []);
export const sandboxTasks = modules.flatMap((m) => m.sandboxTasks ?? []);
