import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, events } from '@/db/schema';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { addDays, todayParis } from '@/lib/platform/dates';
import { expireQuotes } from './expire-quotes';
import { verifyChain } from './hash-chain';
import { billingContext, eventsOf, line } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
const year = todayParis().slice(0, 4);
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  client = await api.contact();
});

const quoteLines = [line('Pose', '3', 1250, '20'), line('Peinture', '2.5', 899, '5.5'), line('Étude', '1', 10000, '10')];
const quote = (extra: Record<string, unknown> = {}) => api.issued({ type: 'devis', contact_id: client.id, items: quoteLines, ...extra });
const invoice = (extra: Record<string, unknown> = {}) => api.issued({ type: 'facture', contact_id: client.id, items: [line('A', '2', 5000)], ...extra });
const markSent = (id: string) => org.db.update(documents).set({ status: 'sent', sent_at: new Date() }).where(eq(documents.id, id));
const conflictOf = async (res: Promise<{ status: number; body: { code: string } }>) => {
  const r = await res;
  return [r.status, r.body.code];
};

describe('accept and reject (quotes)', () => {
  it('moves a finalized or sent quote to accepted or rejected, with its event', async () => {
    const a = await quote();
    const res = await api.accept(a.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, status: 'accepted', number: a.number, items: expect.any(Array) });
    expect((await eventsOf(org, 'quote.accepted')).at(-1)?.payload).toEqual({ object: res.body });

    const r = await quote();
    await markSent(r.id);
    expect((await api.reject(r.id)).body.status).toBe('rejected');
    expect((await eventsOf(org, 'quote.rejected')).at(-1)?.payload).toMatchObject({ object: { id: r.id, status: 'rejected' } });
  });

  it('refuses a draft (not_finalized), a closed quote, a non-quote and a lapsed quote (invalid_transition)', async () => {
    const draft = await api.draft({ type: 'devis', contact_id: client.id, items: quoteLines });
    expect(await conflictOf(api.accept(draft.id))).toEqual([409, 'not_finalized']);
    expect(await conflictOf(api.reject(draft.id))).toEqual([409, 'not_finalized']);

    const accepted = await quote();
    await api.accept(accepted.id);
    expect(await conflictOf(api.accept(accepted.id))).toEqual([409, 'invalid_transition']);
    expect(await conflictOf(api.reject(accepted.id))).toEqual([409, 'invalid_transition']);

    const rejected = await quote();
    await api.reject(rejected.id);
    expect(await conflictOf(api.accept(rejected.id))).toEqual([409, 'invalid_transition']);

    expect(await conflictOf(api.accept((await invoice()).id))).toEqual([409, 'invalid_transition']);

    const lapsed = await quote({ validity_date: todayParis() });
    await org.db.update(documents).set({ status: 'sent' }).where(eq(documents.id, lapsed.id));
    expect(await expireQuotes(org.db, addDays(todayParis(), 1))).toBeGreaterThanOrEqual(1);
    expect(await conflictOf(api.accept(lapsed.id))).toEqual([409, 'invalid_transition']);
  });
});

