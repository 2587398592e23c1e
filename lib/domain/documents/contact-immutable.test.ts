import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { verifyChain } from './hash-chain';
import { billingContext, documentRow, line } from './testing';

// Issue 33: a finalized document's contact_id follows a real merge of its contact, nothing else (migration 0030). Raw
// SQL, as someone with write access to the database would send it; the merge itself is finalize-path.test.ts's.

type Api = Awaited<ReturnType<typeof billingContext>>;

/** The statement (or its transaction) fails, with the trigger's message. */
const refused = async (statement: Promise<unknown>) => {
  const error = await statement.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected the contact trigger to refuse').not.toBeNull();
  expect([String((error as Error).message), String((error as { cause?: Error }).cause?.message ?? '')].join(' | ')).toMatch(/its contact can only follow a merge/);
};

let org: TestOrg;
let api: Api;
let client: { id: string };
let invoice: { id: string; contact_id: string };
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  client = await api.contact();
  invoice = await api.issued({ type: 'facture', contact_id: client.id, items: [line('Audit', '1', 1000)] });
});

const contactOf = async (id: string) => (await documentRow(org.db, id))!.contact_id;

describe('contact_id of a finalized invoice, in SQL', () => {
  it('an UPDATE to another contact throws; on a draft it works', async () => {
    const other = await api.contact({ company: 'Autre Client SA' });
    await refused(org.db.execute(sql`update documents set contact_id = ${other.id} where id = ${invoice.id}`));
    expect(await contactOf(invoice.id)).toBe(client.id);

    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('Brouillon', '1', 500)] });
    await org.db.execute(sql`update documents set contact_id = ${other.id} where id = ${draft.id}`);
    expect(await contactOf(draft.id)).toBe(other.id);
  });

  it('a merge forged by marking the contact merged into another org’s contact is refused', async () => {
    const stranger = await createTestOrg();
    const foreign = await (await billingContext(stranger)).contact({ company: 'Hors Organisation SA' });
    await refused(
      org.db.transaction(async (tx) => {
        await tx.execute(sql`update contacts set merged_into_id = ${foreign.id}, deleted_at = now() where id = ${client.id}`);
        await tx.execute(sql`update documents set contact_id = ${foreign.id} where id = ${invoice.id}`);
      }),
    );
    expect(await contactOf(invoice.id)).toBe(client.id);
  });

  it('a merge forged on a contact still in use (not deleted), or into a merged contact, is refused', async () => {
    const other = await api.contact({ company: 'Faux Doublon SARL' });
    await refused(
      org.db.transaction(async (tx) => {
        await tx.execute(sql`update contacts set merged_into_id = ${other.id} where id = ${client.id}`);
        await tx.execute(sql`update documents set contact_id = ${other.id} where id = ${invoice.id}`);
      }),
    );
    const gone = await api.contact({ company: 'Déjà Fusionné SARL' });
    await refused(
      org.db.transaction(async (tx) => {
        await tx.execute(sql`update contacts set merged_into_id = ${other.id}, deleted_at = now() where id = ${gone.id}`);
        await tx.execute(sql`update contacts set merged_into_id = ${gone.id}, deleted_at = now() where id = ${client.id}`);
        await tx.execute(sql`update documents set contact_id = ${gone.id} where id = ${invoice.id}`);
      }),
    );
    expect(await contactOf(invoice.id)).toBe(client.id);
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });
});
