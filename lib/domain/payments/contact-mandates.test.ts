import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as exportRoute from '@/app/v1/contacts/[id]/export/route';
import * as mergePreviewRoute from '@/app/v1/contacts/[id]/merge-preview/route';
import * as setupRoute from '@/app/v1/invoices/[id]/sepa-mandate-setup/route';
import { paymentCustomers, sepaMandates } from '@/db/schema';
import { eraseContact, mergeContacts } from '@/lib/domain/contacts';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { type ContactMandatesJobData, revokeContactMandatesJob } from './contact-mandates';

const ctx = connectedStripe({ webhook: true });
let api: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  api = await billingContext(ctx.org);
});

/** A client whose mandate setup (the fake's Checkout) is open; `sign` completes it through the signed webhook. */
async function clientWithSetup() {
  const client = await api.contact({ email: `compta-${Math.random().toString(36).slice(2, 8)}@client.example` });
  const invoice = await api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '1', 45000)] });
  const res = await call(setupRoute.POST, 'POST', `/v1/invoices/${invoice.id}/sepa-mandate-setup`, { token: api.token, params: { id: invoice.id } });
  expect(res.status).toBe(200);
  const sign = async () => {
    const done = await ctx.fake.completeSetup(res.body.setup_url.split('/checkout/')[1]!);
    expect(done.statuses).toEqual([200, 200]);
    return done;
  };
  return { client, sign };
}

/** A client with an active mandate. */
async function clientWithMandate() {
  const { client, sign } = await clientWithSetup();
  return { client, done: await sign() };
}

const mandatesOf = (contactId: string) => ctx.org.db.select().from(sepaMandates).where(and(eq(sepaMandates.org_id, ctx.org.org.id), eq(sepaMandates.contact_id, contactId)));
const customersOf = (contactId: string) => ctx.org.db.select().from(paymentCustomers).where(and(eq(paymentCustomers.org_id, ctx.org.org.id), eq(paymentCustomers.contact_id, contactId)));

/** The revocation jobs the contact's events wrote, run as the worker would. */
async function runJobsOf(contactId: string): Promise<ContactMandatesJobData[]> {
  const { rows } = (await ctx.org.db.execute(
    sql`select data from pgboss.job where name = ${revokeContactMandatesJob.name} and data->>'contact_id' = ${contactId}`,
  )) as unknown as { rows: Array<{ data: ContactMandatesJobData }> };
  for (const { data } of rows) await revokeContactMandatesJob.handle(data, { db: ctx.org.db, jobId: 'test', attempt: 1 });
  return rows.map((r) => r.data);
}

describe('a contact erased or merged away loses its SEPA mandate', () => {
  it('erasure: the mandate is detached at the provider and revoked, the customer forgotten, the IBAN digits blanked', async () => {
    const { client, done } = await clientWithMandate();
    expect(await customersOf(client.id)).toHaveLength(1);
    await eraseContact(ctx.org.db, ctx.org.org.id, client.id);
    ctx.fake.reset();
    expect(await runJobsOf(client.id)).toEqual([{ org_id: ctx.org.org.id, contact_id: client.id, erased: true }]);
    expect(ctx.fake.requests.map((r) => [r.method, r.path, r.headers['stripe-account']])).toEqual([['POST', `/v1/payment_methods/${done.payment_method}/detach`, ctx.account]]);
    expect(await mandatesOf(client.id)).toMatchObject([{ status: 'revoked', revoked_at: expect.any(Date), iban_last4: null }]);
    expect(await customersOf(client.id)).toEqual([]);

    // A retried job finds nothing live: no second call.
    ctx.fake.reset();
    await runJobsOf(client.id);
    expect(ctx.fake.requests).toEqual([]);
  });

  it('merge: the merged-away contact\'s mandate is revoked; the target keeps its own', async () => {
    const source = await clientWithMandate();
    const target = await clientWithMandate();
    await mergeContacts(ctx.org.db, ctx.org.org.id, target.client.id, { source_ids: [source.client.id] });
    ctx.fake.reset();
    expect(await runJobsOf(source.client.id)).toEqual([{ org_id: ctx.org.org.id, contact_id: source.client.id, erased: false }]);
    expect(ctx.fake.requests.map((r) => r.path)).toEqual([`/v1/payment_methods/${source.done.payment_method}/detach`]);
    const [revoked] = await mandatesOf(source.client.id);
    expect(revoked).toMatchObject({ status: 'revoked', iban_last4: expect.any(String) });
    expect(await customersOf(source.client.id)).toEqual([]);
    expect(await mandatesOf(target.client.id)).toMatchObject([{ status: 'active' }]);
    expect(await customersOf(target.client.id)).toHaveLength(1);
  });

  it('a setup signed after its contact was erased records no mandate and detaches the method at the provider', async () => {
    const { client, sign } = await clientWithSetup();
    await eraseContact(ctx.org.db, ctx.org.org.id, client.id);
    await runJobsOf(client.id);
    const done = await sign();
    expect(await mandatesOf(client.id)).toEqual([]);
    expect(ctx.fake.objects.get(done.payment_method)!.object.customer).toBeNull();
  });
});

describe('a contact\'s SEPA mandates in its GDPR export and its merges', () => {
  it('the export lists every mandate of the contact as staff see it, never the provider\'s ids', async () => {
    const { client } = await clientWithMandate();
    const res = await call(exportRoute.GET, 'GET', `/v1/contacts/${client.id}/export`, { token: await ctx.org.key(['contacts:read']), params: { id: client.id } });
    expect(res.status).toBe(200);
    const [row] = await mandatesOf(client.id);
    expect(res.body.related.sepa_mandates).toEqual([
      { id: row!.id, status: 'active', iban_last4: row!.iban_last4, created_at: row!.created_at.toISOString(), revoked_at: null },
    ]);
    expect(row!.iban_last4).toMatch(/^\d{4}$/);
    const text = JSON.stringify(res.body);
    for (const providerId of [row!.customer_id, row!.payment_method_id, row!.mandate_id!]) expect(text).not.toContain(providerId);

    // Another org's contact id is a 404, as for every export.
    const other = await api.contact({ email: 'autre@client.example' });
    const stranger = await createTestOrg();
    const foreign = await call(exportRoute.GET, 'GET', `/v1/contacts/${other.id}/export`, { token: await stranger.key(), params: { id: other.id } });
    expect(foreign.status).toBe(404);
  });

  it('a merge preview does not count the source\'s mandate among the records that move', async () => {
    const source = await clientWithMandate();
    const target = await api.contact({ email: 'cible@client.example' });
    const res = await call(mergePreviewRoute.POST, 'POST', `/v1/contacts/${target.id}/merge-preview`, {
      token: api.token,
      params: { id: target.id },
      body: { source_ids: [source.client.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.moves.map((m: { resource: string }) => m.resource)).not.toContain('sepa_mandates');
    expect(res.body.moves).toContainEqual({ resource: 'billing_documents', count: 1 });
  });
});