describe('expiry (daily job)', () => {
  // The job runs across orgs and the PostgreSQL test database is shared by parallel test files: the dates
  // here stay below the validity of any other file's open quote (today + 10 at the earliest).
  it('expires open quotes past their validity date, with quote.expired; drafts, accepted and in-date quotes stay', async () => {
    const o = await createTestOrg();
    const b = await billingContext(o);
    const c = await b.contact();
    const today = todayParis();
    const open = await b.issued({ type: 'devis', contact_id: c.id, validity_date: today, items: quoteLines });
    const sent = await b.issued({ type: 'devis', contact_id: c.id, validity_date: today, items: quoteLines });
    await o.db.update(documents).set({ status: 'sent' }).where(eq(documents.id, sent.id));
    const later = await b.issued({ type: 'devis', contact_id: c.id, validity_date: addDays(today, 20), items: quoteLines });
    const accepted = await b.issued({ type: 'devis', contact_id: c.id, validity_date: today, items: quoteLines });
    await b.accept(accepted.id);
    const draft = await b.draft({ type: 'devis', contact_id: c.id, validity_date: today, items: quoteLines });

    // The validity date is the last valid day: nothing lapses on it.
    await expireQuotes(o.db, today);
    expect((await b.get(open.id)).body.status).toBe('finalized');

    await expireQuotes(o.db, addDays(today, 1));
    const status = async (id: string) => (await b.get(id)).body.status;
    expect([await status(open.id), await status(sent.id), await status(later.id), await status(accepted.id), await status(draft.id)]).toEqual([
      'expired',
      'expired',
      'finalized',
      'accepted',
      'draft',
    ]);
    expect((await eventsOf(o, 'quote.expired')).map((e) => (e.payload as { object: { id: string } }).object.id).sort()).toEqual([open.id, sent.id].sort());

    expect(await conflictOf(b.convert(open.id))).toEqual([409, 'not_convertible']);
    expect(await conflictOf(b.deposit(open.id, { percentage: '10' }))).toEqual([409, 'not_convertible']);
    expect(await conflictOf(b.cancel(open.id))).toEqual([409, 'not_cancellable']);
    expect(await conflictOf(b.reject(open.id))).toEqual([409, 'invalid_transition']);
  });

  it('is registered as a daily job', async () => {
    const { jobs: jobDefinitions } = await import('@/lib/composition/modules');
    expect(jobDefinitions.find((j) => j.name === 'billing.expire-quotes')).toMatchObject({ cron: '5 0 * * *' });
  });
});

describe('cancel', () => {
  it('cancels a draft and an open or accepted (unconverted) quote without issuing anything', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    expect((await api.cancel(draft.id)).body).toMatchObject({ status: 'cancelled', number: null });
    const q = await quote();
    expect((await api.cancel(q.id)).body).toMatchObject({ status: 'cancelled', number: q.number });
    const accepted = await quote();
    await api.accept(accepted.id);
    expect((await api.cancel(accepted.id)).body.status).toBe('cancelled');
    expect((await eventsOf(org, 'invoice.cancelled')).at(-1)?.payload).toMatchObject({ object: { id: accepted.id, status: 'cancelled' } });
  });

  it('offsets a finalized invoice with a full credit note, issued and finalized in the same transaction', async () => {
    const inv = await api.issued({
      type: 'facture',
      contact_id: client.id,
      items: [...quoteLines, { kind: 'discount', description: 'Remise', unit_price: 500, vat_rate: '20' }],
    });
    await markSent(inv.id);
    const res = await api.cancel(inv.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inv.id, status: 'cancelled', number: inv.number, content_hash: inv.content_hash });

    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, inv.id));
    expect(credit).toMatchObject({
      type: 'avoir',
      status: 'finalized',
      number: expect.stringMatching(new RegExp(`^AV-${year}-\\d{5}$`)),
      credit_reason_code: 'cancellation',
      credit_reason_text: `Annulation de la facture ${inv.number}`,
      total_ht: inv.total_ht,
      total_tva: inv.total_tva,
      total_ttc: inv.total_ttc,
      client_snapshot: inv.client_snapshot,
    });
    const creditView = (await api.get(credit!.id)).body;
    expect(creditView.items.map((i: { description: string; total_ht: number }) => [i.description, i.total_ht])).toEqual(
      inv.items.map((i: { description: string; total_ht: number }) => [i.description, i.total_ht]),
    );
    expect(await conflictOf(api.cancel(inv.id))).toEqual([409, 'not_cancellable']);
    expect(await conflictOf(api.cancel(credit!.id))).toEqual([409, 'not_cancellable']);
    expect(await conflictOf(api.creditNote(inv.id, { credit_reason_code: 'billing_error' }))).toEqual([409, 'credit_note_exists']);
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });

  it('replaces a draft credit note, but refuses when a finalized one exists', async () => {
    const inv = await invoice();
    const draftCredit = (await api.creditNote(inv.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 1000)] })).body;
    expect((await api.cancel(inv.id)).body.status).toBe('cancelled');
    expect((await api.get(draftCredit.id)).body.status).toBe('cancelled');
    const live = await org.db.select().from(documents).where(and(eq(documents.avoir_for_id, inv.id), eq(documents.status, 'finalized')));
    expect(live).toHaveLength(1);
    expect(live[0]?.total_ttc).toBe(inv.total_ttc);

    const inv2 = await invoice();
    const partial = (await api.creditNote(inv2.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 1000)] })).body;
    await api.finalize(partial.id);
    expect(await conflictOf(api.cancel(inv2.id))).toEqual([409, 'credit_note_exists']);
    expect((await api.get(inv2.id)).body.status).toBe('finalized');
  });

  it('offsets a deposit invoice too, and refuses every terminal status', async () => {
    const q = await quote();
    const dep = (await api.deposit(q.id, { percentage: '30' })).body;
    await api.finalize(dep.id);
    expect((await api.cancel(dep.id)).body.status).toBe('cancelled');
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, dep.id));
    expect(credit).toMatchObject({ status: 'finalized', total_ttc: dep.total_ttc, credit_reason_text: `Annulation de la facture d’acompte ${(await api.get(dep.id)).body.number}` });

    const paid = await invoice();
    await api.pay(paid.id, { amount: paid.total_ttc });
    expect(await conflictOf(api.cancel(paid.id))).toEqual([409, 'not_cancellable']);
    const rejected = await quote();
    await api.reject(rejected.id);
    expect(await conflictOf(api.cancel(rejected.id))).toEqual([409, 'not_cancellable']);
    const converted = await quote();
    await api.accept(converted.id);
    await api.convert(converted.id);
    expect(await conflictOf(api.cancel(converted.id))).toEqual([409, 'not_cancellable']);
  });
});

