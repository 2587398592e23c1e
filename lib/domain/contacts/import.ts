import { and, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Tx } from '@/db/client';
import { contactConsents, contacts } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { type ContactValues, initialConsents, insertValues, type StoredContact, toPublicContact } from './contacts';
import { recordEvents } from '@/lib/platform/events';
import { type ContactCreate, type ImportSummary, MAX_IMPORT_ROWS, parseImportRow } from './schemas';

/** The columns an INSERT writes: all but the generated ones (search, name_key), which PostgreSQL computes. */
const WRITTEN_COLUMNS = Object.entries(getTableColumns(contacts))
  .filter(([, column]) => !column.generated)
  .map(([name]) => sql.identifier(name));

/**
 * One INSERT of every row from a single jsonb parameter. Drizzle's insert builder spent 0.25 to 1 ms of CPU per
 * 30-column row (most of a 1000-row import); PostgreSQL reads the JSON in a few milliseconds. No RETURNING: the
 * rows are already known, timestamps included.
 */
async function insertMany(tx: Tx, rows: StoredContact[]) {
  // The payload schema refuses NUL and unpaired surrogates, so every string is one jsonb accepts.
  const json = JSON.stringify(rows);
  const columns = sql.join(WRITTEN_COLUMNS, sql`, `);
  await tx.execute(sql`insert into ${contacts} (${columns}) select ${columns} from jsonb_populate_recordset(null::${contacts}, ${json}::jsonb)`);
}

/**
 * Bulk create. Rows are validated one by one (an invalid row is reported, never fatal). Among valid rows,
 * an e-mail already held by a live contact of the org, or by an earlier valid row of the batch, is a
 * duplicate: skipped. The rest is inserted in one transaction, events included, so a database failure
 * writes nothing at all.
 */
export async function importContacts(db: Db, orgId: string, rows: unknown[]): Promise<ImportSummary> {
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new ApiError(413, 'batch_too_large', `At most ${MAX_IMPORT_ROWS} contacts per import; this one has ${rows.length}.`, 'contacts');
  }

  const errors: ImportSummary['errors'] = [];
  const valid: Array<{ index: number; payload: ContactCreate }> = [];
  rows.forEach((row, index) => {
    const parsed = parseImportRow(row);
    if ('reason' in parsed) errors.push({ index, reason: parsed.reason });
    else valid.push({ index, payload: parsed.payload });
  });

  return db.transaction(async (tx) => {
    // Two imports of one org run one after the other, so neither misses the e-mails the other inserts.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`contacts-import:${orgId}`}))`);

    const emails = [...new Set(valid.map((v) => v.payload.email).filter((e): e is string => Boolean(e)))];
    const taken = new Set<string>();
    // Chunked so the parameter list stays far below PostgreSQL's 65535 limit whatever the cap becomes.
    for (let i = 0; i < emails.length; i += 5000) {
      const existing = await tx
        .select({ email: contacts.email })
        .from(contacts)
        .where(and(eq(contacts.org_id, orgId), isNull(contacts.deleted_at), inArray(contacts.email, emails.slice(i, i + 5000))));
      for (const e of existing) if (e.email) taken.add(e.email);
    }

    let skipped = 0;
    const now = new Date();
    const values: Array<ContactValues & { id: string }> = [];
    for (const { payload } of valid) {
      if (payload.email) {
        if (taken.has(payload.email)) {
          skipped++;
          continue;
        }
        taken.add(payload.email);
      }
      // Ids made here, in input order: created_ids is their order, and UUIDv7 keeps it in listings too.
      values.push({ id: uuidv7(), ...insertValues(orgId, payload, now) });
    }

    const ordered: StoredContact[] = values.map((v) => ({ ...v, created_at: now, updated_at: now, deleted_at: null, merged_into_id: null, erased_at: null }));
    if (ordered.length) await insertMany(tx, ordered);
    const consents = initialConsents(ordered);
    if (consents.length) await tx.insert(contactConsents).values(consents);
    await recordEvents(tx, orgId, 'contact.created', ordered.map(toPublicContact));

    return { created: ordered.length, created_ids: ordered.map((r) => r.id), skipped, errors };
  });
}
