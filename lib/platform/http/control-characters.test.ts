import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listEvents } from '@/app/v1/events/route';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { billingContext, routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { readMultipart } from './body';

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

// PostgreSQL cannot hold a NUL: these were 500s (a failed query) on every list but the contacts'.
describe('a control character in a query or a body is a 422 naming its field, on every endpoint', () => {
  it.each([
    ['GET /v1/invoices?q', routes.list, '/v1/invoices', { q: 'a\u0000b' }, 'q'],
    ['GET /v1/products?q', routes.listProducts, '/v1/products', { q: '\u0000' }, 'q'],
    ['GET /v1/events?type', listEvents, '/v1/events', { type: 'contact.\u0000' }, 'type'],
    ['GET /v1/contacts?q', contactRoutes.list, '/v1/contacts', { q: 'x\u001by' }, 'q'],
  ])('%s', async (_, handler, path, query, field) => {
    const res = await call(handler, 'GET', path, { token, query });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'validation_error', message: `${field}: contains a control character`, field });
  });

  it('in a body, at any depth, writing nothing; tabs and line breaks stay allowed', async () => {
    const api = await billingContext(org);
    const contact = await api.contact();
    const bad = await api.create({ type: 'facture', contact_id: contact.id, items: [{ description: 'Audit\u0007', quantity: '1', unit_price: 100, vat_rate: '20' }] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'validation_error', field: 'items.0.description' });
    expect((await api.list()).body.data).toEqual([]);
    const good = await api.create({ type: 'facture', contact_id: contact.id, notes: 'ligne 1\r\n\tligne 2', items: [{ description: 'Audit', quantity: '1', unit_price: 100, vat_rate: '20' }] });
    expect(good.status).toBe(201);
    expect(good.body.notes).toBe('ligne 1\r\n\tligne 2');
  });
});

describe('a multipart body’s text fields', () => {
  const multipart = (fields: Record<string, string | File>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    return new Request('http://localhost/upload', { method: 'POST', body: form });
  };

  it('are refused with a control character, like a query’s or a form’s; a file’s bytes are its own', async () => {
    await expect(readMultipart(multipart({ requested_document_id: 'a\u0000b' }))).rejects.toMatchObject({ status: 422, code: 'validation_error', field: 'requested_document_id' });
    const read = await readMultipart(multipart({ note: 'ligne 1\r\n\tligne 2', file: new File([new Uint8Array([0, 27, 127])], 'x.bin') }));
    expect(read.fields.note).toBe('ligne 1\r\n\tligne 2');
    expect(read.fields.file).toBeInstanceOf(File);
  });
});
