import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, emails, events, invoiceSettings } from '@/db/schema';
import { addDays, daysBetween, todayParis } from '@/lib/platform/dates';
import { paymentTerms } from '@/lib/domain/facturx';
import { invoiceModelOf, loadDocument, loadItems } from '@/lib/domain/documents';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { type EmittedEvent, NOT_EMITTED_YET, recordEvent } from '@/lib/platform/events';
import { connectedStripe } from '@/lib/domain/payments/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { closeSignedQuote, installmentDueDate, installmentShares } from './close-sale';
import { closeOnSignature, closeSignedQuoteJob } from './jobs';

/*
 * A completed signature of a quote closes the sale. The event `signature.envelope.completed` writes the job through
 * the fan-out; the job is run here as a worker would (its handler, with the data the subscription builds), against
 * the fake Stripe (the org takes payments) and the e-mail outbox.
 */
const ctx = connectedStripe({ storage: true });
let b: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  b = await billingContext(ctx.org);
});

type Flags = { convert?: boolean; finalize?: boolean; send?: boolean };
async function setFlags(org: TestOrg, { convert = false, finalize = false, send = false }: Flags) {
  const values = { auto_convert_signed_quotes: convert || finalize || send, auto_finalize_signed_invoices: finalize || send, auto_send_signed_invoices: send };
  await org.db
    .insert(invoiceSettings)
    .values({ org_id: org.org.id, ...values })
    .onConflictDoUpdate({ target: invoiceSettings.org_id, set: values });
}

async function signedQuote(api: typeof b, plan: Record<string, unknown> = {}, email: string | null = 'achat@client.example') {
  const client = await api.contact({ email });
  return api.issued({ type: 'devis', contact_id: client.id, items: [line('Rénovation', '1', 100000), line('Peinture', '3', 10000, '10')], ...plan });
}

/** What the fan-out gives the subscriber for a completed envelope (the contract's payload). */
const completed = (org: TestOrg, quoteId: string, sourceKind = 'devis'): EmittedEvent => {
  const envelopeId = crypto.randomUUID();
  return {
    id: crypto.randomUUID(),
    org_id: org.org.id,
    type: 'signature.envelope.completed',
    object: { id: envelopeId, envelope_id: envelopeId, status: 'completed', source_kind: sourceKind, source_document_id: quoteId, signer_count: 1 },
  };
};
/** The job a worker runs for that event. */
const deliver = async (org: TestOrg, event: EmittedEvent) => closeSignedQuoteJob.handle(closeOnSignature.data(event) as never, { db: org.db, jobId: 'test', attempt: 1 });

const familyOf = (org: TestOrg, quoteId: string) =>
  org.db
    .select()
    .from(documents)
    .where(and(eq(documents.org_id, org.org.id), sql`(${documents.converted_from_id} = ${quoteId} or ${documents.parent_devis_id} = ${quoteId})`))
    .orderBy(asc(documents.created_at), asc(documents.id));
const mailsOf = (org: TestOrg, documentId: string) => org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.document_id, documentId)));
const quoteOf = async (org: TestOrg, id: string) => (await org.db.select().from(documents).where(eq(documents.id, id)))[0]!;

/** The values the PDF prints and the Factur-X states (lib/domain/pdf builds its model from these). */
const printedModel = async (org: TestOrg, id: string) => {
  const doc = await loadDocument(org.db, org.org.id, id);
  return invoiceModelOf(org.db, org.org.id, doc, await loadItems(org.db, org.org.id, id));
};

