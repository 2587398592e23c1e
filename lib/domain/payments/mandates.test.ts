import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as mandateRoute from '@/app/v1/invoices/[id]/sepa-mandate/route';
import * as setupRoute from '@/app/v1/invoices/[id]/sepa-mandate-setup/route';
import { contacts, paymentCustomers, sepaMandates } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { type FakeStripe, withoutStripe } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { connectAccount } from './connect-account';
import { mandateOfContact, revokeMandate } from './mandates';
import { sessionIntentData } from './testing/fake-stripe-shared';

const ctx = connectedStripe({ webhook: true });
let api: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  api = await billingContext(ctx.org);
});

const APP = 'http://localhost:3000';
const UNKNOWN = '0190f3a0-0000-7000-8000-000000000001';
const codeOf = (res: { status: number; body: { code: string } }) => [res.status, res.body.code];
const getMandate = (id: string, token: string | undefined = api.token) => call(mandateRoute.GET, 'GET', `/v1/invoices/${id}/sepa-mandate`, { token, params: { id } });
const revoke = (id: string, token: string | undefined = api.token) => call(mandateRoute.DELETE, 'DELETE', `/v1/invoices/${id}/sepa-mandate`, { token, params: { id } });
const setup = (id: string, token: string | undefined = api.token) => call(setupRoute.POST, 'POST', `/v1/invoices/${id}/sepa-mandate-setup`, { token, params: { id } });
/** A fresh client and an issued invoice of 1 080,00 € TTC to it. */
async function clientInvoice(body: Record<string, unknown> = {}, contact: Record<string, unknown> = {}) {
  const client = await api.contact({ email: `compta-${Math.random().toString(36).slice(2, 8)}@client.example`, ...contact });
  const invoice = await api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)], ...body });
  return { client, invoice };
}
const sessionIdOf = (setupUrl: string) => setupUrl.split('/checkout/')[1]!;
const rowsOf = (contactId: string) => ctx.org.db.select().from(sepaMandates).where(and(eq(sepaMandates.org_id, ctx.org.org.id), eq(sepaMandates.contact_id, contactId)));
/** Sets up and signs a mandate for the invoice's client through the fake's Checkout and the signed webhook. */
async function signMandate(invoiceId: string, options?: Parameters<FakeStripe['completeSetup']>[1]) {
  const res = await setup(invoiceId);
  expect(res.status).toBe(200);
  const done = await ctx.fake.completeSetup(sessionIdOf(res.body.setup_url), options);
  expect(done.statuses).toEqual([200, 200]);
  return done;
}
const NO_PROVIDER_ID = /\b(cus|pm|seti|mandate|acct|cs_test)_/;

describe.each([
  ['GET sepa-mandate', getMandate, 'invoice:read', ['contacts:read']],
  ['DELETE sepa-mandate', revoke, 'invoice:write', ['invoice:read']],
  ['POST sepa-mandate-setup', setup, 'invoice:write', ['invoice:read']],
] as const)('%s: access', (_name, request, _scope, tooLittle) => {
  it('401 without a key, 403 without its scope, 404 for another org, an unknown or a malformed id', async () => {
    const { invoice } = await clientInvoice();
    expect(codeOf(await request(invoice.id, ''))).toEqual([401, 'unauthorized']);
    expect(codeOf(await request(invoice.id, await ctx.org.key(tooLittle)))).toEqual([403, 'forbidden']);
    const other = await createTestOrg();
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount().id);
    expect(codeOf(await request(invoice.id, await other.key()))).toEqual([404, 'not_found']);
    expect(codeOf(await request(UNKNOWN))).toEqual([404, 'not_found']);
    expect(codeOf(await request('not-a-uuid'))).toEqual([404, 'not_found']);
  });
});

