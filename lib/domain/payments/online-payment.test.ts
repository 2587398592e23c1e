import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as paymentLinkRoute from '@/app/v1/invoices/[id]/payment-link/route';
import * as sendForPaymentRoute from '@/app/v1/invoices/[id]/send-for-payment/route';
import { documents, paymentAccounts, paymentLinks } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { documentRow, eventsOf, line } from '@/lib/domain/documents/testing';
import { withoutStripe } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { documentEmails, reminderRows, remindersContext } from '@/lib/domain/reminders/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { connectAccount } from './connect-account';
import { hashToken } from './payment-links';

const ctx = connectedStripe({ storage: true });
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
beforeAll(async () => {
  api = await remindersContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example', first_name: 'Jeanne', last_name: 'Martin' });
});

const paymentLink = (id: string, token: string | undefined = api.token) =>
  call(paymentLinkRoute.POST, 'POST', `/v1/invoices/${id}/payment-link`, { token, params: { id } });
const sendForPayment = (id: string, body?: unknown, token: string | undefined = api.token) =>
  call(sendForPaymentRoute.POST, 'POST', `/v1/invoices/${id}/send-for-payment`, { token, params: { id }, body });
const invoice = (body: Record<string, unknown> = {}, contactId = client.id) =>
  api.issued({ type: 'facture', contact_id: contactId, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)], ...body });
const codeOf = (res: { status: number; body: { code: string } }) => [res.status, res.body.code];
const APP = 'http://localhost:3000';

describe.each([
  ['payment-link', (id: string, token?: string) => paymentLink(id, token)],
  ['send-for-payment', (id: string, token?: string) => sendForPayment(id, undefined, token)],
] as const)('POST /v1/invoices/{id}/%s: access', (_name, post) => {
  it('401 without a key, 403 without invoice:write, 404 for another org, an unknown or a malformed id', async () => {
    const inv = await invoice();
    expect(codeOf(await call(paymentLinkRoute.POST, 'POST', `/v1/invoices/${inv.id}/x`, { params: { id: inv.id } }))).toEqual([401, 'unauthorized']);
    expect((await post(inv.id, '')).status).toBe(401);
    expect(codeOf(await post(inv.id, await ctx.org.key(['invoice:read'])))).toEqual([403, 'forbidden']);

    const other = await createTestOrg();
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount().id);
    expect(codeOf(await post(inv.id, await other.key()))).toEqual([404, 'not_found']);
    expect(codeOf(await post('0190f3a0-0000-7000-8000-000000000001'))).toEqual([404, 'not_found']);
    expect(codeOf(await post('not-a-uuid'))).toEqual([404, 'not_found']);
    expect(await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id))).toEqual([]);
  });
});

describe('POST /v1/invoices/{id}/payment-link', () => {
  it('mints a durable link once: a random token in the URL, only its SHA-256 and an encrypted copy stored; later calls give the same URL', async () => {
    const inv = await invoice();
    const first = await paymentLink(inv.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ already_exists: false, url: expect.stringMatching(new RegExp(`^${APP}/pay/[A-Za-z0-9_-]{43}$`)), expires_at: null });
    const token = first.body.url.split('/pay/')[1];

    const [row] = await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id));
    expect(row).toMatchObject({ org_id: ctx.org.org.id, token_hash: hashToken(token), expires_at: null });
    expect(row!.token_encrypted).not.toContain(token);

    const again = await paymentLink(inv.id);
    expect(again.body).toEqual({ already_exists: true, url: first.body.url, expires_at: null });
    expect(await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id))).toHaveLength(1);
    // Nothing else changes: the document is not sent by a link.
    expect((await documentRow(ctx.org.db, inv.id))!.status).toBe('finalized');
  });

  it('url null when the stored token cannot be recovered (the key changed or the copy is damaged)', async () => {
    const inv = await invoice();
    await paymentLink(inv.id);
    await ctx.org.db.update(paymentLinks).set({ token_encrypted: 'AAAA.BBBB.CCCC' }).where(eq(paymentLinks.document_id, inv.id));
    expect((await paymentLink(inv.id)).body).toEqual({ already_exists: true, url: null, expires_at: null });
  });

  it('for a deposit invoice, and on a connected account not ready yet (only sending needs it ready)', async () => {
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('A', '1', 10000)] });
    const deposit = (await api.deposit(quote.id, { percentage: '30' })).body;
    expect(codeOf(await paymentLink(deposit.id))).toEqual([409, 'not_payable']);
    await api.finalize(deposit.id);
    expect((await paymentLink(deposit.id)).body.already_exists).toBe(false);

    const pending = await createTestOrg();
    await connectAccount(pending.db, pending.org.id, ctx.fake.addAccount({ charges_enabled: false }).id);
    const papi = await remindersContext(pending);
    const c = await papi.contact({ email: 'a@b.example' });
    const inv = await papi.issued({ type: 'facture', contact_id: c.id, items: [line('A', '1', 1000)] });
    const res = await call(paymentLinkRoute.POST, 'POST', `/v1/invoices/${inv.id}/payment-link`, { token: papi.token, params: { id: inv.id } });
    expect(res.status).toBe(200);
  });
});

