import { and, arrayContains, desc, eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { rowsQuery } from '@/db/prepared';
import { contactConsents, contacts } from '@/db/schema';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { recordEvent } from '@/lib/platform/events';
import { afterCursor, type ListSort, type SortKey, sortedKeyset, toPage, toSortedPage } from '@/lib/platform/http';
import {
  type Contact,
  type ContactCreate,
  type ContactListQuery,
  type ContactPatch,
  hasNameOrCompany,
  NO_NAME_MESSAGE,
  nameField,
} from './schemas';

export type ContactRow = typeof contacts.$inferSelect;
/** A row as written, without the generated columns (search, name_key) that only queries read. */
export type StoredContact = Omit<ContactRow, 'search' | 'name_key'>;
export type ContactInsert = typeof contacts.$inferInsert;

/**
 * Accent folding for `q`, the same letters as the `name_key` column's translate(). Inlined as SQL literals, not
 * bound parameters, so that an expression index on `translate(search, …)` (pg_trgm) matches the query text.
 */
const FOLD_ACCENTS = (expr: SQL) => sql`translate(${expr}, 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿœæ', 'aaaaaaceeeeiiiinooooouuuuyyoa')`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function displayName(c: Pick<ContactRow, 'company' | 'first_name' | 'last_name'>): string | null {
  if (c.company) return c.company;
  const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return name || null;
}

export const sirenOf = (siret: string | null | undefined) => (siret ? siret.slice(0, 9) : null);

export function toPublicContact(row: StoredContact): Contact {
  return {
    id: row.id,
    type: row.type,
    display_name: displayName(row),
    first_name: row.first_name,
    last_name: row.last_name,
    company: row.company,
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postal_code: row.postal_code,
    country: row.country,
    siret: row.siret,
    siren: row.siren,
    vat_intra: row.vat_intra,
    default_payment_terms: row.default_payment_terms,
    default_discount_terms: row.default_discount_terms,
    preferred_language: row.preferred_language,
    reminder_opt_out: row.reminder_opt_out,
    marketing_consent: row.marketing_consent,
    consent_source: row.consent_source,
    legal_basis: row.legal_basis,
    consent_updated_at: iso(row.consent_updated_at),
    lead_status: row.lead_status,
    lead_score: row.lead_score,
    notes: row.notes,
    tags: row.tags ?? [],
    merged_into_id: row.merged_into_id,
    deleted_at: iso(row.deleted_at),
    erased_at: iso(row.erased_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** What an insert sets from a payload: every column but the id, the timestamps and the lifecycle markers. */
export type ContactValues = Omit<StoredContact, 'id' | 'created_at' | 'updated_at' | 'deleted_at' | 'merged_into_id' | 'erased_at'>;

/** The insert values of a validated create payload, defaults applied. `now` stamps the consent when given. */
export function insertValues(orgId: string, payload: ContactCreate, now: Date): ContactValues {
  const consentGiven = payload.marketing_consent != null;
  return {
    org_id: orgId,
    type: payload.type ?? 'professionnel',
    first_name: payload.first_name ?? null,
    last_name: payload.last_name ?? null,
    company: payload.company ?? null,
    email: payload.email ?? null,
    phone: payload.phone ?? null,
    address: payload.address ?? null,
    city: payload.city ?? null,
    postal_code: payload.postal_code ?? null,
    country: payload.country ?? 'FR',
    siret: payload.siret ?? null,
    siren: sirenOf(payload.siret),
    vat_intra: payload.vat_intra ?? null,
    default_payment_terms: payload.default_payment_terms ?? null,
    default_discount_terms: payload.default_discount_terms ?? null,
    preferred_language: (payload.preferred_language as ContactRow['preferred_language']) ?? null,
    reminder_opt_out: payload.reminder_opt_out ?? false,
    marketing_consent: payload.marketing_consent ?? null,
    consent_source: payload.consent_source ?? null,
    legal_basis: payload.legal_basis ?? null,
    consent_updated_at: consentGiven ? now : null,
    lead_status: payload.lead_status ?? null,
    lead_score: payload.lead_score ?? null,
    notes: payload.notes ?? null,
    tags: payload.tags ?? [],
  };
}

/** The consent history rows of freshly inserted contacts that state a consent. */
export function initialConsents(rows: StoredContact[]) {
  return rows
    .filter((r) => r.marketing_consent !== null)
    .map((r) => ({
      org_id: r.org_id,
      contact_id: r.id,
      marketing_consent: r.marketing_consent,
      source: r.consent_source,
      legal_basis: r.legal_basis,
      changed_at: r.consent_updated_at ?? r.created_at,
    }));
}

/**
 * Outbox rows for many contacts at once, in the payload shape of recordEvent: an import of 1000 rows
 * writes its 1000 events in one statement instead of 1000 round trips.
 */
export async function createContact(db: Db, orgId: string, payload: ContactCreate): Promise<Contact> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(contacts).values(insertValues(orgId, payload, new Date())).returning();
    const consents = initialConsents([row!]);
    if (consents.length) await tx.insert(contactConsents).values(consents);
    const contact = toPublicContact(row!);
    await recordEvent(tx, orgId, 'contact.created', contact);
    return contact;
  });
}

/** Escapes LIKE wildcards so `q` is matched literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The columns the back-office list sorts on (the API lists newest first only); the name folded as name_key is. */
export const CONTACT_SORTS = {
  name: { expr: sql`coalesce(${contacts.name_key}, '')`, type: 'text' },
  email: { expr: sql`lower(coalesce(${contacts.email}, ''))`, type: 'text' },
  city: { expr: sql`lower(coalesce(${contacts.city}, ''))`, type: 'text' },
} satisfies Record<string, SortKey>;
export type ContactSort = ListSort<keyof typeof CONTACT_SORTS>;

/** Newest first (or by `sort`, for the back-office). */
export async function listContacts(db: Db, orgId: string, query: ContactListQuery, sort?: ContactSort) {
  const conditions: Array<SQL | undefined> = [
    eq(contacts.org_id, orgId),
    query.include_deleted ? undefined : isNull(contacts.deleted_at),
    query.type ? eq(contacts.type, query.type) : undefined,
    query.lead_status ? eq(contacts.lead_status, query.lead_status) : undefined,
    query.tag ? arrayContains(contacts.tags, [query.tag]) : undefined,
    query.q
      ? sql`${FOLD_ACCENTS(sql`${contacts.search}`)} like ${FOLD_ACCENTS(sql`lower(${`%${likeEscape(query.q)}%`})`)}`
      : undefined,
  ];
  if (sort) {
    const keyset = sortedKeyset(CONTACT_SORTS[sort.key], contacts.id, sort, query.cursor);
    const rows = await db
      .select({ ...getTableColumns(contacts), sort_value: keyset.value })
      .from(contacts)
      .where(and(...conditions, keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(query.limit + 1);
    return toSortedPage(rows, query.limit, sort, toPublicContact);
  }
  const rows = await db
    .select()
    .from(contacts)
    .where(and(...conditions, afterCursor(contacts.id, query.cursor)))
    .orderBy(desc(contacts.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicContact);
}

/** The org's contact (deleted ones included) or 404; `forUpdate` locks it for the rest of the transaction. */
const contactByKey = (db: Db) =>
  db
    .select()
    .from(contacts)
    .where(and(eq(contacts.org_id, sql.placeholder('org_id')), eq(contacts.id, sql.placeholder('id'))));
const contactRow = rowsQuery(contacts, contactByKey);
const lockedContactRow = rowsQuery(contacts, (db) => contactByKey(db).for('update'));

export async function loadContact(tx: Tx | Db, orgId: string, id: string, forUpdate = false): Promise<ContactRow> {
  const row = await findContact(tx, orgId, id, forUpdate);
  if (!row) throw notFound('Contact');
  return row;
}

/** The org's contact (deleted, merged and erased ones included), or null. */
export async function findContact(tx: Tx | Db, orgId: string, id: string, forUpdate = false): Promise<ContactRow | null> {
  const [row] = await (forUpdate ? lockedContactRow : contactRow)(tx, { org_id: orgId, id });
  return row ?? null;
}

export async function getContact(db: Db, orgId: string, id: string): Promise<Contact> {
  return toPublicContact(await loadContact(db, orgId, id));
}

/** Changes are refused on a contact that is not live: it must be restored first (an erased one never comes back). */
export function assertLive(row: ContactRow) {
  if (row.erased_at) throw conflict('contact_erased', 'This contact was erased; it cannot be changed.');
  if (row.merged_into_id) throw conflict('contact_merged', `This contact was merged into ${row.merged_into_id}.`);
  if (row.deleted_at) throw conflict('contact_deleted', 'This contact is deleted; restore it first.');
}

const sameValue = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a === b;

/** Defaults an explicit null goes back to, for the columns that are never null. */
const RESET: Partial<Record<keyof ContactRow, unknown>> = { type: 'professionnel', country: 'FR', reminder_opt_out: false, tags: [] };

export async function updateContact(db: Db, orgId: string, id: string, patch: ContactPatch): Promise<Contact> {
  return db.transaction(async (tx) => {
    const row = await loadContact(tx, orgId, id, true);
    assertLive(row);

    const changes: Partial<ContactInsert> = {};
    for (const [key, value] of Object.entries(patch) as Array<[keyof ContactRow, unknown]>) {
      if (value === undefined) continue;
      const next = value === null && key in RESET ? RESET[key] : value;
      if (!sameValue(row[key], next)) (changes as Record<string, unknown>)[key] = next;
    }
    if ('siret' in changes) changes.siren = sirenOf(changes.siret);

    const merged = { ...row, ...changes };
    if (!hasNameOrCompany(merged)) throw validationError(nameField(merged.type), NO_NAME_MESSAGE);
    if (Object.keys(changes).length === 0) return toPublicContact(row);

    const now = new Date();
    if ('marketing_consent' in changes) {
      changes.consent_updated_at = now;
      await tx.insert(contactConsents).values({
        org_id: orgId,
        contact_id: id,
        marketing_consent: merged.marketing_consent,
        source: merged.consent_source,
        legal_basis: merged.legal_basis,
        changed_at: now,
      });
    }
    const [updated] = await tx
      .update(contacts)
      .set({ ...changes, updated_at: now })
      .where(and(eq(contacts.org_id, orgId), eq(contacts.id, id)))
      .returning();
    const contact = toPublicContact(updated!);
    await recordEvent(tx, orgId, 'contact.updated', contact);
    return contact;
  });
}

/** Soft delete; deleting a deleted contact answers it unchanged (no second event). */
export async function deleteContact(db: Db, orgId: string, id: string): Promise<Contact> {
  return db.transaction(async (tx) => {
    const row = await loadContact(tx, orgId, id, true);
    if (row.deleted_at) return toPublicContact(row);
    const now = new Date();
    const [updated] = await tx
      .update(contacts)
      .set({ deleted_at: now, updated_at: now })
      .where(and(eq(contacts.org_id, orgId), eq(contacts.id, id)))
      .returning();
    const contact = toPublicContact(updated!);
    await recordEvent(tx, orgId, 'contact.deleted', contact);
    return contact;
  });
}

/** Undoes a soft delete. A merged or erased contact stays as it is (409); a live one is answered unchanged. */
export async function restoreContact(db: Db, orgId: string, id: string): Promise<Contact> {
  return db.transaction(async (tx) => {
    const row = await loadContact(tx, orgId, id, true);
    if (!row.deleted_at) return toPublicContact(row);
    if (row.erased_at) throw conflict('contact_erased', 'This contact was erased; it cannot be restored.');
    if (row.merged_into_id) {
      throw conflict('contact_merged', `This contact was merged into ${row.merged_into_id}; it cannot be restored.`);
    }
    const now = new Date();
    const [updated] = await tx
      .update(contacts)
      .set({ deleted_at: null, updated_at: now })
      .where(and(eq(contacts.org_id, orgId), eq(contacts.id, id)))
      .returning();
    const contact = toPublicContact(updated!);
    await recordEvent(tx, orgId, 'contact.restored', contact);
    return contact;
  });
}
