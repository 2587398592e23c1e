import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { depositDeductions, documentItems } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { deductedDeposits } from './deposit-deductions';
import { billingContext, line } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let contactId: string;

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  contactId = (await api.contact()).id;
});

const recordOf = async (invoiceId: string) =>
  (
    await org.db
      .select()
      .from(depositDeductions)
      .where(and(eq(depositDeductions.org_id, org.org.id), eq(depositDeductions.document_id, invoiceId)))
      .orderBy(asc(depositDeductions.vat_rate))
  ).map((r) => [r.deposit_id, r.vat_category, r.vat_rate, r.amount]);

/** A finalized quote of 1 000 € at 20 % and 100 € at 5.5 %, a 30 % deposit on it finalized, then partly credited (50 € at 20 %). */
async function quoteWithCreditedDeposit() {
  const quote = await api.issued({ type: 'devis', contact_id: contactId, items: [line('Mobilier', '1', 100_000, '20'), line('Documentation', '1', 10_000, '5.5')] });
  const draft = api.expectStatus(await api.deposit(quote.id, { percentage: '30' }), 201, 'deposit');
  const deposit = api.expectStatus(await api.finalize(draft.id), 200, 'finalize deposit');
  const credit = api.expectStatus(await api.creditNote(deposit.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 5_000, '20')] }), 201, 'credit');
  api.expectStatus(await api.finalize(credit.id), 200, 'finalize credit');
  return { quote, deposit };
}

describe('the deposit deductions recorded at conversion', () => {
  it('are the discount lines the conversion wrote, per deposit and VAT group, net of credit notes; a dry run records nothing', async () => {
    const { quote, deposit } = await quoteWithCreditedDeposit();
    const dry = api.expectStatus(await api.convert(quote.id, undefined, { dry_run: 'true' }), 200, 'dry run');
    expect(await recordOf(dry.id)).toEqual([]);

    const invoice = api.expectStatus(await api.convert(quote.id), 201, 'convert');
    // 30 000 − 5 000 at 20 %, 3 000 at 5.5 %: what the lines deduct, to the cent.
    expect(await recordOf(invoice.id)).toEqual([
      [deposit.id, 'S', '20.00', 25_000],
      [deposit.id, 'S', '5.50', 3_000],
    ]);
    expect(invoice.items.filter((i: { kind: string }) => i.kind === 'discount').map((i: { unit_price: number }) => i.unit_price)).toEqual([25_000, 3_000]);
    const [read] = await deductedDeposits(org.db, org.org.id, invoice.id);
    // 25 000 + 5 000 VAT, 3 000 + 165 VAT.
    expect([read?.deposit.number, read?.total_ht, read?.total_tva, read?.total_ttc]).toEqual([deposit.number, 28_000, 5_165, 33_165]);

    // Deleting the draft invoice takes its record with it, and frees the quote for a new conversion.
    expect((await api.remove(invoice.id)).status).toBe(204);
    expect(await recordOf(invoice.id)).toEqual([]);
  });

  it('are frozen with the invoice once it is finalized, by the database itself', async () => {
    const { quote, deposit } = await quoteWithCreditedDeposit();
    const draft = api.expectStatus(await api.convert(quote.id), 201, 'convert');
    // A draft's record may still change (the conversion wrote it in a transaction of its own).
    await org.db.update(depositDeductions).set({ amount: 24_999 }).where(and(eq(depositDeductions.document_id, draft.id), eq(depositDeductions.vat_rate, '20.00')));
    await org.db.update(depositDeductions).set({ amount: 25_000 }).where(and(eq(depositDeductions.document_id, draft.id), eq(depositDeductions.vat_rate, '20.00')));
    const invoice = api.expectStatus(await api.finalize(draft.id), 200, 'finalize');

    const refused = async (write: () => Promise<unknown>) => {
      const err = await write().then(
        () => null,
        (e: unknown) => e as { cause?: { message?: string }; message?: string },
      );
      return err?.cause?.message ?? err?.message ?? null;
    };
    const ofInvoice = eq(depositDeductions.document_id, invoice.id);
    expect(await refused(() => org.db.update(depositDeductions).set({ amount: 1 }).where(ofInvoice))).toMatch(/finalized billing document .* cannot change/);
    expect(await refused(() => org.db.delete(depositDeductions).where(ofInvoice))).toMatch(/finalized billing document .* cannot change/);
    expect(
      await refused(() =>
        org.db.insert(depositDeductions).values({ org_id: org.org.id, document_id: invoice.id, deposit_id: deposit.id, vat_category: 'S', vat_rate: '10.00', amount: 100 }),
      ),
    ).toMatch(/is finalized: deposit deductions cannot be added/);
    expect(await recordOf(invoice.id)).toEqual([
      [deposit.id, 'S', '20.00', 25_000],
      [deposit.id, 'S', '5.50', 3_000],
    ]);
  });

  it('of invoices converted before the table existed are found again from their discount lines (migration 0014)', async () => {
    const { quote } = await quoteWithCreditedDeposit();
    const draft = api.expectStatus(await api.convert(quote.id), 201, 'convert');
    // Invoices of that time wrote their deduction lines with a straight apostrophe ("Déduction de l'acompte …"), which
    // is what the backfill reads; today's lines have the typographic one.
    await org.db.update(documentItems).set({ description: sql`replace(${documentItems.description}, '’', '''')` }).where(eq(documentItems.document_id, draft.id));
    const invoice = api.expectStatus(await api.finalize(draft.id), 200, 'finalize');
    const migration = await readFile(path.join(import.meta.dirname, '../../../db/migrations/0014_deposit_deductions_immutability.sql'), 'utf8');
    // The backfill's SELECT, as the migration runs it, on this invoice only.
    const backfill = migration.slice(migration.indexOf('SELECT i."org_id"'), migration.indexOf(';', migration.indexOf('SELECT i."org_id"')));
    const { rows } = (await org.db.execute(
      sql`select document_id, deposit_id, vat_category, vat_rate, amount from (${sql.raw(backfill)}) b (org_id, document_id, deposit_id, vat_category, vat_rate, amount)
          where b.org_id = ${org.org.id} and b.document_id = ${invoice.id} order by vat_rate`,
    )) as unknown as { rows: Array<Record<string, unknown>> };
    expect(rows.map((r) => [r.deposit_id, r.vat_category, r.vat_rate, Number(r.amount)])).toEqual(await recordOf(invoice.id));
    expect(rows.map((r) => r.document_id)).toEqual([invoice.id, invoice.id]);
  });
});