describe('errors, in the order of the spec', () => {
  it('503 payments_disabled first, without STRIPE_SECRET_KEY, whatever the rest', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    await withoutStripe(async () => {
      for (const res of [await paymentLink(draft.id), await sendForPayment(draft.id)]) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ code: 'payments_disabled', message: expect.stringContaining('STRIPE_SECRET_KEY'), field: null });
      }
    });
  });

  it('then 409 payments_account_required for an org without a connected account', async () => {
    const bare = await createTestOrg();
    const bapi = await remindersContext(bare);
    const draft = await bapi.draft({ type: 'facture', contact_id: (await bapi.contact({})).id, items: [line('A', '1', 100)] });
    for (const verb of ['payment-link', 'send-for-payment']) {
      const handler = verb === 'payment-link' ? paymentLinkRoute.POST : sendForPaymentRoute.POST;
      const res = await call(handler, 'POST', `/v1/invoices/${draft.id}/${verb}`, { token: bapi.token, params: { id: draft.id } });
      expect(codeOf(res), verb).toEqual([409, 'payments_account_required']);
    }
    // 503 still comes first.
    await withoutStripe(async () => {
      const res = await call(paymentLinkRoute.POST, 'POST', `/v1/invoices/${draft.id}/payment-link`, { token: bapi.token, params: { id: draft.id } });
      expect(res.status).toBe(503);
    });
  });

  it('then 409 payments_account_not_ready (send-for-payment) while the account cannot take charges, naming what is due', async () => {
    const pending = await createTestOrg();
    await connectAccount(pending.db, pending.org.id, ctx.fake.addAccount({ charges_enabled: false }).id);
    const papi = await remindersContext(pending);
    const draft = await papi.draft({ type: 'facture', contact_id: (await papi.contact({})).id, items: [line('A', '1', 100)] });
    const res = await call(sendForPaymentRoute.POST, 'POST', `/v1/invoices/${draft.id}/send-for-payment`, { token: papi.token, params: { id: draft.id } });
    expect(codeOf(res)).toEqual([409, 'payments_account_not_ready']);
    expect(res.body.message).toContain('external_account');
  });

  it('then 409 not_payable for a draft, a quote, a credit note, a cancelled or a paid invoice', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    const quote = await api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(todayParis(), 30), items: [line('A', '1', 100)] });
    const cancelled = await invoice();
    await api.cancel(cancelled.id);
    const [credit] = await ctx.org.db.select().from(documents).where(eq(documents.avoir_for_id, cancelled.id));
    const paid = await invoice();
    await api.pay(paid.id, { amount: paid.total_ttc });
    for (const [what, id] of [
      ['draft', draft.id],
      ['quote', quote.id],
      ['credit note', credit!.id],
      ['cancelled', cancelled.id],
      ['paid', paid.id],
    ] as const) {
      expect(codeOf(await paymentLink(id)), `payment-link ${what}`).toEqual([409, 'not_payable']);
      expect(codeOf(await sendForPayment(id)), `send-for-payment ${what}`).toEqual([409, 'not_payable']);
    }
    // A silent contact's draft: not_payable before no_recipient.
    const silent = await api.contact({ company: 'Sans Mail SARL' });
    const silentDraft = await api.draft({ type: 'facture', contact_id: silent.id, items: [line('A', '1', 100)] });
    expect(codeOf(await sendForPayment(silentDraft.id))).toEqual([409, 'not_payable']);
    expect(await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, draft.id))).toEqual([]);
  });

  it('then 422 no_recipient when the contact has no address and none is given: nothing is minted, sent or armed', async () => {
    const silent = await api.contact({ company: 'Sans Mail SARL' });
    const inv = await invoice({}, silent.id);
    const res = await sendForPayment(inv.id);
    expect([res.status, res.body.code, res.body.field]).toEqual([422, 'no_recipient', 'email']);
    expect(await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id))).toEqual([]);
    expect(await documentEmails(ctx.org, inv.id)).toEqual([]);
    expect((await documentRow(ctx.org.db, inv.id))!.status).toBe('finalized');
  });
});

