import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import type { Db } from './client';
import { rowsQuery } from './prepared';
import { documentItems, documents } from './schema';

let org: TestOrg;
let ids: { sealed: string; draft: string };

beforeAll(async () => {
  org = await createTestOrg();
  const api = await billingContext(org);
  const contact = await api.contact({ email: 'compta@client.fr' });
  const body = {
    type: 'facture',
    contact_id: contact.id,
    items: [line('Audit', '1.5', 40_000, '20', { unit: 'HUR', details: 'Sur site' }), line('Livre', '3', 1_999, '5.5')],
  };
  ids = { sealed: (await api.issued(body)).id, draft: (await api.draft(body)).id };
});

let builds = 0;
const byKey = (db: Db) => {
  builds++;
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.org_id, sql.placeholder('org_id')), eq(documents.id, sql.placeholder('id'))));
};
const documentRow = rowsQuery(documents, byKey);
const lockedDocumentRow = rowsQuery(documents, (db) => byKey(db).for('update'));
const itemRows = rowsQuery(documentItems, (db) =>
  db.select().from(documentItems).where(eq(documentItems.document_id, sql.placeholder('document_id'))).orderBy(asc(documentItems.position)),
);

describe('rowsQuery', () => {
  it('returns the rows Drizzle’s own select returns, decoded alike (dates, timestamps, jsonb, numerics), for the values given', async () => {
    for (const id of [ids.sealed, ids.draft]) {
      const expected = await org.db.select().from(documents).where(eq(documents.id, id));
      const rows = await documentRow(org.db, { org_id: org.org.id, id });
      expect(rows).toEqual(expected);
    }
    const [sealed] = await documentRow(org.db, { org_id: org.org.id, id: ids.sealed });
    expect(sealed!.finalized_at).toBeInstanceOf(Date);
    expect(sealed!.issue_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sealed!.total_ttc).toBe(Math.round(1.5 * 40_000 * 1.2) + Math.round(3 * 1_999 * 1.055));
    expect((sealed!.client_snapshot as { email: string }).email).toBe('compta@client.fr');

    const items = await itemRows(org.db, { document_id: ids.sealed });
    expect(items.map((i) => [i.description, i.quantity, i.vat_rate, i.details])).toEqual([
      ['Audit', '1.5', '20.00', 'Sur site'],
      ['Livre', '3', '5.50', null],
    ]);
    expect(items).toEqual(await org.db.select().from(documentItems).where(eq(documentItems.document_id, ids.sealed)).orderBy(asc(documentItems.position)));
  });

  it('is scoped by its values: another org’s id finds nothing', async () => {
    const other = await createTestOrg();
    expect(await documentRow(org.db, { org_id: other.org.id, id: ids.sealed })).toEqual([]);
  });

  it('runs in the transaction it is given: it sees the transaction’s writes, and its lock is the transaction’s', async () => {
    await org.db.transaction(async (tx) => {
      await tx.update(documents).set({ title: 'Titre dans la transaction' }).where(eq(documents.id, ids.draft));
      const [row] = await lockedDocumentRow(tx, { org_id: org.org.id, id: ids.draft });
      expect(row!.title).toBe('Titre dans la transaction');
      // Only PostgreSQL has other sessions to be refused the lock (PGlite runs one connection).
      if (process.env.DATABASE_URL) {
        await expect(org.db.execute(sql`SELECT id FROM documents WHERE id = ${ids.draft} FOR UPDATE NOWAIT`)).rejects.toThrow();
      }
      tx.rollback();
    }).catch((err) => {
      if (!String(err).includes('Rollback')) throw err;
    });
    const [after] = await documentRow(org.db, { org_id: org.org.id, id: ids.draft });
    expect(after!.title).not.toBe('Titre dans la transaction');
  });

  it('builds each query once, whatever handle runs it', async () => {
    const before = builds;
    for (let i = 0; i < 3; i++) {
      await documentRow(org.db, { org_id: org.org.id, id: ids.sealed });
      await org.db.transaction((tx) => lockedDocumentRow(tx, { org_id: org.org.id, id: ids.sealed }));
    }
    expect(builds).toBe(before);
  });
});