describe('duplicate', () => {
  it('copies a quote or an invoice into a new draft dated today; refuses deposits and credit notes', async () => {
    const q = await quote({ title: 'Original', issue_date: '2026-01-05' });
    const res = await api.duplicate(q.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'devis',
      status: 'draft',
      number: null,
      title: 'Original',
      issue_date: todayParis(),
      validity_date: addDays(todayParis(), 30),
      total_ttc: q.total_ttc,
      content_hash: null,
    });
    expect(res.body.items.map((i: { description: string }) => i.description)).toEqual(['Pose', 'Peinture', 'Étude']);
    expect((await api.duplicate((await invoice()).id)).body).toMatchObject({ type: 'facture', status: 'draft' });

    const dep = (await api.deposit(q.id, { percentage: '10' })).body;
    expect(await conflictOf(api.duplicate(dep.id))).toEqual([409, 'not_duplicable']);
  });
});

describe('deposit (acompte) from a quote', () => {
  it('prorates every VAT group of the quote and links the deposit to it', async () => {
    const q = await quote();
    const res = await api.deposit(q.id, { percentage: '30' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'acompte',
      status: 'draft',
      parent_devis_id: q.id,
      acompte_percentage: '30',
      contact_id: client.id,
      issue_date: todayParis(),
      due_date: todayParis(),
      // 30 % of 37.50, 100.00 and 22.48 → 11.25, 30.00, 6.74; VAT 2.25 + 3.00 + 0.37
      total_ht: 4799,
      total_tva: 562,
      total_ttc: 5361,
    });
    expect(res.body.items.map((i: { vat_rate: string; unit_price: number; quantity: string }) => [i.vat_rate, i.quantity, i.unit_price])).toEqual([
      ['20.00', '1', 1125],
      ['10.00', '1', 3000],
      ['5.50', '1', 674],
    ]);
    expect(res.body.items[0].description).toBe(`Acompte de 30 % sur le devis ${q.number} (TVA 20 %)`);
    const issued = (await api.finalize(res.body.id)).body;
    expect(issued.number).toMatch(new RegExp(`^AC-${year}-\\d{5}$`));
  });

  it('defaults to the quote deposit_request_percentage and keeps the deposits of a quote within 100 %', async () => {
    const q = await quote({ deposit_request_percentage: '40' });
    expect((await api.deposit(q.id, {})).body.acompte_percentage).toBe('40');
    expect((await api.deposit(q.id)).body.acompte_percentage).toBe('40');
    const over = await api.deposit(q.id, { percentage: '20.5' });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'validation_error', field: 'percentage' });
    expect((await api.deposit(q.id, { percentage: '20' })).status).toBe(201);

    const bare = await quote();
    expect((await api.deposit(bare.id, {})).body).toMatchObject({ code: 'validation_error', field: 'percentage' });
    expect((await api.deposit(bare.id, { percentage: '0' })).body).toMatchObject({ field: 'percentage' });
    expect((await api.deposit(bare.id, { percentage: '101' })).body).toMatchObject({ field: 'percentage' });
  });

  it('refuses a draft quote, a non-quote and a converted quote (not_convertible)', async () => {
    const draft = await api.draft({ type: 'devis', contact_id: client.id, items: quoteLines });
    expect(await conflictOf(api.deposit(draft.id, { percentage: '10' }))).toEqual([409, 'not_convertible']);
    expect(await conflictOf(api.deposit((await invoice()).id, { percentage: '10' }))).toEqual([409, 'not_convertible']);
    const q = await quote();
    await api.convert(q.id);
    expect(await conflictOf(api.deposit(q.id, { percentage: '10' }))).toEqual([409, 'not_convertible']);
  });
});

