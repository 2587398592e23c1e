import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as setupRoute from '@/app/v1/invoices/[id]/sepa-mandate-setup/route';
import { emails, events, onlinePayments, reminders } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, documentRow, line } from '@/lib/domain/documents/testing';
import { connectedStripe } from '@/lib/domain/payments/testing';
import { call } from '@/lib/testing/http';
import { deliverGeneration } from './deliver';
import { generateDueTemplates } from './schedule';
import { generationsOf, recurringApi, templateBody, templateRow } from './testing';

/*
 * auto_send and auto_collect_sepa against the fake Stripe (its real SDK pointed at a local server) and the e-mail
 * outbox. Dates are today's: finalizing dates an invoice today.
 */
const ctx = connectedStripe({ storage: true, webhook: true });
let b: Awaited<ReturnType<typeof billingContext>>;
let api: ReturnType<typeof recurringApi>;
beforeAll(async () => {
  b = await billingContext(ctx.org);
  api = recurringApi(b.token);
});

const today = () => todayParis();
/** A client with a signed SEPA mandate (set up through an invoice of theirs, as staff do). */
async function clientWithMandate(email: string | null = 'compta@abonne.example') {
  const client = await b.contact({ email });
  const invoice = await b.issued({ type: 'facture', contact_id: client.id, due_date: addDays(today(), 30), items: [line('Mise en service', '1', 10000)] });
  const res = await call(setupRoute.POST, 'POST', `/v1/invoices/${invoice.id}/sepa-mandate-setup`, { token: b.token, params: { id: invoice.id } });
  const done = await ctx.fake.completeSetup(res.body.setup_url.split('/checkout/')[1]);
  return { client, mandate: done.mandate };
}
async function scheduled(templateId: string) {
  const made = await generateDueTemplates(ctx.org.db, { orgId: ctx.org.org.id });
  const mine = made.filter((m) => m.generation.template_id === templateId);
  expect(mine).toHaveLength(1);
  return mine[0]!.generation;
}
const debitsOf = (documentId: string) =>
  ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && (r.body.metadata as { document_id?: string })?.document_id === documentId);
const emailsOf = (documentId: string) => ctx.org.db.select().from(emails).where(and(eq(emails.org_id, ctx.org.org.id), eq(emails.document_id, documentId)));
const failedEvents = async (templateId: string) =>
  (await ctx.org.db.select().from(events).where(and(eq(events.org_id, ctx.org.org.id), eq(events.type, 'recurring_invoice.failed'))))
    .map((e) => (e.payload as { object: { template_id: string } }).object)
    .filter((o) => o.template_id === templateId);

describe('auto_send and auto_collect_sepa', () => {
  it('finalizes, e-mails with the payment link, then debits the mandate once; a replay debits nothing more', async () => {
    const { client } = await clientWithMandate();
    const t = (await api.create(templateBody(client.id, { next_generation_date: today(), auto_send: true, auto_collect_sepa: true }))).body;
    const gen = await scheduled(t.id);
    expect(gen).toMatchObject({ status: 'generated', source: 'schedule' });
    // The scheduled generation wrote its delivery job with it.
    const delivered = (await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id))!;
    expect(delivered).toMatchObject({ status: 'sent', collect_status: 'processing', online_payment_id: expect.any(String), error: null });
    const doc = (await documentRow(ctx.org.db, gen.document_id!))!;
    expect(doc).toMatchObject({ type: 'facture', status: 'sent', number: expect.stringMatching(/^FAC-/), total_ttc: 144000 });
    const [mail] = await emailsOf(doc.id);
    expect(mail).toMatchObject({ template: 'document_sent', to: ['compta@abonne.example'] });
    expect((mail!.template_data as { pay_url: string | null }).pay_url).toMatch(/\/pay\//);
    const [debit] = await ctx.org.db.select().from(onlinePayments).where(eq(onlinePayments.document_id, doc.id));
    expect(debit).toMatchObject({ id: delivered.online_payment_id, method: 'sepa_debit', status: 'processing', amount: 144000, mandate_attempt: 1 });
    expect(debitsOf(doc.id)).toHaveLength(1);

    expect(await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id)).toMatchObject({ status: 'sent', collect_status: 'processing' });
    expect(debitsOf(doc.id)).toHaveLength(1);
    expect(await emailsOf(doc.id)).toHaveLength(1);
  });

  it('never debits without auto_collect_sepa, even with an active mandate', async () => {
    const { client } = await clientWithMandate();
    const t = (await api.create(templateBody(client.id, { next_generation_date: today(), auto_send: true }))).body;
    const gen = await scheduled(t.id);
    expect(await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id)).toMatchObject({ status: 'sent', collect_status: null, online_payment_id: null });
    expect(debitsOf(gen.document_id!)).toEqual([]);
    expect((await documentRow(ctx.org.db, gen.document_id!))!.status).toBe('sent');
  });

  it('a revoked mandate: the invoice is sent and left to its reminders; the failed debit is on the generation and the template', async () => {
    const { client, mandate } = await clientWithMandate();
    await ctx.fake.updateMandate(mandate, 'inactive');
    const t = (await api.create(templateBody(client.id, { next_generation_date: today(), auto_send: true, auto_collect_sepa: true }))).body;
    const gen = await scheduled(t.id);
    const out = (await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id))!;
    expect(out).toMatchObject({ status: 'sent', collect_status: 'failed', collect_error: expect.stringMatching(/^no_active_mandate: /) });
    expect(debitsOf(gen.document_id!)).toEqual([]);
    expect((await documentRow(ctx.org.db, gen.document_id!))!.status).toBe('sent');
    expect((await ctx.org.db.select().from(reminders).where(eq(reminders.document_id, gen.document_id!))).length).toBeGreaterThan(0);
    expect((await api.get(t.id)).body).toMatchObject({ status: 'active', last_error: expect.stringMatching(/^no_active_mandate/) });
    expect(await failedEvents(t.id)).toEqual([expect.objectContaining({ id: gen.id, collect_status: 'failed' })]);
    // Retried, it asks nothing again: one attempt per invoice.
    await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id);
    expect(await failedEvents(t.id)).toHaveLength(1);
  });

  it('a contact without e-mail: the draft stays a draft (nothing numbered), the reason is recorded', async () => {
    const client = await b.contact({ email: null });
    const t = (await api.create(templateBody(client.id, { next_generation_date: today(), auto_send: true }))).body;
    const gen = await scheduled(t.id);
    const out = (await deliverGeneration(ctx.org.db, ctx.org.org.id, gen.id))!;
    expect(out).toMatchObject({ status: 'failed', stage: 'send', error: expect.stringMatching(/^no_recipient: /) });
    expect((await documentRow(ctx.org.db, gen.document_id!))!).toMatchObject({ status: 'draft', number: null });
    expect((await templateRow(ctx.org, t.id)).last_error).toMatch(/^no_recipient/);
    expect(await failedEvents(t.id)).toHaveLength(1);
    // The next period is generated all the same.
    expect((await api.get(t.id)).body.status).toBe('active');
  });

  it('POST …/run with auto_send answers the invoice as sent', async () => {
    const { client } = await clientWithMandate();
    const t = (await api.create(templateBody(client.id, { next_generation_date: addDays(today(), 3), auto_send: true, auto_collect_sepa: true }))).body;
    const res = await api.run(t.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'facture', status: 'sent', issue_date: today(), number: expect.any(String) });
    expect(debitsOf(res.body.id)).toHaveLength(1);
    expect(await generationsOf(ctx.org, t.id)).toEqual([expect.objectContaining({ source: 'run', status: 'sent', collect_status: 'processing' })]);
  });
});
