import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { PayView } from '@/app/pay/[token]/pay-view';
import { onlinePayments, paymentAccounts } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { line } from '@/lib/domain/documents/testing';
import { formatMoney, type Language } from '@/lib/platform/format';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { remindersContext } from '@/lib/domain/reminders/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { proxy } from '@/proxy';
import { InvoiceSettingsInput, putInvoiceSettings } from '@/lib/domain/invoice-settings';
import { connectAccount } from './connect-account';
import { loadPayPage, type PayPage, payLanguage, type ReturnNotice, returnNotice } from './pay-page';
import { createPaymentLink } from './payment-links';

const ctx = connectedStripe({ storage: true, orgName: 'Atelier Lumière' });
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
beforeAll(async () => {
  api = await remindersContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example' });
});

/** An issued invoice (2 × 450 € + 1 × 120 € HT at 20 %: 1 224 € TTC) and the token of its payment link. */
async function invoiceWithLink(body: Record<string, unknown> = {}, on = api, orgOf = ctx.org) {
  const inv = await on.issued({
    type: 'facture',
    contact_id: body.contact_id ?? client.id,
    due_date: addDays(todayParis(), 30),
    items: [line('Audit de sécurité', '2', 45000, '20', { unit: 'DAY' }), line('Rapport', '1', 12000)],
    ...body,
  });
  const link = await createPaymentLink(orgOf.db, orgOf.org.id, inv.id);
  return { inv, token: link.url!.split('/pay/')[1]! };
}

const page = async (token: string) => (await loadPayPage(ctx.org.db, token))!;
const html = (token: string, p: PayPage, lang: Language = 'fr', notice: ReturnNotice | null = null) =>
  renderToStaticMarkup(createElement(PayView, { token, page: p, lang, notice }));
const forms = (markup: string) => [...markup.matchAll(/<form action="([^"]+)" method="post"><input type="hidden" name="method" value="([^"]+)"/g)].map((m) => [m[1], m[2]]);

