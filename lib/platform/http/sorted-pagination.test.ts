import { beforeAll, describe, expect, it } from 'vitest';
import { createContact, listContacts } from '@/lib/domain/contacts';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { listDocuments } from '@/lib/domain/documents';
import { createProduct, listProducts } from '@/lib/domain/products';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { encodeCursor, type ListSort, type Page } from './pagination';

/** Every page of a sorted list, two rows at a time, following next_cursor. */
async function allPages<T extends { id: string }>(load: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await load(cursor);
    rows.push(...page.data);
    if (!page.meta.next_cursor) return rows;
    cursor = page.meta.next_cursor;
  }
  throw new Error('the pages never end');
}

/** Rows ordered by a key then by id, in one direction: what every page read in turn must give. */
const expected = <T extends { id: string }>(rows: T[], key: (r: T) => string | number, dir: 'asc' | 'desc') =>
  [...rows]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      return dir === 'asc' ? c : -c;
    })
    .map((r) => r.id);

let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
});

describe('sorted keyset pagination', () => {
  it('pages contacts sorted by city with ties broken by id: no row lost or repeated, both directions', async () => {
    const cities = ['Lyon', 'Brest', 'Lyon', null, 'annecy', 'Lyon', 'Brest'];
    const made = [];
    for (const [i, city] of cities.entries()) made.push(await createContact(org.db, org.org.id, { company: `Société ${i}`, city }));
    await createContact(other.db, other.org.id, { company: 'Autre org', city: 'Lyon' });
    for (const dir of ['asc', 'desc'] as const) {
      const sort: ListSort<'city'> = { key: 'city', dir };
      const got = await allPages((cursor) => listContacts(org.db, org.org.id, { limit: 2, cursor, include_deleted: false }, sort));
      expect(got.map((c) => c.id)).toEqual(expected(made, (c) => (c.city ?? '').toLowerCase(), dir));
    }
    // By name, accents folded (name_key): "Société 0" … "Société 6" in order.
    const byName = await allPages((cursor) => listContacts(org.db, org.org.id, { limit: 3, cursor, include_deleted: false }, { key: 'name', dir: 'asc' }));
    expect(byName.map((c) => c.company)).toEqual(cities.map((_, i) => `Société ${i}`));
  });

  it('refuses a cursor issued for another sort or direction, and the API cursor (422 invalid_cursor)', async () => {
    const first = await listContacts(org.db, org.org.id, { limit: 2, include_deleted: false }, { key: 'city', dir: 'asc' });
    const cursor = first.meta.next_cursor!;
    for (const sort of [
      { key: 'city', dir: 'desc' },
      { key: 'email', dir: 'asc' },
    ] as const) {
      await expect(listContacts(org.db, org.org.id, { limit: 2, cursor, include_deleted: false }, sort)).rejects.toMatchObject({ status: 422, code: 'invalid_cursor' });
    }
    const apiCursor = encodeCursor(first.data[0]!.id);
    await expect(listContacts(org.db, org.org.id, { limit: 2, cursor: apiCursor, include_deleted: false }, { key: 'city', dir: 'asc' })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    // Another value under the same tag: a forged position.
    const [, tag] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify(['city', 'asc', 'zzz', first.data[0]!.id])).toString('base64url')}.${tag}`;
    await expect(listContacts(org.db, org.org.id, { limit: 2, cursor: forged, include_deleted: false }, { key: 'city', dir: 'asc' })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('pages documents sorted by signed total, client, number and date, filters kept', async () => {
    const api = await billingContext(org);
    const zoe = await api.contact({ company: 'Zoé Conseil' });
    const alpha = await api.contact({ company: 'Alpha Bâtiment' });
    const draft = (contact: string, cents: number, extra: Record<string, unknown> = {}) =>
      api.draft({ type: 'facture', contact_id: contact, items: [line('Prestation', '1', cents)], ...extra }) as Promise<{ id: string }>;
    const a = await draft(zoe.id, 10_000, { issue_date: '2026-03-01' });
    const b = await draft(alpha.id, 10_000, { issue_date: '2026-01-15' });
    const c = await draft(zoe.id, 5_000, { issue_date: '2026-03-01' });
    const d = await api.issued({ type: 'facture', contact_id: alpha.id, payment_method: 'bank_transfer', items: [line('Audit', '1', 30_000)] });
    const avoir = api.expectStatus(await api.creditNote(d.id, { credit_reason_code: 'commercial_gesture', items: [line('Remise', '1', 20_000)] }), 201, 'credit note');
    const totals = new Map([
      [a.id, 12_000],
      [b.id, 12_000],
      [c.id, 6_000],
      [d.id, 36_000],
      [avoir.id, -24_000],
    ]);
    const all = [...totals.keys()].map((id) => ({ id }));
    const list = (sort: Parameters<typeof listDocuments>[3], filters: Record<string, string> = {}) =>
      allPages((cursor) => listDocuments(org.db, org.org.id, { limit: 2, cursor, ...filters }, sort));

    for (const dir of ['asc', 'desc'] as const) {
      const got = await list({ key: 'total_ttc', dir });
      expect(got.map((x) => x.id)).toEqual(expected(all, (x) => totals.get(x.id)!, dir));
    }
    // Client: Alpha's three (the invoice, its credit note, a draft) before Zoé's two, ties by id.
    const byClient = await list({ key: 'client', dir: 'asc' });
    expect(byClient.map((x) => x.contact_name)).toEqual(['Alpha Bâtiment', 'Alpha Bâtiment', 'Alpha Bâtiment', 'Zoé Conseil', 'Zoé Conseil']);
    expect(byClient.slice(3).map((x) => x.id)).toEqual([a.id, c.id]);
    // Issue date, then id: the 15 January draft first, the two of 1 March in id order, then today's.
    const byDate = await list({ key: 'issue_date', dir: 'asc' });
    expect(byDate.slice(0, 3).map((x) => x.id)).toEqual([b.id, a.id, c.id]);
    // Numbers: the drafts (the credit note is one too) have none and come first ascending, last descending.
    expect((await list({ key: 'number', dir: 'asc' })).map((x) => x.number !== null)).toEqual([false, false, false, false, true]);
    expect((await list({ key: 'number', dir: 'desc' })).map((x) => x.id)[0]).toBe(d.id);
    // A filter holds across the sorted pages.
    const drafts = await list({ key: 'total_ttc', dir: 'desc' }, { status: 'draft', type: 'facture' });
    expect(drafts.map((x) => x.id)).toEqual(expected([a, b, c], (x) => totals.get(x.id)!, 'desc'));
    // The other org sees none of them.
    expect((await listDocuments(other.db, other.org.id, { limit: 50 }, { key: 'total_ttc', dir: 'asc' })).data).toEqual([]);
  }, 60_000);

  it('pages products sorted by price', async () => {
    const prices = [500, 1_000, 500, 250, 1_000];
    const made = [];
    for (const [i, cents] of prices.entries()) made.push(await createProduct(org.db, org.org.id, { name: `Produit ${i}`, unit_price_cents: cents, vat_rate: '20.00' }));
    for (const dir of ['asc', 'desc'] as const) {
      const got = await allPages((cursor) => listProducts(org.db, org.org.id, { limit: 2, cursor }, { key: 'price', dir }));
      expect(got.map((p) => p.id)).toEqual(expected(made, (p) => p.unit_price_cents, dir));
    }
  });
});