describe('convert-to-facture', () => {
  it('dry_run predicts the invoice, deposits deducted, and writes nothing', async () => {
    const q = await quote();
    const dep = (await api.deposit(q.id, { percentage: '30' })).body;
    await api.finalize(dep.id);
    await api.deposit(q.id, { percentage: '10' }); // a draft deposit is not invoiced yet: not deducted
    const [{ n: docsBefore } = { n: 0 }] = await org.db.select({ n: count() }).from(documents).where(eq(documents.org_id, org.org.id));
    const [{ n: eventsBefore } = { n: 0 }] = await org.db.select({ n: count() }).from(events).where(eq(events.org_id, org.org.id));

    const dry = await api.convert(q.id, undefined, { dry_run: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      type: 'facture',
      status: 'draft',
      converted_from_id: q.id,
      number: null,
      // 20 %: 37.50 − 11.25 = 26.25 → 5.25; 10 %: 70.00 → 7.00; 5.5 %: 22.48 − 6.74 = 15.74 → 0.87
      total_ht: 11199,
      total_tva: 1312,
      total_ttc: 12511,
    });
    const depNumber = (await api.get(dep.id)).body.number;
    expect(dry.body.items.slice(3).map((i: { kind: string; quantity: string; unit_price: number; vat_rate: string; description: string }) => [i.kind, i.quantity, i.unit_price, i.vat_rate, i.description])).toEqual([
      ['discount', '-1', 1125, '20.00', `Déduction de l’acompte ${depNumber} du ${todayParis().split('-').reverse().join('/')}`],
      ['discount', '-1', 3000, '10.00', expect.any(String)],
      ['discount', '-1', 674, '5.50', expect.any(String)],
    ]);
    expect((await api.get(dry.body.id)).status).toBe(404);
    const [{ n: docsAfter } = { n: 0 }] = await org.db.select({ n: count() }).from(documents).where(eq(documents.org_id, org.org.id));
    const [{ n: eventsAfter } = { n: 0 }] = await org.db.select({ n: count() }).from(events).where(eq(events.org_id, org.org.id));
    expect([docsAfter, eventsAfter]).toEqual([docsBefore, eventsBefore]);

    const real = await api.convert(q.id);
    expect(real.status).toBe(201);
    expect({ ...real.body, id: undefined, created_at: undefined, updated_at: undefined, items: undefined }).toEqual({
      ...dry.body,
      id: undefined,
      created_at: undefined,
      updated_at: undefined,
      items: undefined,
    });
    expect((await api.get(q.id)).body.status).toBe('finalized'); // the quote is unchanged
    expect((await eventsOf(org, 'quote.converted')).at(-1)?.payload).toEqual({ object: real.body });
    expect(await conflictOf(api.convert(q.id))).toEqual([409, 'not_convertible']);
    expect(await conflictOf(api.convert(q.id, undefined, { dry_run: 'true' }))).toEqual([409, 'not_convertible']);
  });

  it('refuses a non-quote, a draft, and a cancelled, rejected or expired quote', async () => {
    expect(await conflictOf(api.convert((await invoice()).id))).toEqual([409, 'not_convertible']);
    expect(await conflictOf(api.convert((await api.draft({ type: 'devis', contact_id: client.id, items: quoteLines })).id))).toEqual([409, 'not_convertible']);
    const cancelled = await quote();
    await api.cancel(cancelled.id);
    expect(await conflictOf(api.convert(cancelled.id))).toEqual([409, 'not_convertible']);
    const rejected = await quote();
    await api.reject(rejected.id);
    expect(await conflictOf(api.convert(rejected.id))).toEqual([409, 'not_convertible']);
  });

  it('refuses to issue a draft deposit once its quote is converted (it would be billed twice)', async () => {
    const q = await quote();
    const late = (await api.deposit(q.id, { percentage: '10' })).body;
    await api.convert(q.id);
    expect(await conflictOf(api.finalize(late.id))).toEqual([409, 'not_convertible']);
  });

  it('deducts a deposit net of the credit notes issued on it since', async () => {
    const q = await quote();
    const dep = (await api.finalize((await api.deposit(q.id, { percentage: '30' })).body.id)).body;
    // 5.00 € HT credited on the deposit's 20 % group (its 30 %: 11.25 € HT).
    const credit = (await api.creditNote(dep.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 500, '20')] })).body;
    const creditNumber = (await api.finalize(credit.id)).body.number;

    const invoice = (await api.convert(q.id)).body;
    expect(invoice.items.slice(3).map((i: { unit_price: number; vat_rate: string }) => [i.unit_price, i.vat_rate])).toEqual([
      [625, '20.00'],
      [3000, '10.00'],
      [674, '5.50'],
    ]);
    expect(invoice.items[3].description).toBe(`Déduction de l’acompte ${dep.number} du ${todayParis().split('-').reverse().join('/')} (net de l’avoir ${creditNumber})`);
    // Quote 159.98 € HT − deposit 47.99 € + credited 5.00 € = 116.99 € HT left; VAT 20 %: 31.25 → 6.25, 10 %: 70.00 → 7.00, 5.5 %: 15.74 → 0.87.
    expect(invoice).toMatchObject({ total_ht: 11699, total_tva: 1412, total_ttc: 13111 });
  });

  it('converts again once the previous invoice is cancelled', async () => {
    const q = await quote();
    const first = (await api.convert(q.id)).body;
    await api.cancel(first.id);
    expect((await api.convert(q.id)).status).toBe(201);
  });
});

