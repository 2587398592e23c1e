import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { contactConsents, contacts } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { recordEvent, recordEvents } from '@/lib/platform/events';
import { assertLive, type ContactInsert, type ContactRow, loadContact, sirenOf, toPublicContact } from './contacts';
import { contactReferences } from './references';
import { CONTACT_FIELDS, type ChoosableField, type Contact, type MergeBody, normalizeTags } from './schemas';

export interface MergeResult {
  contact: Contact;
  sources: Contact[];
  moves: Array<{ resource: string; count: number }>;
}

/** Fields whose merged value is the target's, or else the first non-null source value, unless chosen. */
const PLAIN_FIELDS = CONTACT_FIELDS.filter(
  (f): f is Exclude<ChoosableField, 'marketing_consent' | 'reminder_opt_out'> =>
    !['tags', 'marketing_consent', 'consent_source', 'legal_basis', 'reminder_opt_out'].includes(f),
);

interface Plan {
  target: ContactRow;
  sources: ContactRow[];
  changes: Partial<ContactInsert>;
  consentChanged: boolean;
  moves: MergeResult['moves'];
}

async function plan(tx: Tx | Db, orgId: string, targetId: string, body: MergeBody, lock: boolean): Promise<Plan> {
  if (lock) {
    // Every contact of the merge locked at once, in id order, before any is read: two merges crossing the same
    // contacts (A into B and B into A) then wait for each other instead of deadlocking (a 500 on PostgreSQL).
    await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, [targetId, ...body.source_ids])))
      .orderBy(asc(contacts.id))
      .for('update');
  }
  const target = await loadContact(tx, orgId, targetId, lock);
  assertLive(target);

  const q = tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, body.source_ids)));
  const found = new Map((lock ? await q.for('update') : await q).map((r) => [r.id, r]));
  const sources = body.source_ids.map((id, i) => {
    const field = `source_ids.${i}`;
    // target.id, not the path's: the client may write the id in upper case (MergeBody lowercases source_ids).
    if (id === target.id) throw validationError(field, 'cannot merge a contact into itself');
    const row = found.get(id);
    if (!row) throw validationError(field, 'no such contact');
    if (row.erased_at) throw validationError(field, 'this contact was erased');
    if (row.merged_into_id) throw validationError(field, `this contact was already merged into ${row.merged_into_id}`);
    if (row.deleted_at) throw validationError(field, 'this contact is deleted; restore it first');
    return row;
  });

  const rows = [target, ...sources];
  const chosen = (field: ChoosableField): ContactRow | undefined => {
    const id = body.fields?.[field];
    if (id === undefined) return undefined;
    const row = rows.find((r) => r.id === id);
    if (!row) throw validationError(`fields.${field}`, 'must be the id of the target or of one of source_ids');
    return row;
  };

  const merged: Partial<ContactRow> = {};
  for (const field of PLAIN_FIELDS) {
    const owner = chosen(field) ?? rows.find((r) => r[field] !== null) ?? target;
    (merged as Record<string, unknown>)[field] = owner[field];
  }
  merged.siren = sirenOf(merged.siret);
  merged.reminder_opt_out = chosen('reminder_opt_out')?.reminder_opt_out ?? rows.some((r) => r.reminder_opt_out);
  // The consent, its source and its legal basis come from one record, so the proof stays coherent.
  const consentOwner = chosen('marketing_consent') ?? rows.find((r) => r.marketing_consent !== null) ?? target;
  merged.marketing_consent = consentOwner.marketing_consent;
  merged.consent_source = consentOwner.consent_source;
  merged.legal_basis = consentOwner.legal_basis;
  merged.tags = normalizeTags(rows.flatMap((r) => r.tags));

  const changes: Partial<ContactInsert> = {};
  for (const [key, value] of Object.entries(merged) as Array<[keyof ContactRow, unknown]>) {
    const current = target[key];
    const same = Array.isArray(value) && Array.isArray(current) ? value.join('\u0000') === current.join('\u0000') : value === current;
    if (!same) (changes as Record<string, unknown>)[key] = value;
  }

  const moves = [];
  for (const ref of contactReferences().filter((r) => r.merge !== false)) {
    const [counted] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(ref.table)
      .where(inArray(ref.column, body.source_ids));
    moves.push({ resource: ref.resource, count: Number(counted?.count ?? 0) });
  }
  return { target, sources, changes, consentChanged: 'marketing_consent' in changes, moves };
}

/** What a merge would do; writes nothing. */
export async function previewMerge(db: Db, orgId: string, targetId: string, body: MergeBody): Promise<MergeResult> {
  const p = await plan(db, orgId, targetId, body, false);
  const now = new Date();
  const preview: ContactRow = { ...p.target, ...(p.changes as Partial<ContactRow>) };
  if (p.consentChanged) preview.consent_updated_at = now;
  return { contact: toPublicContact(preview), sources: p.sources.map(toPublicContact), moves: p.moves };
}

/**
 * Merges the sources into the target in one transaction: every registered reference (references.ts) of a
 * source now points at the target, the target takes the merged fields and the union of the tags, and the
 * sources are soft-deleted with merged_into_id. Events: contact.merged per source, contact.updated for the target.
 */
export async function mergeContacts(db: Db, orgId: string, targetId: string, body: MergeBody): Promise<MergeResult> {
  return db.transaction(async (tx) => {
    const p = await plan(tx, orgId, targetId, body, true);
    const now = new Date();

    for (const ref of contactReferences().filter((r) => r.merge !== false)) {
      await tx
        .update(ref.table)
        .set({ [ref.column.name]: targetId } as never)
        .where(inArray(ref.column, body.source_ids));
    }
    const changes: Partial<ContactInsert> = { ...p.changes, updated_at: now };
    if (p.consentChanged) {
      changes.consent_updated_at = now;
      await tx.insert(contactConsents).values({
        org_id: orgId,
        contact_id: targetId,
        marketing_consent: changes.marketing_consent ?? null,
        source: changes.consent_source !== undefined ? changes.consent_source : p.target.consent_source,
        legal_basis: changes.legal_basis !== undefined ? changes.legal_basis : p.target.legal_basis,
        changed_at: now,
      });
    }
    const [target] = await tx
      .update(contacts)
      .set(changes)
      .where(and(eq(contacts.org_id, orgId), eq(contacts.id, targetId)))
      .returning();
    const sources = await tx
      .update(contacts)
      .set({ deleted_at: now, merged_into_id: targetId, updated_at: now })
      .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, body.source_ids)))
      .returning();
    const order = new Map(body.source_ids.map((id, i) => [id, i]));
    sources.sort((a, b) => order.get(a.id)! - order.get(b.id)!);

    const contact = toPublicContact(target!);
    const merged = sources.map(toPublicContact);
    await recordEvents(tx, orgId, 'contact.merged', merged);
    await recordEvent(tx, orgId, 'contact.updated', contact);
    return { contact, sources: merged, moves: p.moves };
  });
}
