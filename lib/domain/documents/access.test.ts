import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, invoiceSettings, products } from '@/db/schema';
import type { Scope } from '@/lib/platform/auth';
import { buildOpenApiDocument } from '@/lib/platform/openapi';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { documentOperations } from './operations';
import { invoiceSettingsOperations } from '@/lib/domain/invoice-settings';
import { paymentOperations } from '@/lib/domain/payments';
import { productOperations } from '@/lib/domain/products';
import { statsOperations } from '@/lib/domain/stats';
import { billingContext, eventsOf, line, routes } from './testing';

/** Every endpoint of the five billing modules. */
// Online payment (payment-link, send-for-payment, the SEPA mandate's setup) answers 503 payments_disabled before
// anything else without a provider configured: lib/domain/payments/online-payment.test.ts and mandates.test.ts cover their
// 401, 403, 404 and 422 against the fake Stripe, the mandate's GET and DELETE with them; online-refunds.test.ts the refunds'.
const ONLINE_PAYMENT = /\/(payment-link|send-for-payment|sepa-mandate|sepa-mandate-setup|online-refunds)$/;
const billingOperations = [...documentOperations, ...statsOperations, ...paymentOperations, ...invoiceSettingsOperations, ...productOperations].filter(
  (op) => !ONLINE_PAYMENT.test(op.path),
);

/**
 * The foundation's guarantees on every billing endpoint: 401 without a key, 403 without the scope, 404 for
 * another org's resource (left untouched), 422 naming the offending field.
 */
interface Resources {
  contact: string;
  draft: string;
  emptyDraft: string;
  quote: string;
  invoice: string;
  payment: string;
  product: string;
}
let mine: TestOrg;
let theirs: TestOrg;
let my: Resources;
let their: Resources;

async function seed(org: TestOrg): Promise<Resources> {
  const api = await billingContext(org);
  const contact = (await api.contact()).id;
  const draft = (await api.draft({ type: 'facture', contact_id: contact, items: [line('A', '1', 100)] })).id;
  const emptyDraft = (await api.draft({ type: 'facture', contact_id: contact })).id;
  const quote = (await api.issued({ type: 'devis', contact_id: contact, items: [line('A', '1', 100)] })).id;
  const invoice = (await api.issued({ type: 'facture', contact_id: contact, items: [line('A', '1', 100)] })).id;
  const payment = (await api.pay(invoice, { amount: 10 })).body.payment.id;
  const product = (await call(routes.createProduct, 'POST', '/v1/products', { token: api.token, body: { name: 'P', unit_price_cents: 1 } })).body.id;
  return { contact, draft, emptyDraft, quote, invoice, payment, product };
}

beforeAll(async () => {
  mine = await createTestOrg();
  theirs = await createTestOrg();
  my = await seed(mine);
  their = await seed(theirs);
});

type Handler = (typeof routes)[keyof typeof routes];
interface Input {
  body?: unknown;
  query?: Record<string, string>;
}
interface Endpoint {
  name: string;
  handler: Handler;
  scope: Scope;
  /** The path parameters, from an org's resources (absent: no path parameter). */
  params?: (r: Resources) => Record<string, string>;
  input?: (r: Resources) => Input;
  invalid?: Input & { field: string; params?: (r: Resources) => Record<string, string> };
}