describe('credit note (avoir)', () => {
  it('credits every line by default, and only what was invoiced per VAT group when lines are given', async () => {
    const inv = await api.issued({ type: 'facture', contact_id: client.id, items: quoteLines });
    const full = await api.creditNote(inv.id, { credit_reason_code: 'billing_error', credit_reason_text: 'Erreur de quantité' });
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({
      type: 'avoir',
      status: 'draft',
      avoir_for_id: inv.id,
      credit_reason_code: 'billing_error',
      credit_reason_text: 'Erreur de quantité',
      total_ht: inv.total_ht,
      total_tva: inv.total_tva,
      total_ttc: inv.total_ttc,
      due_date: null,
    });
    expect(await conflictOf(api.creditNote(inv.id, { credit_reason_code: 'other' }))).toEqual([409, 'credit_note_exists']);
    const sealed = (await api.finalize(full.body.id)).body;
    expect(sealed).toMatchObject({ status: 'finalized', number: expect.stringMatching(/^AV-/), client_snapshot: inv.client_snapshot });

    const inv2 = await api.issued({ type: 'facture', contact_id: client.id, items: quoteLines });
    const over = await api.creditNote(inv2.id, { credit_reason_code: 'return', items: [line('Retour', '1', 3751, '20')] });
    expect(over.body).toMatchObject({ code: 'validation_error', field: 'items.0.unit_price' });
    const wrongRate = await api.creditNote(inv2.id, { credit_reason_code: 'return', items: [line('Retour', '1', 100, '2.1')] });
    expect(wrongRate.body).toMatchObject({ code: 'validation_error', field: 'items.0.vat_rate' });
    const partial = await api.creditNote(inv2.id, { credit_reason_code: 'return', items: [line('Retour', '1', 3750, '20')] });
    expect(partial.body).toMatchObject({ total_ht: 3750, total_tva: 750, total_ttc: 4500 });
    expect((await api.creditNote(inv2.id, { credit_reason_code: 'nope' })).body).toMatchObject({ code: 'validation_error', field: 'credit_reason_code' });
  });

  it('refuses a draft (not_finalized) and anything but an invoice or deposit (not_creditable)', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    expect(await conflictOf(api.creditNote(draft.id, { credit_reason_code: 'other' }))).toEqual([409, 'not_finalized']);
    expect(await conflictOf(api.creditNote((await quote()).id, { credit_reason_code: 'other' }))).toEqual([409, 'not_creditable']);
  });

  it('still credits an invoice whose client was erased since: the credit note names the buyer as invoiced', async () => {
    const gone = await api.contact({ company: 'Bientôt effacé' });
    const inv = await api.issued({ type: 'facture', contact_id: gone.id, items: [line('A', '1', 100)] });
    await call(contactRoutes.erase, 'POST', `/v1/contacts/${gone.id}/erase`, { token: api.token, params: { id: gone.id } });
    const cancelled = await api.cancel(inv.id);
    expect(cancelled.status).toBe(200);
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, inv.id));
    expect(credit?.client_snapshot).toMatchObject({ name: 'Bientôt effacé' });
  });
});

