import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reminders } from '@/db/schema';
import { routes as billingRoutes } from '@/lib/domain/documents/testing';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { dispatchDueReminders } from './dispatch';
import { parisInstant } from './ladder';
import { addManualReminder } from './reminders';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { remindersContext, useTempStorage } from './testing';
import { reminderTracking } from './tracking';

/**
 * The tracking order on a hand-made org, the clock on Monday 1 March 2027 at 10:00 in Paris. Invoices are issued
 * on chosen days with chosen due dates; ladders come from sending them (default ladder, 9:00 in Paris) and from
 * manual reminders; the dispatcher runs up to "now".
 */
const NOW = parisInstant('2027-03-01', 10);

let org: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let cleanup: () => Promise<void>;
beforeAll(async () => {
  cleanup = await useTempStorage();
  org = await createTestOrg();
  api = await remindersContext(org);
  client = await api.contact({ company: 'Client SARL', email: 'compta@client.example' });
});
afterAll(() => cleanup());

/** An invoice issued on `issued` (10:00 Paris), due `dueInDays` later, sent that day; the dispatcher then runs at NOW. */
async function chased(issued: string, dueInDays: number, amount = 10000) {
  const at = parisInstant(issued, 10);
  const inv = await api.issuedAt(at, client.id, { dueInDays, amount });
  await sendDocument(org.db, org.org.id, inv.id, SendDocumentInput.parse({}), at);
  return inv;
}
const tracking = async () => (await reminderTracking(org.db, org.org.id, NOW)).items;

describe('GET /v1/invoices/reminders/tracking', () => {
  it('orders exhausted ladders first, then the most overdue, then the soonest next reminder, ties by oldest document', async () => {
    const ladder = async (offsets?: number[]) =>
      api.expectStatus(
        await call(billingRoutes.putSettings, 'PUT', '/v1/invoice/settings', { token: api.token, body: offsets ? { payment_reminder_offsets: offsets } : {} }),
        200,
        'settings',
      );
    // Exhausted and overdue by 40 and 35 days (due 20 and 25 January), a one-step ladder each, sent.
    await ladder([1]);
    const ex40 = await chased('2027-01-10', 10);
    const ex35 = await chased('2027-01-15', 10);
    // Exhausted but not due yet (due 2 March): a single step five days before.
    await ladder([-5]);
    const exSoon = await chased('2027-02-20', 10);
    await ladder();
    // Pending and overdue: due 10 February (19 days) twice — a tie broken by the next reminder — and 20 February (9 days).
    const od19a = await chased('2027-01-31', 10); // next: its +30 step on 12 March
    const od19b = await chased('2027-01-31', 10);
    await addManualReminder(org.db, org.org.id, od19b.id, {}, parisInstant('2027-03-05', 9)); // next: 5 March
    const od9 = await chased('2027-02-10', 10); // next: its +15 step, 7 March, a Sunday: Monday 8
    // Not overdue (days_overdue 0, all tied): by next reminder. Two identical ones: the older document first.
    const soonA = await chased('2027-02-24', 14); // due 10 March, next: its -3 step, Sunday 7 March: Monday 8
    const soonB = await chased('2027-02-24', 14);
    const later = await chased('2027-02-28', 20); // due 20 March, next: 17 March
    const due3 = await chased('2027-02-19', 12); // due 3 March, its -3 step sent, next: +1 on 4 March
    await dispatchDueReminders(org.db, { now: NOW, orgId: org.org.id });

    const rows = await tracking();
    expect(rows.map((r) => r.document_id)).toEqual([ex40.id, ex35.id, exSoon.id, od19b.id, od19a.id, od9.id, due3.id, soonA.id, soonB.id, later.id]);
    expect(rows.map((r) => [r.days_overdue, r.exhausted, r.sent_count, r.pending_count])).toEqual([
      [40, true, 1, 0],
      [35, true, 1, 0],
      [0, true, 1, 0],
      [19, false, 1, 2],
      [19, false, 1, 1],
      [9, false, 1, 2],
      [0, false, 1, 4],
      [0, false, 0, 5],
      [0, false, 0, 5],
      [0, false, 0, 5],
    ]);
    expect(rows.map((r) => r.next_at)).toEqual([
      null,
      null,
      null,
      ...['2027-03-05', '2027-03-12', '2027-03-08', '2027-03-04', '2027-03-08', '2027-03-08', '2027-03-17'].map((day) => parisInstant(day, 9).toISOString()),
    ]);
    expect(rows[0]).toMatchObject({ number: ex40.number, contact_name: 'Client SARL', due_date: '2027-01-20', total_ttc_cents: 12000, balance_cents: 12000 });
  });

  it('shows what is still owed, and leaves out the settled: paid, cancelled, fully credited, quotes', async () => {
    const partial = await chased('2027-02-01', 10);
    await api.pay(partial.id, { amount: 2000 });
    const paid = await chased('2027-02-01', 10);
    await api.pay(paid.id, { amount: 12000 });
    const cancelled = await chased('2027-02-01', 10);
    await api.cancel(cancelled.id);
    const credited = await chased('2027-02-01', 10);
    await api.finalize((await api.creditNote(credited.id, { credit_reason_code: 'billing_error' })).body.id);
    const quote = await api.issuedAt(parisInstant('2027-02-25', 10), client.id, { type: 'devis', dueInDays: 20 });
    await sendDocument(org.db, org.org.id, quote.id, SendDocumentInput.parse({}), parisInstant('2027-02-25', 10));

    const rows = await tracking();
    const ids = rows.map((r) => r.document_id);
    expect(rows.find((r) => r.document_id === partial.id)).toMatchObject({ total_ttc_cents: 12000, balance_cents: 10000 });
    for (const gone of [paid, cancelled, credited, quote]) expect(ids).not.toContain(gone.id);
    expect(rows.every((r) => r.balance_cents > 0 && r.days_overdue >= 0)).toBe(true);
  });

  it('names the client as invoiced, and null once the contact is deleted', async () => {
    const leaving = await api.contact({ company: 'Départ SARL', email: 'depart@client.example' });
    const at = parisInstant('2027-02-15', 10);
    const inv = await api.issuedAt(at, leaving.id, { dueInDays: 5 });
    await sendDocument(org.db, org.org.id, inv.id, SendDocumentInput.parse({}), at);
    expect((await tracking()).find((r) => r.document_id === inv.id)?.contact_name).toBe('Départ SARL');
    await call(contactRoutes.delete, 'DELETE', `/v1/contacts/${leaving.id}`, { token: api.token, params: { id: leaving.id } });
    expect((await tracking()).find((r) => r.document_id === inv.id)?.contact_name).toBeNull();
  });

  it('answers at most 20 rows', async () => {
    for (let i = 0; i < 22; i++) {
      const inv = await api.issuedAt(parisInstant('2027-02-26', 10), client.id, { dueInDays: 10, amount: 100 + i });
      await addManualReminder(org.db, org.org.id, inv.id, {}, parisInstant('2027-03-02', 9));
    }
    const rows = await tracking();
    expect(rows).toHaveLength(20);
    const pending = await org.db.select({ id: reminders.id }).from(reminders).where(eq(reminders.org_id, org.org.id));
    expect(pending.length).toBeGreaterThan(20);
  });

  it('through the API: the same rows at the real clock, {items}', async () => {
    const res = await api.tracking();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['items']);
    expect(res.body.items.length).toBeLessThanOrEqual(20);
  });
});