const doc = (key: keyof Resources) => (r: Resources) => ({ id: r[key] });
const endpoints: Endpoint[] = [
  { name: 'GET /v1/invoices', handler: routes.list, scope: 'invoice:read', invalid: { query: { type: 'bill' }, field: 'type' } },
  {
    name: 'POST /v1/invoices',
    handler: routes.create,
    scope: 'invoice:write',
    input: (r) => ({ body: { type: 'devis', contact_id: r.contact } }),
    invalid: { body: { type: 'devis', contact_id: 'nope' }, field: 'contact_id' },
  },
  { name: 'GET /v1/invoices/chain', handler: routes.chain, scope: 'invoice:read' },
  { name: 'POST /v1/invoices/chain/verify', handler: routes.verifyChain, scope: 'invoice:read' },
  { name: 'GET /v1/invoices/stats', handler: routes.stats, scope: 'invoice:read', invalid: { query: { from: 'yesterday' }, field: 'from' } },
  { name: 'GET /v1/invoices/revenue', handler: routes.revenue, scope: 'invoice:read', invalid: { query: { to: '2026-02-30' }, field: 'to' } },
  { name: 'GET /v1/invoices/revenue/by-client', handler: routes.revenueByClient, scope: 'invoice:read', invalid: { query: { limit: '500' }, field: 'limit' } },
  {
    name: 'GET /v1/invoices/client-summary',
    handler: routes.clientSummary,
    scope: 'invoice:read',
    input: (r) => ({ query: { contact_id: r.contact } }),
    invalid: { query: { contact_id: 'x' }, field: 'contact_id' },
  },
  { name: 'GET /v1/invoices/{id}', handler: routes.get, scope: 'invoice:read', params: doc('invoice') },
  {
    name: 'PATCH /v1/invoices/{id}',
    handler: routes.patch,
    scope: 'invoice:write',
    params: doc('draft'),
    input: () => ({ body: { title: 'x' } }),
    invalid: { body: { title: 5 }, field: 'title' },
  },
  { name: 'DELETE /v1/invoices/{id}', handler: routes.delete, scope: 'invoice:write', params: doc('draft') },
  { name: 'POST /v1/invoices/{id}/finalize', handler: routes.finalize, scope: 'invoice:write', params: doc('draft'), invalid: { field: 'items', params: doc('emptyDraft') } },
  { name: 'POST /v1/invoices/{id}/cancel', handler: routes.cancel, scope: 'invoice:write', params: doc('quote') },
  { name: 'POST /v1/invoices/{id}/duplicate', handler: routes.duplicate, scope: 'invoice:write', params: doc('invoice') },
  { name: 'POST /v1/invoices/{id}/accept', handler: routes.accept, scope: 'invoice:write', params: doc('quote') },
  { name: 'POST /v1/invoices/{id}/reject', handler: routes.reject, scope: 'invoice:write', params: doc('quote') },
  {
    name: 'POST /v1/invoices/{id}/deposit',
    handler: routes.deposit,
    scope: 'invoice:write',
    params: doc('quote'),
    input: () => ({ body: { percentage: '10' } }),
    invalid: { body: { percentage: 'ten' }, field: 'percentage' },
  },
  {
    name: 'POST /v1/invoices/{id}/credit-note',
    handler: routes.creditNote,
    scope: 'invoice:write',
    params: doc('invoice'),
    input: () => ({ body: { credit_reason_code: 'other' } }),
    invalid: { body: { credit_reason_code: 'because' }, field: 'credit_reason_code' },
  },
  {
    name: 'POST /v1/invoices/{id}/convert-to-facture',
    handler: routes.convert,
    scope: 'invoice:write',
    params: doc('quote'),
    input: () => ({ query: { dry_run: 'true' } }),
    invalid: { query: { dry_run: 'perhaps' }, field: 'dry_run' },
  },
  { name: 'GET /v1/invoices/{id}/payments', handler: routes.listPayments, scope: 'invoice:read', params: doc('invoice'), invalid: { query: { limit: '0' }, field: 'limit' } },
  {
    name: 'POST /v1/invoices/{id}/payments',
    handler: routes.recordPayment,
    scope: 'invoice:write',
    params: doc('invoice'),
    input: () => ({ body: { amount: 1 } }),
    invalid: { body: { amount: 0 }, field: 'amount' },
  },
  {
    name: 'POST /v1/invoices/{id}/refunds',
    handler: routes.recordRefund,
    scope: 'invoice:write',
    params: doc('invoice'),
    input: () => ({ body: { amount: 1 } }),
    invalid: { body: { amount: 1, method: 'bitcoin' }, field: 'method' },
  },
  {
    name: 'DELETE /v1/invoices/{id}/payments/{payment_id}',
    handler: routes.deletePayment,
    scope: 'invoice:write',
    params: (r) => ({ id: r.invoice, payment_id: r.payment }),
  },
  { name: 'GET /v1/invoices/{id}/flow', handler: routes.flow, scope: 'invoice:read', params: doc('invoice') },
  { name: 'GET /v1/invoice/settings', handler: routes.getSettings, scope: 'invoice:read' },
  { name: 'PUT /v1/invoice/settings', handler: routes.putSettings, scope: 'invoice:write', input: () => ({ body: {} }), invalid: { body: { devis_prefix: '' }, field: 'devis_prefix' } },
  { name: 'GET /v1/products', handler: routes.listProducts, scope: 'invoice:read', invalid: { query: { limit: '101' }, field: 'limit' } },
  {
    name: 'POST /v1/products',
    handler: routes.createProduct,
    scope: 'invoice:write',
    input: () => ({ body: { name: 'N', unit_price_cents: 1 } }),
    invalid: { body: { name: '', unit_price_cents: 1 }, field: 'name' },
  },
  { name: 'GET /v1/products/{id}', handler: routes.getProduct, scope: 'invoice:read', params: doc('product') },
  {
    name: 'PATCH /v1/products/{id}',
    handler: routes.patchProduct,
    scope: 'invoice:write',
    params: doc('product'),
    input: () => ({ body: { name: 'M' } }),
    invalid: { body: { vat_rate: 'x' }, field: 'vat_rate' },
  },
  { name: 'DELETE /v1/products/{id}', handler: routes.deleteProduct, scope: 'invoice:write', params: doc('product') },
];

