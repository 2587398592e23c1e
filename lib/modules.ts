import { manifest as contacts } from '@/lib/contacts';
import { manifest as documents } from '@/lib/documents';
import { manifest as einvoicing } from '@/lib/einvoicing';
import { manifest as email } from '@/lib/email';
import { EVENT_CATALOGUE, type EventType, manifest as events, NOT_EMITTED_YET } from '@/lib/events';
import { purgeIdempotencyJob } from '@/lib/http/idempotency';
import { maintainTablesJob } from '@/lib/jobs';
import { manifest as invoiceSettings } from '@/lib/invoice-settings';
import { defineModule, installModules, type ModuleManifest } from '@/lib/manifest';
import { manifest as payments } from '@/lib/payments';
import { manifest as pdf } from '@/lib/pdf';
import { manifest as products } from '@/lib/products';
import { manifest as recurring } from '@/lib/recurring';
import { manifest as reminders } from '@/lib/reminders';
import { manifest as sending } from '@/lib/sending';
import { manifest as signature } from '@/lib/signature';
import { manifest as signedQuotes } from '@/lib/signed-quotes';
import { manifest as sms } from '@/lib/sms';
import { manifest as stats } from '@/lib/stats';
import { manifest as webhooks } from '@/lib/webhooks';

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

checkEventOwnership(modules);
installModules(modules);

export const operations = modules.flatMap((m) => m.operations ?? []);
export const jobs = modules.flatMap((m) => m.jobs ?? []);
