import { beforeAll, expect, it } from 'vitest';
import { routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/*
 * Issue 20 item 3: Idempotency-Key is honoured on POST only. PUT, PATCH and DELETE are idempotent by themselves, as the
 * document says (lib/platform/openapi/document.ts, info.description): a key sent with them is ignored — the call runs again,
 * leaves the same state, and never carries the replay marker. (PATCH: lib/platform/openapi/names-headers.test.ts.)
 */
let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

it('PUT with an Idempotency-Key runs again and answers the same state, with no replay marker', async () => {
  const headers = { 'idempotency-key': `put-${org.org.id}` };
  const put = () => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, headers, body: { devis_prefix: 'Q', facture_prefix: 'F' } });
  const [first, second] = [await put(), await put()];
  expect([first.status, second.status]).toEqual([200, 200]);
  expect({ ...second.body, updated_at: null }).toEqual({ ...first.body, updated_at: null });
  for (const res of [first, second]) expect(res.headers.get('idempotent-replayed')).toBeNull();
});

it('DELETE with an Idempotency-Key is not replayed: the retry finds the thing gone (404), as documented', async () => {
  const product = await call(routes.createProduct, 'POST', '/v1/products', { token, body: { name: 'Pose', unit_price_cents: 1250 } });
  const id = product.body.id;
  const headers = { 'idempotency-key': `delete-${id}` };
  const remove = () => call(routes.deleteProduct, 'DELETE', `/v1/products/${id}`, { token, params: { id }, headers });
  const [first, retry] = [await remove(), await remove()];
  expect([first.status, retry.status, retry.body.code]).toEqual([204, 404, 'not_found']);
  for (const res of [first, retry]) expect(res.headers.get('idempotent-replayed')).toBeNull();
  expect((await call(routes.getProduct, 'GET', `/v1/products/${id}`, { token, params: { id } })).status).toBe(404);
});