describe('the /pay page model', () => {
  it('a payable invoice: the seller as issued, the lines, the totals, the balance, both methods', async () => {
    const { inv, token } = await invoiceWithLink();
    const p = await page(token);
    expect(p).toMatchObject({
      org_id: ctx.org.org.id,
      document_id: inv.id,
      state: 'payable',
      paid: 0,
      balance: 122400,
      processing: false,
      methods: ['card', 'sepa_debit'],
      unavailable: null,
      contact_email: 'compta@client.example',
    });
    expect(p.seller).toMatchObject({ name: 'Atelier Lumière SAS', siren: '732829320', siret: '73282932000074', vat_number: 'FR44732829320', city: 'Paris' });
    expect(p.document).toMatchObject({ type: 'facture', number: inv.number, issue_date: inv.issue_date, total_ht: 102000, total_tva: 20400, total_ttc: 122400 });
    expect(p.document.lines).toEqual([
      expect.objectContaining({ kind: 'product', description: 'Audit de sécurité', quantity: '2', unit: 'DAY', unit_price: 45000, vat_rate: '20.00', total_ht: 90000 }),
      expect.objectContaining({ description: 'Rapport', quantity: '1', unit_price: 12000, total_ht: 12000 }),
    ]);

    const fr = html(token, p);
    expect(fr).toContain(`Facture ${inv.number}`);
    expect(fr).toContain('Atelier Lumière SAS');
    expect(fr).toContain('Audit de sécurité');
    expect(fr).toContain(`2 j × ${formatMoney(45000)} · TVA 20 %`);
    for (const amount of [102000, 20400, 122400]) expect(fr).toContain(formatMoney(amount));
    expect(fr).toContain(`Montant à régler : ${formatMoney(122400)}`);
    expect(forms(fr)).toEqual([
      [`/pay/${token}/checkout`, 'card'],
      [`/pay/${token}/checkout`, 'sepa_debit'],
    ]);
    expect(fr).toContain('Payer par carte');
    expect(fr).toContain('Payer par prélèvement SEPA');
    expect(fr).toContain(`href="/pay/${token}?lang=en"`);
    // No script of ours, nothing from another server.
    expect(fr).not.toMatch(/<script|https?:\/\//);
  });

  it('in English with ?lang=en or from Accept-Language', async () => {
    const { inv, token } = await invoiceWithLink();
    const en = html(token, await page(token), 'en');
    expect(en).toContain(`<main class="pay-page" lang="en">`);
    expect(en).toContain(`Invoice ${inv.number}`);
    expect(en).toContain('Pay by card');
    expect(en).toContain('Pay by SEPA Direct Debit');
    expect(en).toContain(`Amount to pay: ${formatMoney(122400, 'en')}`);
    expect(en).toContain('name="lang" value="en"');
    expect(en).toContain(`href="/pay/${token}?lang=fr"`);

    expect(payLanguage('en', 'fr-FR')).toBe('en');
    expect(payLanguage(undefined, 'en-GB,en;q=0.9,fr;q=0.8')).toBe('en');
    expect(payLanguage(undefined, 'de-DE,fr;q=0.5,en;q=0.7')).toBe('en');
    expect(payLanguage(undefined, 'en;q=0.3, fr-CA')).toBe('fr');
    expect(payLanguage(['fr', 'en'], 'en')).toBe('fr');
    expect(payLanguage('de', 'de-DE')).toBe('fr');
    expect(payLanguage(undefined, null)).toBe('fr');
  });

  it('a partly paid invoice shows what was paid and asks for the rest', async () => {
    const { inv, token } = await invoiceWithLink();
    await api.pay(inv.id, { amount: 40000 });
    const p = await page(token);
    expect(p).toMatchObject({ state: 'payable', paid: 40000, balance: 82400 });
    const fr = html(token, p);
    expect(fr).toContain('Déjà payé');
    expect(fr).toContain(formatMoney(82400));
    expect(forms(fr)).toHaveLength(2);
  });

  it('a paid invoice says so and offers no form', async () => {
    const { inv, token } = await invoiceWithLink();
    await api.pay(inv.id, { amount: inv.total_ttc });
    const p = await page(token);
    expect(p).toMatchObject({ state: 'paid', balance: 0, methods: [] });
    const fr = html(token, p);
    expect(fr).toContain('Cette facture est réglée.');
    expect(forms(fr)).toEqual([]);
    expect(html(token, p, 'en')).toContain('This invoice is paid.');
  });

  it('a cancelled invoice says so and offers no form', async () => {
    const { inv, token } = await invoiceWithLink();
    await api.cancel(inv.id);
    const p = await page(token);
    expect(p).toMatchObject({ state: 'cancelled', methods: [], unavailable: null });
    const fr = html(token, p);
    expect(fr).toContain('Cette facture a été annulée');
    expect(forms(fr)).toEqual([]);
  });

  it('an unknown, malformed or expired token has no page', async () => {
    expect(await loadPayPage(ctx.org.db, 'A'.repeat(43))).toBeNull();
    expect(await loadPayPage(ctx.org.db, 'short')).toBeNull();
    expect(await loadPayPage(ctx.org.db, `${'A'.repeat(40)}/../x`)).toBeNull();
  });

  it('online payment unavailable (off here, no account, account not ready, no method active): the document, no form', async () => {
    const { token } = await invoiceWithLink();
    const off = (await loadPayPage(ctx.org.db, token, null))!;
    expect(off).toMatchObject({ state: 'payable', unavailable: 'disabled', methods: [] });
    const fr = html(token, off);
    expect(fr).toContain('Le paiement en ligne n’est pas disponible pour cette facture.');
    expect(fr).toContain(formatMoney(122400));
    expect(forms(fr)).toEqual([]);

    const other = await createTestOrg();
    const oapi = await remindersContext(other);
    const oc = await oapi.contact({ email: 'x@y.example' });
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount({ charges_enabled: false }).id);
    const { token: t2 } = await invoiceWithLink({ contact_id: oc.id }, oapi, other);
    expect((await loadPayPage(other.db, t2))!).toMatchObject({ unavailable: 'not_ready', methods: [] });
    await other.db.update(paymentAccounts).set({ charges_enabled: true, card_payments: 'pending', sepa_debit_payments: 'inactive' }).where(eq(paymentAccounts.org_id, other.org.id));
    expect((await loadPayPage(other.db, t2))!).toMatchObject({ unavailable: 'not_ready', methods: [] });
    await other.db.update(paymentAccounts).set({ card_payments: 'active' }).where(eq(paymentAccounts.org_id, other.org.id));
    expect((await loadPayPage(other.db, t2))!).toMatchObject({ unavailable: null, methods: ['card'] });
    await other.db.delete(paymentAccounts).where(eq(paymentAccounts.org_id, other.org.id));
    expect((await loadPayPage(other.db, t2))!).toMatchObject({ unavailable: 'no_account', methods: [] });
  });

  it('a SEPA debit processing: no second payment is asked', async () => {
    const { inv, token } = await invoiceWithLink();
    await ctx.org.db.insert(onlinePayments).values({ org_id: ctx.org.org.id, document_id: inv.id, amount: inv.total_ttc, method: 'sepa_debit', status: 'processing' });
    const p = await page(token);
    expect(p).toMatchObject({ state: 'payable', processing: true, methods: [] });
    expect(html(token, p)).toContain('Un prélèvement SEPA est en cours de traitement');
  });

  it('another org’s token shows that org’s document only, never this one’s', async () => {
    const { token: mine } = await invoiceWithLink();
    const other = await createTestOrg('Boulangerie Martin');
    const oapi = await remindersContext(other);
    const oc = await oapi.contact({ email: 'b@m.example' });
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount().id);
    const { inv, token } = await invoiceWithLink({ contact_id: oc.id, items: [line('Pain', '3', 150, '5.5')] }, oapi, other);
    const p = (await loadPayPage(ctx.org.db, token))!;
    expect(p).toMatchObject({ org_id: other.org.id, document_id: inv.id, seller: expect.objectContaining({ name: 'Boulangerie Martin SAS' }) });
    const markup = html(token, p);
    expect(markup).not.toContain('Atelier Lumière');
    expect(markup).not.toContain('Audit de sécurité');
    expect((await page(mine)).seller.name).toBe('Atelier Lumière SAS');
  });
});

