import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as checkoutRoute from '@/app/pay/[token]/checkout/route';
import { emails, memberships, onlinePayments, payments, users } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { formatMoney } from '@/lib/platform/format';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { type PaymentEmailsJobData, paymentEmailsJob, queuePaymentEmails } from './payment-emails';
import { createPaymentLink } from './payment-links';
import { paymentProvider } from './stripe-provider';

const ctx = connectedStripe({ webhook: true, orgName: 'Atelier Lumière' });
let api: Awaited<ReturnType<typeof billingContext>>;
let owner: string;
let admin: string;
beforeAll(async () => {
  api = await billingContext(ctx.org);
  const member = async (role: 'owner' | 'admin' | 'member') => {
    const email = `${role}-${randomUUID().slice(0, 8)}@atelier.example`;
    const [user] = await ctx.org.db.insert(users).values({ email, password_hash: 'unused' }).returning();
    await ctx.org.db.insert(memberships).values({ org_id: ctx.org.org.id, user_id: user!.id, role });
    return email;
  };
  owner = await member('owner');
  admin = await member('admin');
  await member('member');
});

/** An issued invoice of 1 200,00 € TTC for a client with that e-mail (or none). */
async function invoiceFor(contact: Record<string, unknown> = { email: `compta-${randomUUID().slice(0, 6)}@client.example` }) {
  const client = await api.contact(contact);
  return api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '1', 100000)] });
}

/** The payer's click on the /pay page (in `lang`), then their card paid on the fake's Checkout: the webhook settles it. */
async function payOnline(documentId: string, lang: 'fr' | 'en' = 'fr') {
  const token = (await createPaymentLink(ctx.org.db, ctx.org.org.id, documentId)).url!.split('/pay/')[1]!;
  const res = await checkoutRoute.POST(
    new Request(`http://localhost:3000/pay/${token}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 200)}` },
      body: new URLSearchParams({ method: 'card', lang }).toString(),
    }),
    { params: Promise.resolve({ token }) },
  );
  expect(res.status).toBe(303);
  const session = res.headers.get('location')!.split('/checkout/')[1]!;
  const done = await ctx.fake.completeCheckout(session, { method: 'card' });
  expect(done.statuses).toEqual([200, 200]);
  return { ...done, session, token };
}

/** A Checkout for part of the balance, recorded as the page does but with the language unknown (null). */
async function openPartial(documentId: string, amount: number) {
  const id = randomUUID();
  const session = await paymentProvider()!.createCheckoutSession(ctx.account, {
    mode: 'payment',
    amount,
    description: 'Facture',
    methods: ['card'],
    success_url: 'http://localhost:3000/pay/x?status=success&session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/pay/x?status=cancel',
    metadata: { org_id: ctx.org.org.id, document_id: documentId, online_payment_id: id },
  });
  await ctx.org.db.insert(onlinePayments).values({ id, org_id: ctx.org.org.id, document_id: documentId, checkout_session_id: session.id, method: 'card', amount, status: 'open' });
  return session.id;
}

const paymentsOf = (documentId: string) => ctx.org.db.select().from(payments).where(and(eq(payments.org_id, ctx.org.org.id), eq(payments.document_id, documentId)));

/** The jobs the payment events wrote for the document's payments, run as the worker would. */
async function runJobs(documentId: string): Promise<PaymentEmailsJobData[]> {
  const ids = (await paymentsOf(documentId)).map((p) => p.id);
  const { rows } = (await ctx.org.db.execute(sql`select data from pgboss.job where name = ${paymentEmailsJob.name}`)) as unknown as {
    rows: Array<{ data: PaymentEmailsJobData }>;
  };
  const mine = rows.map((r) => r.data).filter((d) => ids.includes(d.payment_id));
  for (const data of mine) await paymentEmailsJob.handle(data, { db: ctx.org.db, jobId: 'test', attempt: 1 });
  return mine;
}

const mailsOf = (documentId: string) =>
  ctx.org.db
    .select({ template: emails.template, to: emails.to, language: emails.language, subject: emails.subject, text: emails.text, reply_to: emails.reply_to })
    .from(emails)
    .where(and(eq(emails.org_id, ctx.org.org.id), eq(emails.document_id, documentId)))
    .orderBy(emails.template);

