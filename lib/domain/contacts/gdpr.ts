import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactConsents, contacts } from '@/db/schema';
import { recordEvents, redactEventObjects } from '@/lib/platform/events';
import { loadContact, toPublicContact, type ContactInsert } from './contacts';
import { contactReferences } from './references';
import type { Contact } from './schemas';

/** What an erasure clears: everything that describes or reaches the person. Type and country are not personal. */
const ERASED: Partial<ContactInsert> = {
  first_name: null,
  last_name: null,
  company: null,
  email: null,
  phone: null,
  address: null,
  city: null,
  postal_code: null,
  siret: null,
  siren: null,
  vat_intra: null,
  default_payment_terms: null,
  default_discount_terms: null,
  preferred_language: null,
  reminder_opt_out: false,
  marketing_consent: null,
  consent_source: null,
  legal_basis: null,
  consent_updated_at: null,
  lead_status: null,
  lead_score: null,
  notes: null,
  tags: [],
};

/**
 * Right to erasure (GDPR art. 17), irreversible. The row stays as a tombstone (id, type, country, dates,
 * erased_at) so records that point at it stay valid; every personal field is nulled, the consent history
 * deleted, and the contact.* events already in the outbox are rewritten to the tombstone. Contacts merged
 * into this one hold the same person's data and are erased with it. Erasing twice answers the tombstone.
 */
export async function eraseContact(db: Db, orgId: string, id: string): Promise<Contact> {
  return db.transaction(async (tx) => {
    const row = await loadContact(tx, orgId, id, true);
    if (row.erased_at) return toPublicContact(row);

    const merged = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.org_id, orgId), eq(contacts.merged_into_id, id), isNull(contacts.erased_at)))
      .for('update');
    // row.id, not the path's id: the client may write it in upper case, and the tombstones below compare ids as strings.
    const ids = [row.id, ...merged.map((m) => m.id)];
    const now = new Date();

    const erased = await tx
      .update(contacts)
      .set({ ...ERASED, erased_at: now, deleted_at: sql`coalesce(${contacts.deleted_at}, ${now.toISOString()}::timestamptz)`, updated_at: now })
      .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, ids)))
      .returning();
    await tx.delete(contactConsents).where(and(eq(contactConsents.org_id, orgId), inArray(contactConsents.contact_id, ids)));

    const tombstones = erased.map(toPublicContact);
    for (const tombstone of tombstones) await redactEventObjects(tx, orgId, 'contact', tombstone);
    // The target's event last, so a consumer reading in order sees the contact itself erased at the end.
    tombstones.sort((a, b) => (a.id === row.id ? 1 : b.id === row.id ? -1 : 0));
    await recordEvents(tx, orgId, 'contact.erased', tombstones);
    return tombstones.at(-1)!;
  });
}

export type ConsentRecord = ContactExport['consent_history'][number];

/** The changes of marketing_consent of the org's contact `id`, oldest first (the export's and the contact page's history). */
export async function consentHistory(db: Db, orgId: string, id: string): Promise<ConsentRecord[]> {
  const rows = await db
    .select()
    .from(contactConsents)
    .where(and(eq(contactConsents.org_id, orgId), eq(contactConsents.contact_id, id)))
    .orderBy(asc(contactConsents.changed_at), asc(contactConsents.id));
  return rows.map((h) => ({
    marketing_consent: h.marketing_consent,
    source: h.source,
    legal_basis: h.legal_basis,
    changed_at: h.changed_at.toISOString(),
  }));
}

export interface ContactExport {
  format: 'paraphe.contact-export.v1';
  exported_at: string;
  contact: Contact;
  consent_history: Array<{ marketing_consent: boolean | null; source: string | null; legal_basis: string | null; changed_at: string }>;
  merged_contacts: Contact[];
  related: Record<string, Array<Record<string, unknown>>>;
}

/**
 * Right of access and portability (GDPR art. 15 and 20): everything held about the contact, as one JSON
 * document — the contact, its consent history, the contacts merged into it, and the records of other
 * modules that refer to it (references.ts).
 */
export async function exportContact(db: Db, orgId: string, id: string): Promise<ContactExport> {
  const row = await loadContact(db, orgId, id);
  const history = await consentHistory(db, orgId, id);
  const merged = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.org_id, orgId), eq(contacts.merged_into_id, id)))
    .orderBy(asc(contacts.id));
  const related: ContactExport['related'] = {};
  for (const ref of contactReferences()) {
    if (ref.export === false) continue;
    const query = ref.exportColumns ? db.select(ref.exportColumns).from(ref.table) : db.select().from(ref.table);
    related[ref.resource] = (await query.where(eq(ref.column, id))) as Array<Record<string, unknown>>;
  }
  return {
    format: 'paraphe.contact-export.v1',
    exported_at: new Date().toISOString(),
    contact: toPublicContact(row),
    consent_history: history,
    merged_contacts: merged.map(toPublicContact),
    related,
  };
}
