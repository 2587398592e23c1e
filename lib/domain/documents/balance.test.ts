import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { balanceSql, remainingDue, remainingDueSql } from './balance';
import { billingContext, line, routes } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
});

/** remaining_due and balance of a document, as the SQL definition computes them. */
async function sqlBalances(id: string) {
  const [row] = await org.db
    .select({ remaining: sql<string>`${remainingDueSql(sql`${documents}`)}`, balance: sql<string>`${balanceSql(sql`${documents}`)}` })
    .from(documents)
    .where(eq(documents.id, id));
  return [Number(row!.remaining), Number(row!.balance)];
}

describe('the balance of a document, defined once', () => {
  it('is the same in the payment answer, the SQL definition and the statistics, to the cent', async () => {
    const contact = await api.contact({ company: 'Solde SARL' });
    // 1 000.00 HT at 20 % = 1 200.00 TTC; 300.00 paid; credited 100.00 HT (120.00 TTC).
    const invoice = await api.issued({ type: 'facture', contact_id: contact.id, items: [line('Audit', '1', 100_000, '20')] });
    const paid = api.expectStatus(await api.pay(invoice.id, { amount: 30_000 }), 201, 'pay');
    expect(paid).toMatchObject({ total_paid: 30_000, remaining_due: 90_000, status: 'sent' });
    expect(remainingDue(invoice, paid.total_paid)).toBe(90_000);
    expect(await sqlBalances(invoice.id)).toEqual([90_000, 90_000]);

    const credit = api.expectStatus(await api.creditNote(invoice.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 10_000, '20')] }), 201, 'credit');
    // A draft credit note changes nothing.
    expect(await sqlBalances(invoice.id)).toEqual([90_000, 90_000]);
    api.expectStatus(await api.finalize(credit.id), 200, 'finalize credit');
    // remaining_due stays the spec's (total − payments); the balance owed deducts the credit note.
    expect(await sqlBalances(invoice.id)).toEqual([90_000, 78_000]);
    const summary = await call(routes.clientSummary, 'GET', '/v1/invoices/client-summary', { token: api.token, query: { contact_id: contact.id } });
    expect(summary.body.outstanding).toEqual({ count: 1, amount: 78_000 });

    // Overpaid: remaining_due negative, and the document paid (remaining_due ≤ 0), out of the outstanding.
    const over = api.expectStatus(await api.pay(invoice.id, { amount: 95_000 }), 201, 'overpay');
    expect(over).toMatchObject({ total_paid: 125_000, remaining_due: -5_000, status: 'paid' });
    expect(await sqlBalances(invoice.id)).toEqual([-5_000, -17_000]);
    const after = await call(routes.clientSummary, 'GET', '/v1/invoices/client-summary', { token: api.token, query: { contact_id: contact.id } });
    expect(after.body.outstanding).toEqual({ count: 0, amount: 0 });
  });
});