describe('POST /v1/invoices/{id}/sepa-mandate-setup', () => {
  it('errors in the order of the spec: 503 payments_disabled, then 409 payments_account_required, then 404', async () => {
    const bare = await createTestOrg();
    const bapi = await billingContext(bare);
    const draft = await bapi.draft({ type: 'facture', contact_id: (await bapi.contact({})).id, items: [line('A', '1', 100)] });
    await withoutStripe(async () => {
      const res = await setup(draft.id, bapi.token);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 'payments_disabled', message: expect.stringContaining('STRIPE_SECRET_KEY'), field: null });
      expect(codeOf(await setup(UNKNOWN))).toEqual([503, 'payments_disabled']);
    });
    expect(codeOf(await setup(draft.id, bapi.token))).toEqual([409, 'payments_account_required']);
    expect(codeOf(await setup(UNKNOWN, bapi.token))).toEqual([409, 'payments_account_required']);
    expect(codeOf(await setup(draft.id))).toEqual([404, 'not_found']);
  });

  it('opens a setup-mode Checkout (SEPA only, euro) for the buyer contact, whose customer is created once', async () => {
    ctx.fake.reset();
    const { client, invoice } = await clientInvoice({}, { company: 'Boulangerie Martin' });
    const res = await setup(invoice.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ setup_url: expect.stringMatching(new RegExp(`^${ctx.fake.url}/checkout/cs_test_c`)) });

    const [customer] = await ctx.org.db.select().from(paymentCustomers).where(eq(paymentCustomers.contact_id, client.id));
    expect(customer).toMatchObject({ org_id: ctx.org.org.id, customer_id: expect.stringMatching(/^cus_/) });
    const created = ctx.fake.requests.filter((r) => r.path === '/v1/customers');
    expect(created).toHaveLength(1);
    expect(created[0]!.headers).toMatchObject({ 'stripe-account': ctx.account, 'idempotency-key': `customer:${ctx.account}:${client.id}` });
    expect(created[0]!.body).toMatchObject({ name: 'Boulangerie Martin', metadata: { org_id: ctx.org.org.id, contact_id: client.id } });

    const [session] = ctx.fake.requests.filter((r) => r.path === '/v1/checkout/sessions');
    const metadata = { org_id: ctx.org.org.id, contact_id: client.id, document_id: invoice.id };
    expect(session!.headers['stripe-account']).toBe(ctx.account);
    expect(session!.body).toEqual({
      mode: 'setup',
      currency: 'eur',
      customer: customer!.customer_id,
      allowed_payment_method_types: ['sepa_debit'],
      success_url: `${APP}/pay/mandate?status=success`,
      cancel_url: `${APP}/pay/mandate?status=cancel`,
      metadata,
      setup_intent_data: { metadata },
    });

    // Again: a new session, the same customer.
    const again = await setup(invoice.id);
    expect(again.body.setup_url).not.toBe(res.body.setup_url);
    expect(ctx.fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
    expect(JSON.stringify(again.body)).not.toContain(customer!.customer_id);
  });

  it('two setups racing for a new contact make one customer; an English contact returns to the English page', async () => {
    const { client, invoice } = await clientInvoice({}, { preferred_language: 'en', country: 'GB', company: 'Acme Ltd' });
    const [a, b] = await Promise.all([setup(invoice.id), setup(invoice.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await ctx.org.db.select().from(paymentCustomers).where(eq(paymentCustomers.contact_id, client.id));
    expect(rows).toHaveLength(1);
    const customers = [...ctx.fake.objects.values()].filter((o) => o.object.object === 'customer' && (o.object.metadata as { contact_id?: string }).contact_id === client.id);
    expect(customers.map((o) => o.object.id)).toEqual([rows[0]!.customer_id]);
    const session = ctx.fake.objects.get(sessionIdOf(a.body.setup_url))!.object;
    expect(session).toMatchObject({ success_url: `${APP}/pay/mandate?status=success&lang=en`, cancel_url: `${APP}/pay/mandate?status=cancel&lang=en` });
  });

  it('409 contact_deleted / contact_erased when the document\'s client was deleted or erased since', async () => {
    const { client, invoice } = await clientInvoice();
    await ctx.org.db.update(contacts).set({ deleted_at: new Date() }).where(eq(contacts.id, client.id));
    expect(codeOf(await setup(invoice.id))).toEqual([409, 'contact_deleted']);
    await ctx.org.db.update(contacts).set({ erased_at: new Date() }).where(eq(contacts.id, client.id));
    expect(codeOf(await setup(invoice.id))).toEqual([409, 'contact_erased']);
    expect(await ctx.org.db.select().from(paymentCustomers).where(eq(paymentCustomers.contact_id, client.id))).toEqual([]);
  });
});

describe('the mandate, from the provider\'s signed events', () => {
  it('setup → active mandate (IBAN last four kept), GET says active, no provider id in any body; a replay adds nothing', async () => {
    const { client, invoice } = await clientInvoice();
    expect((await getMandate(invoice.id)).body).toEqual({ active: false, status: null });
    const done = await signMandate(invoice.id, { last4: '4321' });

    const res = await getMandate(invoice.id);
    expect([res.status, res.body]).toEqual([200, { active: true, status: 'active' }]);
    const [row] = await rowsOf(client.id);
    expect(row).toMatchObject({ status: 'active', iban_last4: '4321', mandate_id: done.mandate, payment_method_id: done.payment_method, revoked_at: null });
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, client.id)).toEqual({
      status: 'active',
      active: true,
      iban_last4: '4321',
      created_at: row!.created_at.toISOString(),
      revoked_at: null,
    });
    // Another invoice of the same client sees the same mandate.
    const second = await api.issued({ type: 'facture', contact_id: client.id, items: [line('B', '1', 1000)] });
    expect((await getMandate(second.id)).body).toEqual({ active: true, status: 'active' });

    for (const event of ctx.fake.events.filter((e) => e.type === 'setup_intent.succeeded' && (e.data.object as { id: string }).id === done.setup_intent)) {
      expect(await ctx.fake.redeliver(event)).toBe(200);
    }
    expect(await rowsOf(client.id)).toHaveLength(1);
    for (const body of [res.body, (await setup(invoice.id)).body.setup_url.replace(ctx.fake.url, '')]) {
      expect(JSON.stringify(body).replace(/cs_test_c\w+/, '')).not.toMatch(NO_PROVIDER_ID);
    }
  });

  it('a new mandate replaces the previous one (made inactive); one live mandate per contact', async () => {
    const { client, invoice } = await clientInvoice();
    const first = await signMandate(invoice.id);
    const second = await signMandate(invoice.id, { last4: '9999' });
    const rows = await rowsOf(client.id);
    expect(rows.map((r) => [r.mandate_id, r.status]).sort()).toEqual(
      [
        [first.mandate, 'inactive'],
        [second.mandate, 'active'],
      ].sort(),
    );
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, client.id)).toMatchObject({ status: 'active', iban_last4: '9999' });
  });

  it('mandate.updated: inactive → GET says inactive, and a late "active" does not bring it back; pending → active', async () => {
    const { client, invoice } = await clientInvoice();
    const done = await signMandate(invoice.id);
    expect(await ctx.fake.updateMandate(done.mandate, 'inactive')).toEqual([200]);
    expect((await getMandate(invoice.id)).body).toEqual({ active: false, status: null });
    expect(await ctx.fake.updateMandate(done.mandate, 'active')).toEqual([200]);
    expect((await getMandate(invoice.id)).body).toEqual({ active: false, status: null });
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, client.id)).toMatchObject({ status: 'inactive', active: false });

    const other = await clientInvoice();
    const pending = await signMandate(other.invoice.id, { mandate: 'pending' });
    expect((await getMandate(other.invoice.id)).body).toEqual({ active: false, status: null });
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, other.client.id)).toMatchObject({ status: 'pending', active: false });
    await ctx.fake.updateMandate(pending.mandate, 'active');
    expect((await getMandate(other.invoice.id)).body).toEqual({ active: true, status: 'active' });
  });

  it('a setup whose metadata names another org records nothing', async () => {
    const { client, invoice } = await clientInvoice();
    const res = await setup(invoice.id);
    const session = ctx.fake.objects.get(sessionIdOf(res.body.setup_url))!.object;
    (session.metadata as Record<string, string>).org_id = UNKNOWN;
    // The setup intent's metadata is the session's setup_intent_data: tamper with what the fake will copy.
    sessionIntentData.set(session, { metadata: { org_id: UNKNOWN, contact_id: client.id } });
    expect((await ctx.fake.completeSetup(session.id as string)).statuses).toEqual([200, 200]);
    expect(await rowsOf(client.id)).toEqual([]);
  });
});

