import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as checkoutRoute from '@/app/pay/[token]/checkout/route';
import * as pdfRoute from '@/app/pay/[token]/pdf/route';
import { onlinePayments, paymentAccounts } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { line } from '@/lib/domain/documents/testing';
import { withoutStripe } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { renderStoredDocument } from '@/lib/domain/pdf';
import { remindersContext } from '@/lib/domain/reminders/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { connectAccount } from './connect-account';
import { CHECKOUT_LIMITS } from './pay-checkout';
import { createPaymentLink } from './payment-links';

const ctx = connectedStripe({ storage: true });
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
beforeAll(async () => {
  api = await remindersContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example' });
});

const APP = 'http://localhost:3000';
let addressSeq = 0;
/** Each test posts from an address of its own: the per-address limit is a test of its own. */
const freshAddress = () => `198.51.100.${++addressSeq}`;

async function invoiceWithLink(total = 100000, on = api, orgOf = ctx.org, contactId = client.id) {
  const inv = await on.issued({ type: 'facture', contact_id: contactId, due_date: addDays(todayParis(), 30), items: [line('Prestation', '1', total)] });
  const link = await createPaymentLink(orgOf.db, orgOf.org.id, inv.id);
  return { inv, token: link.url!.split('/pay/')[1]! };
}

