import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayParis } from '@/lib/platform/dates';
import { DocumentListQuery, listDocuments, overdueAmong, summarizeDocuments } from '@/lib/domain/documents';
import { line, routes as billingRoutes } from '@/lib/domain/documents/testing';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { invoiceStats } from '@/lib/domain/stats';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { ladderSteps } from './ladder';
import { scheduleLadder } from './reminders';
import { remindersContext, reminderRows, useTempStorage } from './testing';
import { reminderTracking } from './tracking';

/**
 * Issue 35: « À relancer » left out the overdue invoices that had no reminder (an invoice never sent by e-mail: a
 * 2 160 € invoice 20 days overdue, flagged « en retard » in the list and counted on the dashboard, was absent). One
 * definition of overdue (lib/domain/documents' overdueSql) now serves the documents list (filter and flag), the
 * dashboard and the tracking; « Programmer les relances » arms the ladder in one click. At the real clock: the list's
 * filter and the statistics read today (Europe/Paris) themselves.
 */
const DAY_MS = 86_400_000;
const now = new Date();
const today = todayParis(now);
/** An instant `days` days before now, at 10:00 in Paris that day (away from midnight). */
const daysAgo = (days: number) => new Date(`${todayParis(new Date(now.getTime() - days * DAY_MS))}T10:00:00+01:00`);

let org: TestOrg;
let other: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let otherApi: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let cleanup: () => Promise<void>;
const docs: Record<string, { id: string; number: string | null }> = {};

beforeAll(async () => {
  cleanup = await useTempStorage();
  org = await createTestOrg();
  other = await createTestOrg();
  api = await remindersContext(org);
  otherApi = await remindersContext(other);
  client = await api.contact({ company: 'Studio Nord', email: 'compta@nord.example' });
  const issued = (days: number, dueInDays: number, amount = 10000) => api.issuedAt(daysAgo(days), client.id, { dueInDays, amount });
  const sent = async (days: number, dueInDays: number) => {
    const inv = await issued(days, dueInDays);
    await sendDocument(org.db, org.org.id, inv.id, SendDocumentInput.parse({}), daysAgo(days));
    return inv;
  };
  // The issue's invoice: 1 800 € HT, 2 160 € TTC, issued 50 days ago, due 30 days later: 20 days overdue, never sent.
  docs.unscheduled = await issued(50, 30, 180000);
  docs.withReminders = await sent(40, 30); // 10 days overdue, its ladder armed at sending
  docs.partial = await issued(45, 30);
  api.expectStatus(await api.pay(docs.partial.id, { amount: 5000, paid_at: today, method: 'bank_transfer' }), 201, 'pay');
  docs.paid = await issued(45, 30);
  api.expectStatus(await api.pay(docs.paid.id, { amount: 12000, paid_at: today, method: 'bank_transfer' }), 201, 'pay');
  docs.cancelled = await issued(45, 30);
  api.expectStatus(await api.cancel(docs.cancelled.id), 200, 'cancel');
  docs.credited = await issued(45, 30);
  const note = api.expectStatus(await api.creditNote(docs.credited.id, { credit_reason_code: 'billing_error' }), 201, 'credit note');
  api.expectStatus(await api.finalize(note.id), 200, 'finalize credit note');
  docs.draft = await api.draft({ type: 'facture', contact_id: client.id, issue_date: addDays(today, -40), due_date: addDays(today, -10), items: [line('Brouillon', '1', 10000)] });
  docs.notYetDue = await issued(10, 15);
  docs.dueToday = await issued(30, 30);
  // Quotes, for the dashboard's « Devis en attente de réponse »: two awaiting an answer (one sent), one accepted, one draft.
  const quote = (body: Record<string, unknown> = {}) => api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(today, 30), items: [line('Devis', '1', 30000)], ...body });
  docs.quoteOpen = await quote();
  docs.quoteSent = await quote();
  await sendDocument(org.db, org.org.id, docs.quoteSent!.id, SendDocumentInput.parse({}), now);
  docs.quoteAccepted = await quote();
  api.expectStatus(await api.accept(docs.quoteAccepted!.id), 200, 'accept');
  docs.quoteDraft = await api.draft({ type: 'devis', contact_id: client.id, validity_date: addDays(today, 30), items: [line('Devis', '1', 30000)] });
  // Another org's overdue invoice without reminder: never in this org's figures.
  const stranger = await otherApi.contact({ company: 'Ailleurs', email: 'a@ailleurs.example' });
  docs.stranger = await otherApi.issuedAt(daysAgo(50), stranger.id, { dueInDays: 30 });
});
afterAll(() => cleanup());