describe('POST /v1/invoices/{id}/send-for-payment', () => {
  beforeEach(() => ctx.fake.reset());

  it('e-mails the invoice with a "Payer en ligne" button to its payment page, flips it to sent and arms the ladder', async () => {
    const inv = await invoice();
    const res = await sendForPayment(inv.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ document: expect.objectContaining({ id: inv.id, status: 'sent' }), scheduled_reminders: 5, sent: true });

    const [link] = await ctx.org.db.select().from(paymentLinks).where(eq(paymentLinks.document_id, inv.id));
    const [email] = await documentEmails(ctx.org, inv.id);
    const url = (email!.template_data as { pay_url: string }).pay_url;
    expect(url).toMatch(new RegExp(`^${APP}/pay/`));
    expect(hashToken(url.split('/pay/')[1]!)).toBe(link!.token_hash);
    expect(email).toMatchObject({ to: ['compta@client.example'], template: 'document_sent', language: 'fr', attachments: [expect.objectContaining({ content_type: 'application/pdf' })] });
    expect(email!.text).toMatch(new RegExp(`Payer en ligne \\[?${url.replace(/[.?]/g, '\\$&')}`));
    expect(email!.html).toContain(`href="${url}"`);

    expect(await reminderRows(ctx.org, inv.id)).toHaveLength(5);
    const [event] = (await eventsOf(ctx.org, 'invoice.sent')).filter((e) => (e.payload as { object: { id: string } }).object.id === inv.id);
    expect(event!.payload).toEqual({ object: res.body.document });

    // The link of the e-mail is the one payment-link gives; sending again reuses it.
    expect((await paymentLink(inv.id)).body).toEqual({ already_exists: true, url, expires_at: null });
    const again = await sendForPayment(inv.id);
    expect(again.body).toMatchObject({ scheduled_reminders: 0, sent: true });
    const [, second] = await documentEmails(ctx.org, inv.id);
    expect((second!.template_data as { pay_url: string }).pay_url).toBe(url);
    // No call to the provider: readiness is the stored one.
    expect(ctx.fake.requests).toEqual([]);
  });

  it('in English for an English-speaking contact; email overrides the recipient for this send only', async () => {
    const english = await api.contact({ company: 'Acme Ltd', email: 'ap@acme.example', preferred_language: 'en', country: 'GB' });
    const inv = await invoice({}, english.id);
    expect((await sendForPayment(inv.id, { email: ' Finance@Acme.example ' })).status).toBe(200);
    const [email] = await documentEmails(ctx.org, inv.id);
    expect(email).toMatchObject({ language: 'en', to: ['finance@acme.example'] });
    expect(email!.text).toContain('Pay online');
  });

  it('a link whose token cannot be recovered is replaced before it is sent', async () => {
    const inv = await invoice();
    const old = (await paymentLink(inv.id)).body.url;
    await ctx.org.db.update(paymentLinks).set({ token_encrypted: null }).where(eq(paymentLinks.document_id, inv.id));
    expect((await sendForPayment(inv.id)).status).toBe(200);
    const [email] = await documentEmails(ctx.org, inv.id);
    const url = (email!.template_data as { pay_url: string }).pay_url;
    expect(url).not.toBe(old);
    expect((await paymentLink(inv.id)).body.url).toBe(url);
  });

  it('422 for an invalid body: a malformed email, an unknown member', async () => {
    const inv = await invoice();
    const bad = await sendForPayment(inv.id, { email: 'not-an-address' });
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([422, 'validation_error', 'email']);
    const unknown = await sendForPayment(inv.id, { cc: ['a@b.example'] });
    expect([unknown.status, unknown.body.code, unknown.body.field]).toEqual([422, 'validation_error', 'cc']);
    expect(await documentEmails(ctx.org, inv.id)).toEqual([]);
  });

  it('stays refused once the account loses its charges (readiness as last read)', async () => {
    const inv = await invoice();
    await ctx.org.db.update(paymentAccounts).set({ charges_enabled: false }).where(eq(paymentAccounts.org_id, ctx.org.org.id));
    try {
      expect(codeOf(await sendForPayment(inv.id))).toEqual([409, 'payments_account_not_ready']);
    } finally {
      await ctx.org.db.update(paymentAccounts).set({ charges_enabled: true }).where(eq(paymentAccounts.org_id, ctx.org.org.id));
    }
  });
});
