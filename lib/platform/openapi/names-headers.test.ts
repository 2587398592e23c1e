import { beforeAll, expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { SCOPES } from '@/lib/platform/auth';
import { routes } from '@/lib/domain/documents/testing';
import { operations } from '@/lib/composition/modules';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { TAG_DESCRIPTIONS } from './tags';

// biome-ignore lint/suspicious/noExplicitAny: the document is inspected as JSON
let doc: any;
let org: TestOrg;
beforeAll(async () => {
  doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  org = await createTestOrg();
});

type Documented = { operationId: string; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { headers?: Record<string, { $ref: string }> }> };
const documented = (): Array<[string, string, Documented]> =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as Record<string, Documented>).map(([method, op]) => [method, path, op] as [string, string, Documented]));

it('names every operation action-style, uniquely, from its method and path', () => {
  const ids = documented().map(([, , op]) => op.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)+$/);
  const byRoute = Object.fromEntries(documented().map(([method, path, op]) => [`${method} ${path}`, op.operationId]));
  expect(byRoute).toMatchObject({
    'get /v1/contacts': 'listContacts',
    'post /v1/contacts': 'createContact',
    'get /v1/contacts/{id}': 'getContact',
    'post /v1/contacts/import': 'importContacts',
    'post /v1/contacts/{id}/merge-preview': 'previewContactMerge',
    'post /v1/invoices/{id}/finalize': 'finalizeInvoice',
    'post /v1/invoices/{id}/payments': 'createInvoicePayment',
    'get /v1/invoices/{id}/payments': 'listInvoicePayments',
    'delete /v1/invoices/{id}/payments/{payment_id}': 'deleteInvoicePayment',
    'post /v1/invoices/{id}/convert-to-facture': 'convertInvoiceToFacture',
    'put /v1/invoice/settings': 'replaceInvoiceSettings',
    'post /v1/webhooks/endpoints/{id}/rotate-secret': 'rotateWebhookEndpointSecret',
    'post /v1/webhooks/endpoints/{id}/deliveries/{delivery_id}/redeliver': 'redeliverWebhookEndpointDelivery',
  });
  expect(doc.webhooks['invoice.paid'].post.operationId).toBe('invoicePaidEvent');
});

it('declares every tag in use with a description, the contact, the licence and every scope', () => {
  const used = new Set([...documented().flatMap(([, , op]) => (op as { tags?: string[] }).tags ?? []), 'Webhook events']);
  expect(doc.tags.map((t: { name: string }) => t.name).sort()).toEqual([...used].sort());
  for (const tag of doc.tags) expect(tag.description, `${tag.name}: add its description to lib/platform/openapi/tags.ts`).toBe(TAG_DESCRIPTIONS[tag.name]);
  for (const tag of doc.tags) expect(tag.description).toBeTruthy();
  expect(doc.info.contact.url).toBeTruthy();
  expect(doc.info.license.name).toBeTruthy();
  const scheme = doc.components.securitySchemes.apiKey;
  expect(Object.keys(scheme['x-scopes']).sort()).toEqual([...SCOPES].sort());
  for (const op of operations) expect(scheme['x-scopes'][op.scope], op.scope).toBeTruthy();
  for (const scope of SCOPES) expect(scheme.description).toContain(`\`${scope}\``);
});

it('documents the headers of every response: X-Request-Id, RateLimit-*, Retry-After on 429, the replay marker and Idempotency-Key on POST, ETag on PDFs', () => {
  for (const [method, path, op] of documented()) {
    const where = `${method} ${path}`;
    for (const [status, response] of Object.entries(op.responses)) {
      const headers = Object.keys(response.headers ?? {});
      expect(headers, `${where} ${status}`).toContain('X-Request-Id');
      if (status !== '401' && status !== '400') expect(headers, `${where} ${status}`).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
      expect(headers.includes('Retry-After'), `${where} ${status}`).toBe(status === '429');
      expect(headers.includes('Idempotent-Replayed'), `${where} ${status}`).toBe(method === 'post' && Number(status) < 300);
      for (const h of Object.values(response.headers ?? {})) expect(doc.components.headers[h.$ref.split('/').pop()!], h.$ref).toBeDefined();
    }
    const params = (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(params.includes('Idempotency-Key'), where).toBe(method === 'post');
  }
  const pdf = doc.paths['/v1/invoices/{id}/pdf'].get;
  expect(pdf.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
  expect(Object.keys(pdf.responses['200'].headers)).toContain('ETag');
  expect(Object.keys(pdf.responses['304'].headers)).toContain('ETag');
});

it('the documented headers are the ones the server sends: request id and quota on every keyed call, the replay marker on a replayed POST only', async () => {
  const token = await org.key();
  const headers = { 'idempotency-key': `k-${org.org.id}` };
  const create = () => call(routes.createProduct, 'POST', '/v1/products', { token, body: { name: 'Pose', unit_price_cents: 1250 }, headers });
  const first = await create();
  expect(first.status).toBe(201);
  const again = await create();
  expect(again.body).toEqual(first.body);
  for (const res of [first, again]) {
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(h), h).toMatch(/^\d+$/);
  }
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  // PATCH does not take Idempotency-Key (as documented): it runs again, no replay marker.
  const id = first.body.id;
  const patch = () => call(routes.patchProduct, 'PATCH', `/v1/products/${id}`, { token, params: { id }, body: { name: 'Pose murale' }, headers });
  const patched = [await patch(), await patch()];
  for (const res of patched) expect([res.status, res.headers.get('idempotent-replayed')]).toEqual([200, null]);
  const anonymous = await call(routes.createProduct, 'POST', '/v1/products', { body: { name: 'x', unit_price_cents: 1 } });
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get('x-request-id')).toBeTruthy();
  expect(anonymous.headers.get('ratelimit-limit')).toBeNull();
});