describe('the journey: quote → deposit → accept → convert → finalize → payments until paid → credit note', () => {
  it('goes through every step, and the flow tells the story', async () => {
    const q = await quote({ title: 'Chantier' });
    const dep = (await api.deposit(q.id, { percentage: '30' })).body;
    const depIssued = (await api.finalize(dep.id)).body;
    expect((await api.pay(dep.id, { amount: depIssued.total_ttc, method: 'bank_transfer' })).body.status).toBe('paid');
    expect((await api.accept(q.id)).body.status).toBe('accepted');
    const inv = (await api.convert(q.id)).body;
    const issued = (await api.finalize(inv.id)).body;
    expect(issued.total_ttc).toBe(12511);
    expect((await api.pay(inv.id, { amount: 10000 })).body).toMatchObject({ status: 'sent', total_paid: 10000, remaining_due: 2511 });
    expect((await api.pay(inv.id, { amount: 2511, method: 'cheque', reference: 'CHQ 42' })).body).toMatchObject({
      status: 'paid',
      total_paid: 12511,
      remaining_due: 0,
    });
    const credit = (await api.creditNote(inv.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste commercial', '1', 1000, '20')] })).body;
    const creditIssued = (await api.finalize(credit.id)).body;
    expect((await api.cancel(q.id)).body.code).toBe('not_cancellable');

    const flow = (await api.flow(credit.id)).body;
    expect(flow.root_id).toBe(q.id);
    expect(flow.documents.map((d: { id: string; role: string; status: string }) => [d.id, d.role, d.status])).toEqual([
      [q.id, 'quote', 'accepted'],
      [dep.id, 'deposit', 'paid'],
      [inv.id, 'invoice', 'paid'],
      [credit.id, 'credit_note', 'finalized'],
    ]);
    expect(flow.documents.find((d: { id: string }) => d.id === inv.id)).toMatchObject({ total_paid: 12511, number: issued.number, converted_from_id: q.id });
    const story = flow.history.map((h: { event: string; document_id: string }) => `${h.event}:${[q.id, dep.id, inv.id, credit.id].indexOf(h.document_id)}`);
    expect(story).toEqual([
      'created:0',
      'finalized:0',
      'created:1',
      'finalized:1',
      'payment:1',
      'paid:1',
      'accepted:0',
      'created:2',
      'finalized:2',
      'payment:2',
      'payment:2',
      'paid:2',
      'created:3',
      'finalized:3',
    ]);
    expect(flow.history.find((h: { event: string; amount: number | null }) => h.event === 'payment' && h.amount === 2511)).toMatchObject({ paid_at: todayParis() });
    expect((await api.flow(q.id)).body.documents).toEqual(flow.documents);
    expect(creditIssued.prev_hash).toBeTruthy();
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });
});