describe('paying by transfer', () => {
  /** An org of its own with that IBAN in its invoicing settings, a ready account, and an issued invoice's link. */
  async function withIban(iban: string | null, bic: string | null = null) {
    const org = await createTestOrg('Menuiserie Virement');
    await putInvoiceSettings(org.db, org.org.id, InvoiceSettingsInput.parse({ iban, bic }));
    const oapi = await remindersContext(org);
    const oc = await oapi.contact({ email: 'v@client.example' });
    await connectAccount(org.db, org.org.id, ctx.fake.addAccount().id);
    const { inv, token } = await invoiceWithLink({ contact_id: oc.id }, oapi, org);
    return { org, inv, token, p: (await loadPayPage(org.db, token))! };
  }

  it('the org has an IBAN: « Payer par virement » beside the cards, the details, the reference and the EPC QR code', async () => {
    const { inv, token, p } = await withIban('FR7630006000011234567890189', 'AGRIFRPP');
    expect(p.transfer).toMatchObject({ beneficiary: 'Menuiserie Virement SAS', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', amount: 122400, reference: inv.number });
    expect(p.transfer!.payload).toBe(['BCD', '002', '1', 'SCT', 'AGRIFRPP', 'Menuiserie Virement SAS', 'FR7630006000011234567890189', 'EUR1224.00', '', '', inv.number].join('\n'));
    const fr = html(token, p);
    expect(forms(fr)).toHaveLength(2);
    expect(fr).toContain('href="#pay-transfer"');
    expect(fr).toContain('id="pay-transfer"');
    expect(fr).toContain('Payer par virement');
    expect(fr).toContain('FR76 3000 6000 0112 3456 7890 189');
    expect(fr).toContain('AGRIFRPP');
    expect(fr).toContain(`<strong class="pay-reference">${inv.number}</strong>`);
    expect(fr).toMatch(/<svg role="img" aria-label="QR code de virement SEPA \(EPC\)[^"]*" viewBox="-4 -4 (\d+) \1"/);
    expect(fr).toContain(`<path d="${p.transfer!.qr.path}" fill="#000"></path>`);
    // The amount due and the ways to pay come before the transfer's details, and those before the lines.
    expect(fr.indexOf('Montant à régler')).toBeLessThan(fr.indexOf('Payer par carte'));
    expect(fr.indexOf('Payer par carte')).toBeLessThan(fr.indexOf('id="pay-transfer"'));
    expect(fr.indexOf('id="pay-transfer"')).toBeLessThan(fr.indexOf('Audit de sécurité'));
    expect(fr).not.toMatch(/<script|https?:\/\//);
    const en = html(token, p, 'en');
    expect(en).toContain('Pay by bank transfer');
    expect(en).toContain('Reference to quote');
  });

  it('without an IBAN no transfer; with one, none once paid, and it is the way left when online payment is off', async () => {
    const none = await withIban(null);
    expect(none.p.transfer).toBeNull();
    expect(html(none.token, none.p)).not.toContain('pay-transfer');

    const { inv, token, org } = await withIban('FR7630006000011234567890189');
    const off = (await loadPayPage(org.db, token, null))!;
    expect(off).toMatchObject({ unavailable: 'disabled', methods: [], transfer: expect.objectContaining({ bic: null }) });
    const fr = html(token, off);
    expect(fr).toContain('Vous pouvez la régler par virement');
    expect(fr).toContain('id="pay-transfer"');
    expect(off.transfer!.payload.split('\n')[4]).toBe('');

    const oapi = await remindersContext(org);
    await oapi.pay(inv.id, { amount: inv.total_ttc });
    const paid = (await loadPayPage(org.db, token))!;
    expect(paid.transfer).toBeNull();
    expect(html(token, paid)).not.toContain('pay-transfer');
  });
});

describe('the return from Checkout', () => {
  async function opened(method: 'card' | 'sepa_debit' = 'card') {
    const { inv, token } = await invoiceWithLink();
    const p = await page(token);
    const session = await (await import('./stripe-provider')).requireProvider().createCheckoutSession(p.account_id!, {
      mode: 'payment',
      amount: p.balance,
      description: 'x',
      methods: [method],
      success_url: 'http://localhost/s',
      cancel_url: 'http://localhost/c',
      metadata: {},
    });
    await ctx.org.db.insert(onlinePayments).values({ org_id: ctx.org.org.id, document_id: inv.id, checkout_session_id: session.id, amount: p.balance, method });
    const complete = (payment_status: 'paid' | 'unpaid') => Object.assign(ctx.fake.objects.get(session.id)!.object, { status: 'complete', payment_status });
    return { inv, token, p, session, complete };
  }

  it('cancel: "Paiement annulé" and the forms again', async () => {
    const { token, p } = await opened();
    const notice = await returnNotice(ctx.org.db, p, 'cancel', undefined);
    expect(notice).toBe('cancelled');
    const fr = html(token, p, 'fr', notice);
    expect(fr).toContain('Paiement annulé');
    expect(forms(fr)).toHaveLength(2);
  });

  it('success: "Paiement reçu" once the provider says the session is paid, before the webhook', async () => {
    const { token, p, session, complete } = await opened();
    // The payer is back but the session is still open (nothing paid): the page stays as it was.
    expect(await returnNotice(ctx.org.db, p, 'success', session.id)).toBeNull();
    complete('paid');
    const notice = await returnNotice(ctx.org.db, p, 'success', session.id);
    expect(notice).toBe('received');
    const fr = html(token, p, 'fr', notice);
    expect(fr).toContain('Paiement reçu');
    expect(forms(fr)).toEqual([]);
  });

  it('success of a SEPA debit: "Paiement en cours de traitement", from the provider or from the webhook', async () => {
    const { token, p, session, complete, inv } = await opened('sepa_debit');
    complete('unpaid');
    const notice = await returnNotice(ctx.org.db, p, 'success', session.id);
    expect(notice).toBe('processing');
    const fr = html(token, p, 'fr', notice);
    expect(fr).toContain('Paiement en cours de traitement');
    expect(forms(fr)).toEqual([]);
    expect(html(token, p, 'en', notice)).toContain('Payment processing');

    await ctx.org.db.update(onlinePayments).set({ status: 'succeeded' }).where(eq(onlinePayments.checkout_session_id, session.id));
    expect(await returnNotice(ctx.org.db, p, 'success', session.id)).toBe('received');
    await ctx.org.db.update(onlinePayments).set({ status: 'failed' }).where(eq(onlinePayments.checkout_session_id, session.id));
    expect(await returnNotice(ctx.org.db, p, 'success', session.id)).toBe('failed');
    await api.pay(inv.id, { amount: inv.total_ttc });
    expect(await returnNotice(ctx.org.db, await page(token), 'success', undefined)).toBe('received');
  });

  it('a session of another document, or none, changes nothing', async () => {
    const { session, complete } = await opened();
    complete('paid');
    const { p } = await opened();
    expect(await returnNotice(ctx.org.db, p, 'success', session.id)).toBeNull();
    expect(await returnNotice(ctx.org.db, p, 'success', undefined)).toBeNull();
    expect(await returnNotice(ctx.org.db, p, 'success', 'cs_test_unknown')).toBeNull();
    expect(await returnNotice(ctx.org.db, p, 'other', session.id)).toBeNull();
  });
});

describe('the headers of the payer’s pages', () => {
  it('no referrer, no indexing, no cache, and forms may lead to the hosted checkout only', async () => {
    const res = await proxy(new NextRequest('http://localhost:3000/pay/abcdefghijklmnopqrstuvwxyz?lang=en'));
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const formAction = res.headers.get('content-security-policy')!.split('; ').find((d) => d.startsWith('form-action'));
    expect(formAction).toBe(`form-action 'self' ${ctx.fake.url}`);
    for (const path of ['/pay/abc/checkout', '/pay/abc/pdf']) expect((await proxy(new NextRequest(`http://localhost:3000${path}`))).headers.get('referrer-policy')).toBe('no-referrer');

    const base = process.env.STRIPE_API_BASE;
    delete process.env.STRIPE_API_BASE;
    try {
      expect((await proxy(new NextRequest('http://localhost:3000/pay/abc'))).headers.get('content-security-policy')).toContain("form-action 'self' https://checkout.stripe.com;");
    } finally {
      process.env.STRIPE_API_BASE = base;
    }
    // The back-office keeps its own policy.
    const staff = await proxy(new NextRequest('http://localhost:3000/documents'));
    expect(staff.headers.get('referrer-policy')).toBe('same-origin');
    expect(staff.headers.get('x-robots-tag')).toBeNull();
    expect(staff.headers.get('content-security-policy')).toContain("form-action 'self';");
  });
});