describe('DELETE /v1/invoices/{id}/sepa-mandate', () => {
  it('without a mandate: {active: false, status: null}, nothing asked of the provider', async () => {
    const { invoice } = await clientInvoice();
    ctx.fake.reset();
    const res = await revoke(invoice.id);
    expect([res.status, res.body]).toEqual([200, { active: false, status: null }]);
    expect(ctx.fake.requests).toEqual([]);
  });

  it('detaches the payment method at the provider and marks the mandate revoked; idempotent', async () => {
    const { client, invoice } = await clientInvoice();
    const done = await signMandate(invoice.id);
    ctx.fake.reset();
    const res = await revoke(invoice.id);
    expect([res.status, res.body]).toEqual([200, { active: false, status: null }]);
    expect(ctx.fake.requests.map((r) => [r.method, r.path, r.headers['stripe-account']])).toEqual([['POST', `/v1/payment_methods/${done.payment_method}/detach`, ctx.account]]);
    expect(ctx.fake.objects.get(done.payment_method)!.object.customer).toBeNull();
    const [row] = await rowsOf(client.id);
    expect(row).toMatchObject({ status: 'revoked', revoked_at: expect.any(Date) });
    expect((await getMandate(invoice.id)).body).toEqual({ active: false, status: null });

    ctx.fake.reset();
    expect((await revoke(invoice.id)).body).toEqual({ active: false, status: null });
    expect(ctx.fake.requests).toEqual([]);
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, client.id)).toMatchObject({ status: 'revoked', active: false, revoked_at: row!.revoked_at!.toISOString() });
  });

  it('a method the provider already detached (or no longer knows) is revoked all the same', async () => {
    const { client, invoice } = await clientInvoice();
    const done = await signMandate(invoice.id);
    ctx.fake.objects.get(done.payment_method)!.object.customer = null;
    expect((await revoke(invoice.id)).status).toBe(200);
    const other = await clientInvoice();
    const gone = await signMandate(other.invoice.id);
    ctx.fake.objects.delete(gone.payment_method);
    expect((await revoke(other.invoice.id)).status).toBe(200);
    expect((await rowsOf(client.id))[0]!.status).toBe('revoked');
    expect((await rowsOf(other.client.id))[0]!.status).toBe('revoked');
  });

  it('503 payments_disabled while a live mandate cannot be detached (no STRIPE_SECRET_KEY): the mandate stays', async () => {
    const { client, invoice } = await clientInvoice();
    await signMandate(invoice.id);
    await withoutStripe(async () => expect(codeOf(await revoke(invoice.id))).toEqual([503, 'payments_disabled']));
    expect((await rowsOf(client.id))[0]!.status).toBe('active');
    // The back-office's revoke is the same service.
    expect(await revokeMandate(ctx.org.db, ctx.org.org.id, client.id)).toEqual({ active: false, status: null });
    expect((await rowsOf(client.id))[0]!.status).toBe('revoked');
  });
});
