import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboundInvoices } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { servedBy } from '@/lib/testing/next-routes';
import { connectorForOrg } from '../connector';
import { ciiInvoice } from '../testing';
import { fetchInbound } from './fetch';
import { inboundRoutes as routes, insertInbound, ownFacturX, type Receiver, inboxFixture } from './testing';

const { receiver } = inboxFixture();
const SPEC_FIELDS = [
  'id', 'transmission_id', 'parse_status', 'invoice_number', 'issue_date', 'due_date', 'currency', 'seller_name', 'sender_siren',
  'total_ht', 'total_vat', 'total_ttc', 'byte_size', 'pdf_storage_key', 'received_at', 'imported_at', 'created_at',
].sort();

let org: Receiver;
let other: TestOrg;
let token: string;
const ids = {} as Record<'first' | 'facturx' | 'broken' | 'pending', string>;

beforeAll(async () => {
  org = await receiver();
  other = await createTestOrg();
  token = await org.key(['invoice:read', 'invoice:write']);
  const own = await ownFacturX();
  const flows = {
    first: org.inject(ciiInvoice({ number: 'API-1', sellerSiren: '552032534' }), 'CII'),
    facturx: org.inject(own.pdf, 'Factur-X'),
    broken: org.inject(Buffer.from('<Invoice'), 'UBL'),
  };
  await fetchInbound(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
  const rows = await org.db.select().from(inboundInvoices).where(eq(inboundInvoices.org_id, org.org.id));
  for (const [name, flowId] of Object.entries(flows)) ids[name as keyof typeof flows] = rows.find((r) => r.flow_id === flowId)!.id;
  ids.pending = (await insertInbound(org, { parse_status: 'pending' })).id;
}, 120_000);

const get = (handler: (typeof routes)['list'], url: string, options: { token?: string; params?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  call(handler, 'GET', url, { token, ...options });

describe('GET /v1/invoices/inbound', () => {
  it('lists the org’s received invoices newest first, in the spec’s shape, paged by cursor', async () => {
    const page1 = await get(routes.list, '/v1/invoices/inbound', { query: { limit: '2' } });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((i: { id: string }) => i.id)).toEqual([ids.pending, ids.broken]);
    expect(Object.keys(page1.body.data[1]).sort()).toEqual(SPEC_FIELDS);
    const page2 = await get(routes.list, '/v1/invoices/inbound', { query: { limit: '2', cursor: page1.body.meta.next_cursor } });
    expect(page2.body.data.map((i: { id: string }) => i.id)).toEqual([ids.facturx, ids.first]);
    expect(page2.body.meta.next_cursor).toBeNull();
  });

  it('filters by parse_status, sender_siren and received day (Europe/Paris)', async () => {
    const list = async (query: Record<string, string>) => (await get(routes.list, '/v1/invoices/inbound', { query })).body.data.map((i: { id: string }) => i.id);
    expect(await list({ parse_status: 'parse_failed' })).toEqual([ids.broken]);
    expect(await list({ parse_status: 'pending' })).toEqual([ids.pending]);
    expect(await list({ sender_siren: '552032534' })).toEqual([ids.first]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    expect(await list({ received_from: today, received_to: today })).toEqual([ids.broken, ids.facturx, ids.first]);
    expect(await list({ received_to: '2020-01-01' })).toEqual([]);
  });

  it('422 on a bad filter or a forged cursor, naming the field', async () => {
    const bad = async (query: Record<string, string>, field: string) => {
      const res = await get(routes.list, '/v1/invoices/inbound', { query });
      expect([res.status, res.body.field], JSON.stringify(query)).toEqual([422, field]);
    };
    await bad({ parse_status: 'done' }, 'parse_status');
    await bad({ sender_siren: '12' }, 'sender_siren');
    await bad({ received_from: '2026-13-01' }, 'received_from');
    await bad({ sender_siren: '552032535' }, 'sender_siren');
    await bad({ cursor: 'forged' }, 'cursor');
  });

  it('shows nothing of another org', async () => {
    const res = await get(routes.list, '/v1/invoices/inbound', { token: await other.key() });
    expect(res.body.data).toEqual([]);
  });

  it('is served by its own route, not by /v1/invoices/{id} (the static segment wins)', () => {
    expect(servedBy('/v1/invoices/inbound')).toBe('/v1/invoices/inbound');
    expect(servedBy(`/v1/invoices/inbound/${ids.first}`)).toBe('/v1/invoices/inbound/[id]');
    expect(servedBy(`/v1/invoices/inbound/${ids.first}/pdf`)).toBe('/v1/invoices/inbound/[id]/pdf');
    expect(servedBy(`/v1/invoices/inbound/${ids.first}/refuse`)).toBe('/v1/invoices/inbound/[id]/refuse');
  });
});

describe('GET /v1/invoices/inbound/{id}', () => {
  it('answers the spec’s fields exactly: no XML, no digest, no storage key of the original', async () => {
    const res = await get(routes.get, `/v1/invoices/inbound/${ids.first}`, { params: { id: ids.first } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(SPEC_FIELDS);
    const [row] = await org.db.select().from(inboundInvoices).where(eq(inboundInvoices.id, ids.first));
    expect(res.body).toMatchObject({ id: ids.first, transmission_id: row!.flow_id, parse_status: 'parsed', invoice_number: 'API-1', sender_siren: '552032534', byte_size: row!.byte_size });
    expect(JSON.stringify(res.body)).not.toContain(row!.sha256);
    expect(JSON.stringify(res.body)).not.toContain(row!.storage_key);
  });

  it('404 for another org’s invoice, an unknown id or a malformed one', async () => {
    const other404 = await get(routes.get, `/v1/invoices/inbound/${ids.first}`, { token: await other.key(), params: { id: ids.first } });
    expect([other404.status, other404.body.code]).toEqual([404, 'not_found']);
    const unknown = '0190f3a0-0000-7000-8000-000000000009';
    expect((await get(routes.get, `/v1/invoices/inbound/${unknown}`, { params: { id: unknown } })).status).toBe(404);
    const malformed = await get(routes.get, '/v1/invoices/inbound/nope', { params: { id: 'nope' } });
    expect([malformed.status, malformed.body.code]).toEqual([404, 'not_found']);
  });
});

describe('GET /v1/invoices/inbound/{id}/pdf', () => {
  const pdf = (id: string, options: { token?: string; headers?: Record<string, string> } = {}) => get(routes.pdf, `/v1/invoices/inbound/${id}/pdf`, { params: { id }, ...options });

  it('a Factur-X received is its own PDF; an XML gets the rendered view; ETag revalidates to 304 and is not the digest', async () => {
    for (const id of [ids.facturx, ids.first]) {
      const res = await pdf(id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(String(res.body).startsWith('%PDF-')).toBe(true);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      const [row] = await org.db.select().from(inboundInvoices).where(eq(inboundInvoices.id, id));
      expect(etag).not.toContain(row!.sha256.slice(0, 32));
      const again = await pdf(id, { headers: { 'if-none-match': etag } });
      expect([again.status, again.headers.get('etag')]).toEqual([304, etag]);
    }
  });

  it('409 pdf_not_ready while pending, 409 inbound_pdf_unavailable for an XML that could not be read', async () => {
    const pending = await pdf(ids.pending);
    expect([pending.status, pending.body.code]).toEqual([409, 'pdf_not_ready']);
    const broken = await pdf(ids.broken);
    expect([broken.status, broken.body.code]).toEqual([409, 'inbound_pdf_unavailable']);
  });

  it('404 for another org’s invoice', async () => {
    const res = await pdf(ids.facturx, { token: await other.key() });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
  });
});

describe('authentication and scopes', () => {
  it('401 without a key, 403 without invoice:read, on every read endpoint', async () => {
    const id = ids.first;
    const cases: Array<[(typeof routes)['list'], string, Record<string, string>]> = [
      [routes.list, '/v1/invoices/inbound', {}],
      [routes.get, `/v1/invoices/inbound/${id}`, { id }],
      [routes.pdf, `/v1/invoices/inbound/${id}/pdf`, { id }],
    ];
    const contactsOnly = await org.key(['contacts:read']);
    for (const [handler, url, params] of cases) {
      expect((await call(handler, 'GET', url, { params })).status, url).toBe(401);
      const forbidden = await call(handler, 'GET', url, { params, token: contactsOnly });
      expect([forbidden.status, forbidden.body.code], url).toEqual([403, 'forbidden']);
    }
  });
});
