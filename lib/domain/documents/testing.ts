import { and, asc, eq, sql } from 'drizzle-orm';
import * as settingsRoute from '@/app/v1/invoice/settings/route';
import * as accept from '@/app/v1/invoices/[id]/accept/route';
import * as cancel from '@/app/v1/invoices/[id]/cancel/route';
import * as convert from '@/app/v1/invoices/[id]/convert-to-facture/route';
import * as creditNote from '@/app/v1/invoices/[id]/credit-note/route';
import * as deposit from '@/app/v1/invoices/[id]/deposit/route';
import * as duplicate from '@/app/v1/invoices/[id]/duplicate/route';
import * as finalize from '@/app/v1/invoices/[id]/finalize/route';
import * as flow from '@/app/v1/invoices/[id]/flow/route';
import * as payment from '@/app/v1/invoices/[id]/payments/[payment_id]/route';
import * as paymentsRoute from '@/app/v1/invoices/[id]/payments/route';
import * as refunds from '@/app/v1/invoices/[id]/refunds/route';
import * as reject from '@/app/v1/invoices/[id]/reject/route';
import * as one from '@/app/v1/invoices/[id]/route';
import * as chainRoute from '@/app/v1/invoices/chain/route';
import * as chainVerify from '@/app/v1/invoices/chain/verify/route';
import * as clientSummary from '@/app/v1/invoices/client-summary/route';
import * as byClient from '@/app/v1/invoices/revenue/by-client/route';
import * as revenue from '@/app/v1/invoices/revenue/route';
import * as collection from '@/app/v1/invoices/route';
import * as stats from '@/app/v1/invoices/stats/route';
import * as productOne from '@/app/v1/products/[id]/route';
import * as productCollection from '@/app/v1/products/route';
import type { Db } from '@/db/client';
import { documents, events } from '@/db/schema';
import { newContact } from '@/lib/domain/contacts/testing';
import { selectFullDocuments } from './documents';
import type { TestOrg } from '@/lib/testing/fixtures';
import { type CallResult, call } from '@/lib/testing/http';

/** The billing route handlers, for tests. */
export const routes = {
  chain: chainRoute.GET,
  verifyChain: chainVerify.POST,
  list: collection.GET,
  create: collection.POST,
  get: one.GET,
  patch: one.PATCH,
  delete: one.DELETE,
  finalize: finalize.POST,
  cancel: cancel.POST,
  duplicate: duplicate.POST,
  accept: accept.POST,
  reject: reject.POST,
  deposit: deposit.POST,
  creditNote: creditNote.POST,
  convert: convert.POST,
  listPayments: paymentsRoute.GET,
  recordPayment: paymentsRoute.POST,
  deletePayment: payment.DELETE,
  recordRefund: refunds.POST,
  flow: flow.GET,
  stats: stats.GET,
  revenue: revenue.GET,
  revenueByClient: byClient.GET,
  clientSummary: clientSummary.GET,
  getSettings: settingsRoute.GET,
  putSettings: settingsRoute.PUT,
  listProducts: productCollection.GET,
  createProduct: productCollection.POST,
  getProduct: productOne.GET,
  patchProduct: productOne.PATCH,
  deleteProduct: productOne.DELETE,
};

/**
 * Drafts the tests create are finalizable unless a test says otherwise: a nature of the operation (a mandatory
 * mention checked at finalization) when the body names none. An explicit `operation_nature: null` stays null.
 */
export const finalizable = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body) && !('operation_nature' in body) ? { operation_nature: 'services', ...body } : body;

/** A billing test context: an org, its full-scope key, and shortcuts for the calls every test makes. */
export async function billingContext(org: TestOrg) {
  const token = await org.key();
  const expectStatus = (res: CallResult, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const onDoc = (handler: (typeof routes)[keyof typeof routes], verb: string) => (id: string, body?: unknown, query?: Record<string, string>) =>
    call(handler, 'POST', `/v1/invoices/${id}/${verb}`, { token, params: { id }, body, query });
  const api = {
    token,
    contact: async (body: Record<string, unknown> = {}) =>
      (await newContact(org, { company: 'Client SARL', siret: '55203253400646', address: '1 rue du Client', postal_code: '69001', city: 'Lyon', ...body })) as {
        id: string;
      },
    create: (body: unknown) => call(routes.create, 'POST', '/v1/invoices', { token, body: finalizable(body) }),
    get: (id: string) => call(routes.get, 'GET', `/v1/invoices/${id}`, { token, params: { id } }),
    patch: (id: string, body: unknown) => call(routes.patch, 'PATCH', `/v1/invoices/${id}`, { token, params: { id }, body }),
    remove: (id: string) => call(routes.delete, 'DELETE', `/v1/invoices/${id}`, { token, params: { id } }),
    list: (query: Record<string, string> = {}) => call(routes.list, 'GET', '/v1/invoices', { token, query }),
    finalize: onDoc(routes.finalize, 'finalize'),
    cancel: onDoc(routes.cancel, 'cancel'),
    duplicate: onDoc(routes.duplicate, 'duplicate'),
    accept: onDoc(routes.accept, 'accept'),
    reject: onDoc(routes.reject, 'reject'),
    deposit: onDoc(routes.deposit, 'deposit'),
    creditNote: onDoc(routes.creditNote, 'credit-note'),
    convert: onDoc(routes.convert, 'convert-to-facture'),
    pay: (id: string, body: unknown) => call(routes.recordPayment, 'POST', `/v1/invoices/${id}/payments`, { token, params: { id }, body }),
    refund: (id: string, body: unknown) => call(routes.recordRefund, 'POST', `/v1/invoices/${id}/refunds`, { token, params: { id }, body }),
    payments: (id: string) => call(routes.listPayments, 'GET', `/v1/invoices/${id}/payments`, { token, params: { id } }),
    unpay: (id: string, paymentId: string) =>
      call(routes.deletePayment, 'DELETE', `/v1/invoices/${id}/payments/${paymentId}`, { token, params: { id, payment_id: paymentId } }),
    flow: (id: string) => call(routes.flow, 'GET', `/v1/invoices/${id}/flow`, { token, params: { id } }),
    expectStatus,
    /** A draft through the API (201 expected). */
    async draft(body: Record<string, unknown>) {
      return expectStatus(await api.create(body), 201, 'create');
    },
    /** A draft finalized through the API. */
    async issued(body: Record<string, unknown>) {
      const draft = await api.draft(body);
      return expectStatus(await api.finalize(draft.id), 200, 'finalize');
    },
  };
  return api;
}

export const line = (description: string, quantity: string, unit_price: number, vat_rate = '20', extra: Record<string, unknown> = {}) => ({
  description,
  quantity,
  unit_price,
  vat_rate,
  ...extra,
});

/** A document's row with its states (render, transmission, lifecycle: pdf's and einvoicing's rows), as loadDocument reads it. */
export const documentRow = async (db: Db, id: string) => (await selectFullDocuments(db).where(eq(documents.id, id)))[0];

export const eventsOf = async (org: TestOrg, prefix?: string) =>
  (await org.db.select().from(events).where(eq(events.org_id, org.org.id)).orderBy(asc(events.id))).filter((e) => !prefix || e.type.startsWith(prefix));

/** Runs `fn` with the immutability triggers off for this transaction only (tests that tamper on purpose). */
export async function withoutTriggers(db: Db, fn: (tx: Db) => Promise<void>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await fn(tx);
  });
}

export const docsOf = (org: TestOrg) => selectFullDocuments(org.db).where(and(eq(documents.org_id, org.org.id))).orderBy(asc(documents.id));