describe('the e-mails of a settled online payment', () => {
  it('a card payment: a receipt to the payer in the page’s language, « Facture … payée » to the owners and admins, once', async () => {
    const inv = await invoiceFor({ email: 'compta@payeur.example', first_name: 'Jeanne', last_name: 'Martin', preferred_language: 'fr' });
    const paid = await payOnline(inv.id, 'en');
    expect(await runJobs(inv.id)).toHaveLength(1);

    const [receipt, notice, ...more] = await mailsOf(inv.id);
    expect(more).toEqual([]);
    expect(receipt).toMatchObject({ template: 'payment_receipt', to: ['compta@payeur.example'], language: 'en' });
    expect(receipt!.subject).toBe(`Payment received – Invoice ${inv.number} – Atelier Lumière`);
    expect(receipt!.text).toContain(`We have received your payment of €1,200.00 by card for invoice ${inv.number}.`);
    expect(receipt!.text).toContain('This invoice is now paid in full.');
    expect(receipt!.text).toContain(`/pay/${paid.token}`);
    expect(notice).toMatchObject({ template: 'payment_received', to: [admin, owner].sort(), language: 'fr' });
    expect(notice!.subject).toBe(`Facture ${inv.number} payée – paiement de ${formatMoney(120000)} reçu`);
    expect(notice!.text).toContain('par carte bancaire');
    expect(notice!.text).toContain(`/documents/${inv.id}`);

    // The job retried, then every provider event delivered again: nothing more is sent.
    await runJobs(inv.id);
    for (const event of ctx.fake.events.filter((e) => e.data.object.id === paid.session || e.data.object.id === paid.payment_intent)) {
      expect(await ctx.fake.redeliver(event)).toBe(200);
    }
    await runJobs(inv.id);
    expect(await mailsOf(inv.id)).toHaveLength(2);
    expect(await queuePaymentEmails(ctx.org.db, ctx.org.org.id, (await paymentsOf(inv.id))[0]!.id)).toBeNull();
  });

  it('a part of the balance: « Paiement reçu », what is left; the language unknown: the contact’s', async () => {
    const inv = await invoiceFor({ email: 'billing@client.example', preferred_language: 'en' });
    await ctx.fake.completeCheckout(await openPartial(inv.id, 36000), { method: 'card' });
    await runJobs(inv.id);
    const [receipt, notice] = await mailsOf(inv.id);
    expect(receipt).toMatchObject({ template: 'payment_receipt', language: 'en', to: ['billing@client.example'] });
    expect(receipt!.text).toContain('€840.00 remains to be paid on this invoice.');
    expect(notice!.subject).toBe(`Paiement reçu – Facture ${inv.number} – ${formatMoney(36000)}`);
    expect(notice!.text).toContain(`Il reste ${formatMoney(84000)} à encaisser.`);
  });

  it('a client without an e-mail address: the org is told, no receipt', async () => {
    const inv = await invoiceFor({ email: null });
    await payOnline(inv.id);
    expect(await runJobs(inv.id)).toHaveLength(1);
    expect((await mailsOf(inv.id)).map((m) => m.template)).toEqual(['payment_received']);
  });

  it('a payment recorded by staff sends nothing, whatever its method', async () => {
    const inv = await invoiceFor();
    expect((await api.pay(inv.id, { amount: 50000, method: 'card' })).status).toBe(201);
    expect((await api.pay(inv.id, { amount: 70000, method: 'bank_transfer' })).status).toBe(201);
    // The card one may be an online payment (the job looks); the transfer cannot (no job at all).
    expect(await runJobs(inv.id)).toHaveLength(1);
    expect(await mailsOf(inv.id)).toEqual([]);
  });

  it('is scoped to the org: another org’s payment id claims and sends nothing here', async () => {
    const inv = await invoiceFor();
    await payOnline(inv.id);
    const [payment] = await paymentsOf(inv.id);
    const other = await createTestOrg();
    expect(await queuePaymentEmails(ctx.org.db, other.org.id, payment!.id)).toBeNull();
    await runJobs(inv.id);
    expect(await mailsOf(inv.id)).toHaveLength(2);
  });
});