async function post(token: string, fields: Record<string, string>, address = freshAddress()) {
  const req = new Request(`${APP}/pay/${token}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams(fields).toString(),
  });
  const res = await checkoutRoute.POST(req, { params: Promise.resolve({ token }) });
  return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
}

const sessionsCreated = () => ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
const attempts = (documentId: string) => ctx.org.db.select().from(onlinePayments).where(and(eq(onlinePayments.org_id, ctx.org.org.id), eq(onlinePayments.document_id, documentId)));

describe('POST /pay/<token>/checkout', () => {
  it('303 to a new Checkout Session for the balance on the org’s account, and the online payment recorded open', async () => {
    const { inv, token } = await invoiceWithLink(100000);
    ctx.fake.reset();
    const res = await post(token, { method: 'card' });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^${ctx.fake.url}/checkout/cs_test_`));
    expect(res.headers.get('cache-control')).toBe('no-store');

    const [request] = sessionsCreated();
    expect(sessionsCreated()).toHaveLength(1);
    expect(request!.headers['stripe-account']).toBe(ctx.account);
    expect(request!.headers['idempotency-key']).toMatch(/^pay-checkout-/);
    const [row] = await attempts(inv.id);
    expect(request!.body).toMatchObject({
      mode: 'payment',
      allowed_payment_method_types: ['card'],
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '120000', product_data: { name: `Facture ${inv.number}` } } }],
      customer_email: 'compta@client.example',
      metadata: { org_id: ctx.org.org.id, document_id: inv.id, online_payment_id: row!.id },
      success_url: `${APP}/pay/${token}?status=success&session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${APP}/pay/${token}?status=cancel`,
    });
    const sessionId = res.location!.split('/checkout/')[1];
    expect(row).toMatchObject({ org_id: ctx.org.org.id, checkout_session_id: sessionId, amount: 120000, method: 'card', status: 'open', payment_id: null });
  });

  it('one session per POST: a second click opens another session and another row', async () => {
    const { inv, token } = await invoiceWithLink();
    ctx.fake.reset();
    const first = await post(token, { method: 'card' });
    const second = await post(token, { method: 'card' });
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.location).not.toBe(second.location);
    expect(sessionsCreated()).toHaveLength(2);
    expect(new Set((await attempts(inv.id)).map((r) => r.checkout_session_id)).size).toBe(2);
  });

  it('after a partial payment, the session asks for the balance only', async () => {
    const { inv, token } = await invoiceWithLink(100000);
    await api.pay(inv.id, { amount: 36000 });
    ctx.fake.reset();
    expect((await post(token, { method: 'card' })).status).toBe(303);
    expect(sessionsCreated()[0]!.body).toMatchObject({ line_items: [{ price_data: { unit_amount: '84000' } }] });
    expect((await attempts(inv.id))[0]!.amount).toBe(84000);
  });

  it('narrows the methods to the one chosen, in the payer’s language', async () => {
    const { inv, token } = await invoiceWithLink();
    ctx.fake.reset();
    const res = await post(token, { method: 'sepa_debit', lang: 'en' });
    expect(res.status).toBe(303);
    expect(sessionsCreated()[0]!.body).toMatchObject({
      allowed_payment_method_types: ['sepa_debit'],
      line_items: [{ price_data: { product_data: { name: `Invoice ${inv.number}` } } }],
      success_url: `${APP}/pay/${token}?status=success&session={CHECKOUT_SESSION_ID}&lang=en`,
      cancel_url: `${APP}/pay/${token}?status=cancel&lang=en`,
    });
    expect((await attempts(inv.id))[0]).toMatchObject({ method: 'sepa_debit' });
  });

  it('400 page for a method that is not card or sepa_debit, nothing opened', async () => {
    const { inv, token } = await invoiceWithLink();
    ctx.fake.reset();
    for (const fields of [{ method: 'paypal' }, {}, { method: 'CARD' }] as Record<string, string>[]) {
      const res = await post(token, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('Moyen de paiement inconnu');
    }
    expect(sessionsCreated()).toHaveLength(0);
    expect(await attempts(inv.id)).toEqual([]);
  });

  it('not payable now (paid, cancelled, the method not offered, payment off): 303 back to the page, nothing opened', async () => {
    const paid = await invoiceWithLink();
    await api.pay(paid.inv.id, { amount: paid.inv.total_ttc });
    const cancelled = await invoiceWithLink();
    await api.cancel(cancelled.inv.id);
    ctx.fake.reset();
    for (const { token } of [paid, cancelled]) {
      const res = await post(token, { method: 'card', lang: 'en' });
      expect([res.status, res.location]).toEqual([303, `${APP}/pay/${token}?lang=en`]);
    }

    const other = await createTestOrg();
    const oapi = await remindersContext(other);
    const oc = await oapi.contact({ email: 'o@o.example' });
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount({ capabilities: { card_payments: 'active', sepa_debit_payments: 'inactive' } }).id);
    const cardOnly = await invoiceWithLink(1000, oapi, other, oc.id);
    expect(await post(cardOnly.token, { method: 'sepa_debit' })).toMatchObject({ status: 303, location: `${APP}/pay/${cardOnly.token}` });
    await other.db.update(paymentAccounts).set({ charges_enabled: false }).where(eq(paymentAccounts.org_id, other.org.id));
    expect(await post(cardOnly.token, { method: 'card' })).toMatchObject({ status: 303, location: `${APP}/pay/${cardOnly.token}` });

    const open = await invoiceWithLink();
    await withoutStripe(async () => {
      expect(await post(open.token, { method: 'card' })).toMatchObject({ status: 303, location: `${APP}/pay/${open.token}` });
    });
    expect(sessionsCreated()).toHaveLength(0);
    expect(await attempts(open.inv.id)).toEqual([]);
  });

  it('404 page for an unknown token', async () => {
    ctx.fake.reset();
    const res = await post('Z'.repeat(43), { method: 'card' });
    expect(res.status).toBe(404);
    expect(res.text).toContain('Lien de paiement introuvable');
    expect(sessionsCreated()).toHaveLength(0);
  });

  it('rate-limited per link and per address: 429 page with Retry-After past the limit', async () => {
    const { inv, token } = await invoiceWithLink();
    const address = freshAddress();
    for (let i = 0; i < CHECKOUT_LIMITS.perToken; i++) expect((await post(token, { method: 'card' }, i % 2 ? address : freshAddress())).status).toBe(303);
    ctx.fake.reset();
    const refused = await post(token, { method: 'card' }, freshAddress());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).toContain('Trop de tentatives');
    expect(sessionsCreated()).toHaveLength(0);
    expect(await attempts(inv.id)).toHaveLength(CHECKOUT_LIMITS.perToken);

    const saved = CHECKOUT_LIMITS.perAddress;
    CHECKOUT_LIMITS.perAddress = 2;
    try {
      const busy = freshAddress();
      const a = await invoiceWithLink();
      const b = await invoiceWithLink();
      expect((await post(a.token, { method: 'card' }, busy)).status).toBe(303);
      expect((await post(b.token, { method: 'card' }, busy)).status).toBe(303);
      expect((await post(b.token, { method: 'card' }, busy)).status).toBe(429);
      expect((await post(b.token, { method: 'card' }, freshAddress())).status).toBe(303);
    } finally {
      CHECKOUT_LIMITS.perAddress = saved;
    }
  });

  it('502 page when the provider fails, nothing recorded', async () => {
    const { inv, token } = await invoiceWithLink();
    await ctx.org.db.update(paymentAccounts).set({ account_id: 'acct_gone' }).where(eq(paymentAccounts.org_id, ctx.org.org.id));
    try {
      const res = await post(token, { method: 'card' });
      expect(res.status).toBe(502);
      expect(res.text).toContain('momentanément indisponible');
      expect(await attempts(inv.id)).toEqual([]);
    } finally {
      await ctx.org.db.update(paymentAccounts).set({ account_id: ctx.account }).where(eq(paymentAccounts.org_id, ctx.org.org.id));
    }
  });

  it('GET on the checkout URL goes back to the page', async () => {
    const res = await checkoutRoute.GET(new Request(`${APP}/pay/abc/checkout?lang=en`), { params: Promise.resolve({ token: 'abc' }) });
    expect([res.status, res.headers.get('location')]).toEqual([303, `${APP}/pay/abc?lang=en`]);
  });
});

describe('GET /pay/<token>/pdf', () => {
  const get = (token: string, headers: Record<string, string> = {}) => pdfRoute.GET(new Request(`${APP}/pay/${token}/pdf`, { headers }), { params: Promise.resolve({ token }) });

  it('the sealed PDF once stored (503 page while it is rendered), 404 page for an unknown token', async () => {
    const { inv, token } = await invoiceWithLink();
    const pending = await get(token, { 'accept-language': 'en' });
    expect([pending.status, pending.headers.get('retry-after')]).toEqual([503, '10']);
    expect(await pending.text()).toContain('PDF being prepared');

    await renderStoredDocument(ctx.org.db, ctx.org.org.id, inv.id);
    const res = await get(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${inv.number}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);

    const unknown = await get('Q'.repeat(43));
    expect(unknown.status).toBe(404);
    const text = await unknown.text();
    expect(text).toContain('Lien de paiement introuvable');
    expect(text).toContain('Payment link not found');
  });
});