describe('a signed quote closes the sale', () => {
  it('accepted, converted, finalized and e-mailed with the payment link; a replay does nothing twice', async () => {
    await setFlags(ctx.org, { send: true });
    const quote = await signedQuote(b);
    const event = completed(ctx.org, quote.id);
    expect(closeOnSignature.when?.(event)).toBe(true);
    await deliver(ctx.org, event);

    expect((await quoteOf(ctx.org, quote.id)).status).toBe('accepted');
    const [invoice, ...more] = await familyOf(ctx.org, quote.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ type: 'facture', status: 'sent', converted_from_id: quote.id, number: expect.stringMatching(/^FAC-/), total_ttc: quote.total_ttc });
    const mails = await mailsOf(ctx.org, invoice!.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: 'document_sent', to: ['achat@client.example'] });
    expect((mails[0]!.template_data as { pay_url: string | null }).pay_url).toMatch(/\/pay\//);

    // The same event delivered again, and two deliveries at once: nothing more.
    await deliver(ctx.org, event);
    await Promise.all([deliver(ctx.org, event), deliver(ctx.org, completed(ctx.org, quote.id))]);
    expect(await familyOf(ctx.org, quote.id)).toHaveLength(1);
    expect(await mailsOf(ctx.org, invoice!.id)).toHaveLength(1);
    const written = (await ctx.org.db.select().from(events).where(eq(events.org_id, ctx.org.org.id))).map(
      (e) => `${e.type} ${(e.payload as { object: { id: string } }).object.id}`,
    );
    for (const [type, id] of [
      ['quote.accepted', quote.id],
      ['quote.converted', invoice!.id],
      ['invoice.finalized', invoice!.id],
      ['invoice.sent', invoice!.id],
    ]) {
      expect(written.filter((w) => w === `${type} ${id}`), type).toHaveLength(1);
    }
  });

  it('an org that takes no payments: the invoice is e-mailed without a payment link', async () => {
    const org = await createTestOrg();
    const api = await billingContext(org);
    await setFlags(org, { send: true });
    const quote = await signedQuote(api);
    await deliver(org, completed(org, quote.id));
    const [invoice] = await familyOf(org, quote.id);
    expect(invoice).toMatchObject({ type: 'facture', status: 'sent' });
    const [mail] = await mailsOf(org, invoice!.id);
    expect((mail!.template_data as { pay_url: string | null }).pay_url).toBeNull();
  });

  it('each flag stops the cascade at its step: none → accepted only; convert → a draft; finalize → finalized, not sent', async () => {
    const org = await createTestOrg();
    const api = await billingContext(org);
    const run = async (flags: Flags) => {
      await setFlags(org, flags);
      const quote = await signedQuote(api);
      await deliver(org, completed(org, quote.id));
      expect((await quoteOf(org, quote.id)).status).toBe('accepted');
      return familyOf(org, quote.id);
    };
    expect(await run({})).toEqual([]);
    expect((await run({ convert: true })).map((d) => [d.type, d.status])).toEqual([['facture', 'draft']]);
    const [finalized] = await run({ finalize: true });
    expect(finalized).toMatchObject({ type: 'facture', status: 'finalized', sent_at: null });
    expect(await mailsOf(org, finalized!.id)).toEqual([]);
  });

  it('deposit_then_balance: the deposit invoice of the plan’s percentage, finalized and sent; the balance later deducts it', async () => {
    await setFlags(ctx.org, { send: true });
    const quote = await signedQuote(b, { payment_plan_kind: 'deposit_then_balance', payment_plan_config: { percentage: '30' } });
    await deliver(ctx.org, completed(ctx.org, quote.id));
    await deliver(ctx.org, completed(ctx.org, quote.id));
    const family = await familyOf(ctx.org, quote.id);
    expect(family).toHaveLength(1);
    expect(family[0]).toMatchObject({ type: 'acompte', status: 'sent', acompte_percentage: '30', parent_devis_id: quote.id, due_date: todayParis() });
    expect(family[0]!.total_ttc).toBe(Math.round(quote.total_ttc * 0.3));
    expect(await mailsOf(ctx.org, family[0]!.id)).toHaveLength(1);
    // The balance: converting the quote deducts the deposit.
    const balance = b.expectStatus(await b.convert(quote.id), 201, 'convert');
    expect(balance.total_ttc).toBe(quote.total_ttc - family[0]!.total_ttc);
  });

  it('installments: count deposit invoices sharing 100 %, falling due month after month, each finalized and sent once', async () => {
    await setFlags(ctx.org, { send: true });
    const quote = await signedQuote(b, { payment_plan_kind: 'installments', payment_plan_config: { count: 3 } });
    await deliver(ctx.org, completed(ctx.org, quote.id));
    await deliver(ctx.org, completed(ctx.org, quote.id));
    const family = await familyOf(ctx.org, quote.id);
    const today = todayParis();
    expect(family.map((d) => [d.type, d.status, d.acompte_percentage, d.issue_date, d.due_date])).toEqual([
      ['acompte', 'sent', '33.33', today, today],
      ['acompte', 'sent', '33.33', today, installmentDueDate(today, 1)],
      ['acompte', 'sent', '33.34', today, installmentDueDate(today, 2)],
    ]);
    // Numbered in due order; the three together bill the quote (within the per-group rounding of each share).
    expect(family.map((d) => d.number)).toEqual([...family.map((d) => d.number)].sort());
    expect(Math.abs(family.reduce((sum, d) => sum + d.total_ttc, 0) - quote.total_ttc)).toBeLessThanOrEqual(2);
    for (const d of family) expect(await mailsOf(ctx.org, d.id)).toHaveLength(1);
  });

  it('issue 34: each deposit and installment stores the payment terms it prints, not the quote’s « 30 jours »', async () => {
    await setFlags(ctx.org, { finalize: true });
    const today = todayParis();
    const quote = await signedQuote(b, { payment_plan_kind: 'installments', payment_plan_config: { count: 3 }, payment_terms: '30 jours' });
    await deliver(ctx.org, completed(ctx.org, quote.id));
    const family = await familyOf(ctx.org, quote.id);
    expect(family.map((d) => [d.status, d.due_date, d.payment_terms])).toEqual([
      ['finalized', today, 'Payable à réception'],
      ['finalized', installmentDueDate(today, 1), `Paiement à ${daysBetween(today, installmentDueDate(today, 1))} jours`],
      ['finalized', installmentDueDate(today, 2), `Paiement à ${daysBetween(today, installmentDueDate(today, 2))} jours`],
    ]);
    for (const d of family) {
      // The API answers the stored text, and what the PDF and the Factur-X derive from the document is that same text.
      expect((await b.get(d.id)).body.payment_terms).toBe(d.payment_terms);
      expect(paymentTerms(await printedModel(ctx.org, d.id))).toBe(d.payment_terms);
    }
    // deposit_then_balance: the deposit is due on receipt and says so; the balance (the quote converted) keeps terms that give its due date.
    const planned = await signedQuote(b, { payment_plan_kind: 'deposit_then_balance', payment_plan_config: { percentage: '30' }, payment_terms: '30 jours' });
    await deliver(ctx.org, completed(ctx.org, planned.id));
    const [deposit] = await familyOf(ctx.org, planned.id);
    expect([deposit!.due_date, deposit!.payment_terms]).toEqual([today, 'Payable à réception']);
    const balance = b.expectStatus(await b.convert(planned.id), 201, 'convert');
    expect([balance.payment_terms, balance.due_date]).toEqual(['30 jours', addDays(balance.issue_date, 30)]);
    expect(paymentTerms(await printedModel(ctx.org, balance.id))).toBe('30 jours');
  });

  it('a refusal stops the cascade at its step and keeps the earlier ones; a replay resumes', async () => {
    const org = await createTestOrg();
    const api = await billingContext(org);
    await setFlags(org, { send: true });
    const quote = await signedQuote(api, {}, null);
    const first = await closeSignedQuote(org.db, org.org.id, quote.id);
    expect(first.stopped).toMatchObject({ step: 'send', code: 'no_recipient' });
    const [invoice] = await familyOf(org, quote.id);
    expect(invoice).toMatchObject({ type: 'facture', status: 'finalized' });
    expect((await quoteOf(org, quote.id)).status).toBe('accepted');
    const again = await closeSignedQuote(org.db, org.org.id, quote.id);
    expect(again).toMatchObject({ accepted: true, invoice_ids: [invoice!.id], stopped: { step: 'send' } });
    expect(await familyOf(org, quote.id)).toHaveLength(1);
  });

  it('an envelope around an uploaded document or an invoice writes no job', () => {
    expect(closeOnSignature.when?.(completed(ctx.org, crypto.randomUUID(), 'document'))).toBe(false);
    expect(closeOnSignature.when?.(completed(ctx.org, crypto.randomUUID(), 'facture'))).toBe(false);
  });

  it.skipIf(NOT_EMITTED_YET.includes('signature.envelope.completed'))('recording the event writes the job in its transaction', async () => {
    const quote = await signedQuote(b);
    const { object } = completed(ctx.org, quote.id);
    await recordEvent(ctx.org.db, ctx.org.org.id, 'signature.envelope.completed', object);
    const jobs = (await ctx.org.db.execute(
      sql`select data from pgboss.job where name = ${closeSignedQuoteJob.name} and data->>'quote_id' = ${quote.id}`,
    )) as unknown as { rows: Array<{ data: unknown }> };
    expect(jobs.rows).toEqual([{ data: { org_id: ctx.org.org.id, quote_id: quote.id, envelope_id: (object as { envelope_id: string }).envelope_id } }]);
  });
});

describe('installment dates and shares', () => {
  it('shares sum to 100 with the remainder on the last; due dates keep the day of month, clamped to short months', () => {
    expect(installmentShares(3)).toEqual(['33.33', '33.33', '33.34']);
    expect(installmentShares(4)).toEqual(['25', '25', '25', '25']);
    expect(installmentShares(1)).toEqual(['100']);
    expect([0, 1, 2, 3].map((k) => installmentDueDate('2027-01-31', k))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
  });
});