const list = async (filters: Record<string, string>) => (await listDocuments(org.db, org.org.id, DocumentListQuery.parse({ limit: '100', ...filters }))).data.map((d) => d.id);
const sorted = (ids: string[]) => [...ids].sort();

describe('« À relancer »: every overdue unpaid invoice, with or without reminders', () => {
  it('lists the overdue invoice that has no reminder, with nothing sent nor pending', async () => {
    const rows = (await reminderTracking(org.db, org.org.id, now)).items;
    const row = rows.find((r) => r.document_id === docs.unscheduled!.id);
    expect(row).toEqual({
      document_id: docs.unscheduled!.id,
      number: docs.unscheduled!.number,
      contact_name: 'Studio Nord',
      due_date: addDays(todayParis(daysAgo(50)), 30),
      days_overdue: 20,
      total_ttc_cents: 216000,
      balance_cents: 216000,
      sent_count: 0,
      pending_count: 0,
      next_at: null,
      exhausted: false,
    });
    // The invoice with its ladder keeps its row, after the one nobody chases (exhausted ladders would come first).
    const ids = rows.map((r) => r.document_id);
    expect(ids.indexOf(docs.unscheduled!.id)).toBeLessThan(ids.indexOf(docs.withReminders!.id));
  });

  it('through the API too, and only for its own org', async () => {
    const mine = await api.tracking();
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((r: { document_id: string }) => r.document_id)).toContain(docs.unscheduled!.id);
    expect(mine.body.items.map((r: { document_id: string }) => r.document_id)).not.toContain(docs.stranger!.id);
    const theirs = await otherApi.tracking();
    expect(theirs.body.items.map((r: { document_id: string }) => r.document_id)).toEqual([docs.stranger!.id]);
  });

  it('agrees with the documents list (filter and « en retard » flag) and the dashboard on what is overdue', async () => {
    const overdue = sorted([docs.unscheduled!.id, docs.withReminders!.id, docs.partial!.id]);
    const tracked = (await reminderTracking(org.db, org.org.id, now)).items.filter((r) => r.days_overdue > 0);
    expect(sorted(tracked.map((r) => r.document_id))).toEqual(overdue);
    expect(sorted(await list({ overdue: 'true' }))).toEqual(overdue);
    // The flag, row by row, over every document of the org (paid, cancelled, credited, draft, not yet due, due today among them).
    expect(sorted([...(await overdueAmong(org.db, org.org.id, Object.values(docs).map((d) => d.id)))])).toEqual(overdue);
    const stats = await invoiceStats(org.db, org.org.id, {});
    expect(stats.overdue).toEqual({ count: 3, amount: tracked.reduce((sum, r) => sum + r.balance_cents, 0) });
    expect(stats.overdue.amount).toBe(216000 + 12000 + 7000);
  });

  it('each dashboard tile counts what its filtered list shows', async () => {
    const stats = await invoiceStats(org.db, org.org.id, {});
    const summary = async (filters: Record<string, string>) =>
      summarizeDocuments(org.db, org.org.id, DocumentListQuery.parse(filters)).then((s) => s.invoices.count + s.quotes.count);
    // En retard → /documents?overdue=true
    expect((await list({ overdue: 'true' })).length).toBe(stats.overdue.count);
    expect(await summary({ overdue: 'true' })).toBe(stats.overdue.count);
    // Encours clients → /documents?outstanding=true: the overdue ones, the one not yet due and the one due today.
    expect(sorted(await list({ outstanding: 'true' }))).toEqual(
      sorted([docs.unscheduled!.id, docs.withReminders!.id, docs.partial!.id, docs.notYetDue!.id, docs.dueToday!.id]),
    );
    expect(stats.outstanding.count).toBe(5);
    expect(await summary({ outstanding: 'true' })).toBe(stats.outstanding.count);
    // Devis en attente de réponse → /documents?awaiting_answer=true&issue_date_from=…&issue_date_to=…: finalized and sent.
    const quotes = { awaiting_answer: 'true', issue_date_from: stats.from, issue_date_to: stats.to };
    expect(sorted(await list(quotes))).toEqual(sorted([docs.quoteOpen!.id, docs.quoteSent!.id]));
    expect(stats.quotes.open.count).toBe(2);
    // The public list answers the same filters.
    const res = await call(billingRoutes.list, 'GET', '/v1/invoices', { token: api.token, query: { outstanding: 'true', limit: '100' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(stats.outstanding.count);
  });
});

describe('« Programmer les relances »: the ladder of an overdue invoice in one click', () => {
  it('arms the org’s ladder as a send does: past steps skipped, the rest pending; then listed with its next reminder', async () => {
    const id = docs.unscheduled!.id;
    const due = addDays(todayParis(daysAgo(50)), 30);
    const expected = ladderSteps([-3, 1, 7, 15, 30], due, now).filter((s) => !s.past);
    const scheduled = await scheduleLadder(org.db, org.org.id, id, now);
    expect(scheduled).toEqual({ scheduled: expected.length, next_at: expected[0]!.scheduled_at.toISOString() });
    expect(scheduled.scheduled).toBe(1); // 20 days overdue: only the +30 step is still ahead
    const rows = await reminderRows(org, id);
    expect(rows.map((r) => [r.kind, r.offset_days, r.status, r.reason])).toEqual([
      ['payment', -3, 'skipped', 'past_at_send'],
      ['payment', 1, 'skipped', 'past_at_send'],
      ['payment', 7, 'skipped', 'past_at_send'],
      ['payment', 15, 'skipped', 'past_at_send'],
      ['payment', 30, 'pending', null],
    ]);
    const row = (await reminderTracking(org.db, org.org.id, now)).items.find((r) => r.document_id === id);
    expect(row).toMatchObject({ days_overdue: 20, sent_count: 0, pending_count: 1, next_at: scheduled.next_at, exhausted: false });
    // Still overdue, by the one definition: the tracking, the list and the dashboard still agree.
    expect((await invoiceStats(org.db, org.org.id, {})).overdue.count).toBe(3);
  });

  it('never doubles a ladder, and refuses what is not chased', async () => {
    await expect(scheduleLadder(org.db, org.org.id, docs.unscheduled!.id, now)).rejects.toMatchObject({ status: 409, code: 'ladder_exists' });
    await expect(scheduleLadder(org.db, org.org.id, docs.withReminders!.id, now)).rejects.toMatchObject({ status: 409, code: 'ladder_exists' });
    await expect(scheduleLadder(org.db, org.org.id, docs.draft!.id, now)).rejects.toMatchObject({ status: 409, code: 'not_finalized' });
    await expect(scheduleLadder(org.db, org.org.id, docs.paid!.id, now)).rejects.toMatchObject({ status: 409, code: 'not_remindable' });
    await expect(scheduleLadder(org.db, org.org.id, docs.cancelled!.id, now)).rejects.toMatchObject({ status: 409, code: 'not_remindable' });
  });

  it('answers 404 for another org’s invoice and for an unknown id, and writes nothing there', async () => {
    await expect(scheduleLadder(org.db, org.org.id, docs.stranger!.id, now)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(scheduleLadder(other.db, other.org.id, docs.partial!.id, now)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(scheduleLadder(org.db, org.org.id, '01900000-0000-7000-8000-000000000000', now)).rejects.toMatchObject({ status: 404 });
    expect(await reminderRows(other, docs.stranger!.id)).toEqual([]);
    expect(await reminderRows(org, docs.partial!.id)).toEqual([]);
  });
});