const [methodOf, pathOf] = [(ep: Endpoint) => ep.name.split(' ')[0]!, (ep: Endpoint, params: Record<string, string>) => ep.name.split(' ')[1]!.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '')];

/** What another org's call must leave as it was: their documents, products, settings and events. */
async function snapshotOf(org: TestOrg) {
  return {
    documents: await org.db.select().from(documents).where(eq(documents.org_id, org.org.id)),
    products: await org.db.select().from(products).where(eq(products.org_id, org.org.id)),
    settings: await org.db.select().from(invoiceSettings).where(eq(invoiceSettings.org_id, org.org.id)),
    events: (await eventsOf(org)).length,
  };
}

describe.each(endpoints)('$name', (ep) => {
  const request = (token: string | undefined, r: Resources, input: Input = ep.input?.(r) ?? {}, params = ep.params?.(r) ?? {}) =>
    call(ep.handler, methodOf(ep), pathOf(ep, params), { token, params, ...input });

  it('answers 401 unauthorized without a key, or with a wrong one', async () => {
    for (const token of [undefined, 'paraphe_pk_live_00000000000000000000000000000000']) {
      const res = await request(token, my);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), field: null });
    }
  });

  it(`answers 403 forbidden without ${ep.scope}`, async () => {
    const wrong: Scope[] = ep.scope === 'invoice:write' ? ['invoice:read', 'contacts:write'] : ['contacts:read', 'signature:write'];
    const before = await snapshotOf(mine);
    const res = await request(await mine.key(wrong), my);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(await snapshotOf(mine)).toEqual(before);
  });

  if (ep.params) {
    it("answers 404 for another org's resource, and leaves it untouched", async () => {
      const before = await snapshotOf(theirs);
      const res = await request(await mine.key(), their, ep.input?.(my) ?? {}, ep.params!(their));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: expect.stringMatching(/not found/), field: null });
      expect(await snapshotOf(theirs)).toEqual(before);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['01900000-0000-7000-8000-000000000000', 'not-a-uuid']) {
        const params = Object.fromEntries(Object.keys(ep.params!(my)).map((k) => [k, id]));
        const res = await request(await mine.key(), my, ep.input?.(my) ?? {}, params);
        expect(res.status, id).toBe(404);
      }
    });
  }

  if (ep.invalid) {
    const { field, params, ...input } = ep.invalid;
    it(`answers 422 validation_error naming ${field}`, async () => {
      const res = await request(await mine.key(), my, input, params?.(my) ?? ep.params?.(my));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error', field });
    });
  }
});

describe('client-summary across orgs', () => {
  it("answers 404 for another org's contact", async () => {
    const res = await call(routes.clientSummary, 'GET', '/v1/invoices/client-summary', { token: await mine.key(), query: { contact_id: their.contact } });
    expect(res.status).toBe(404);
  });

  it("creates nothing on another org's contact", async () => {
    const before = await snapshotOf(theirs);
    const res = await call(routes.create, 'POST', '/v1/invoices', { token: await mine.key(), body: { type: 'devis', contact_id: their.contact } });
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'contact_id' });
    const product = await call(routes.create, 'POST', '/v1/invoices', {
      token: await mine.key(),
      body: { type: 'devis', contact_id: my.contact, items: [{ product_id: their.product, quantity: '1' }] },
    });
    expect(product.body).toMatchObject({ code: 'validation_error', field: 'items.0.product_id' });
    expect(await snapshotOf(theirs)).toEqual(before);
  });
});

describe('OpenAPI', () => {
  it('documents every billing operation with its scope, and this test covers each of them', () => {
    const document = buildOpenApiDocument('http://localhost:3000') as unknown as {
      paths: Record<string, Record<string, { description: string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const op of billingOperations) {
      const documented = document.paths[op.path]?.[op.method];
      expect(documented?.description, `${op.method} ${op.path}`).toContain(op.scope);
      for (const status of Object.keys(op.responses)) expect(documented?.responses[status], `${op.path} ${status}`).toBeDefined();
    }
    expect(Object.keys(document.components.schemas.BillingDocument?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'type', 'status', 'contact_name', 'client_snapshot', 'items', 'total_ttc', 'content_hash', 'prev_hash', 'sent_at']),
    );
    expect(endpoints.map((e) => e.name).sort()).toEqual(billingOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort());
  });
});
